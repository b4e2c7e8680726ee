import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/support/eventually";
import { FakeReceiver, type ReceivedRequest } from "../../../test/support/fake-receiver";
import { startAllInOne, type AllInOne } from "../../cli/src/all-in-one";
import { apiWith, heading, nav, pageChecks, pageWatch, seedCard, signIn, type Json } from "./console-harness";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const MISSING = !existsSync(CHROMIUM);
/** test-results/ is gitignored. */
const SCREENSHOTS = fileURLToPath(new URL("../../../test-results/console/", import.meta.url));
const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost"]);
/** A capture of this amount gets its card.authorization.closed delivery answered 500 while `failClosed` is on. */
const FAILING_AMOUNT = 1_234;
const OPERATOR_TOKEN = "console-browser-test-operator-token";

let platform: AllInOne;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const receiver = new FakeReceiver();
let failClosed = true;
const ids = { customer: "", card: "", account: "", authorization: "", event: "" };
const api = apiWith(
  () => platform.url,
  () => platform.defaultBusiness.testKey,
);
const { watch, pageErrors, consoleErrors, requested } = pageWatch();
const { check: checkPage, checked: checkedPages } = pageChecks(SCREENSHOTS);

/** The receiver: approves every decision request, answers 200 to everything else but the failing closed events. */
function answer(request: ReceivedRequest) {
  const { event, data } = request.json ?? {};
  if (event === "card.authorization.request") return { status: 200, body: { action: "approve" } };
  if (failClosed && event === "card.authorization.closed" && data?.amount === FAILING_AMOUNT)
    return { status: 500, body: { error: "receiver is down" } };
  return { status: 200, body: { code: "success" } };
}

// CI installs Chromium, so there a missing browser fails the run; on a laptop the suite is skipped.
const skip = MISSING && !process.env.CI;
const title = skip
  ? `console (skipped: no Chromium at ${CHROMIUM}; apt-get install chromium, or set CHROMIUM_PATH)`
  : "console in a browser";

describe.skipIf(skip)(title, () => {
  beforeAll(async () => {
    if (MISSING)
      throw new Error(`No Chromium at ${CHROMIUM}: install it (apt-get install chromium) or set CHROMIUM_PATH`);
    receiver.answerWith(answer);
    await receiver.start();
    platform = await startAllInOne({
      port: 0,
      logLevel: "silent",
      defaultWebhookUrl: receiver.url,
      operatorToken: OPERATOR_TOKEN,
    });
    Object.assign(ids, await seedCard(api));
    await mkdir(SCREENSHOTS, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-background-networking"],
    });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    watch(page);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    await receiver.stop();
  });

  it("signs in with the secret key into an HttpOnly, SameSite=Strict session; the key stays nowhere", async () => {
    await page.goto(`${platform.url}/console/cards`);
    await heading(page, "Sign in to the Cardhold console");
    expect(new URL(page.url()).pathname).toBe("/console/sign-in");
    await checkPage(page, "sign-in", false);

    const key = platform.defaultBusiness.testKey;
    await page.getByLabel("Secret key").fill(key);
    await page.getByRole("button", { name: "Sign in" }).click();
    await heading(page, "Cards"); // the page first asked for
    await page.getByText("TEST", { exact: true }).waitFor();

    expect(page.url()).not.toContain(key);
    expect(await page.evaluate("JSON.stringify([localStorage.length, sessionStorage.length, document.cookie])")).toBe(
      '[0,0,""]',
    );
    expect(await page.content()).not.toContain(key);
    const cookies = await context.cookies();
    expect(cookies.map((c) => c.name)).toEqual(["cardhold_session"]);
    expect(cookies[0]).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/" });
    expect(cookies[0]!.value).not.toContain(key);
  });

  it("simulates a capture and sees it appear live in the authorizations list, then opens its timeline", async () => {
    await nav(page, "Authorizations");
    await heading(page, "Authorizations");
    await page.getByText(/^Live: /).waitFor();
    await page.evaluate("window.__sameDocument = true");

    const simulator = await context.newPage();
    watch(simulator);
    await simulator.goto(`${platform.url}/console/simulate`);
    await heading(simulator, "Simulate");
    await simulator.getByLabel("Card id").fill(ids.card);
    await simulator.getByRole("radio", { name: "Capture (a purchase)" }).check();
    await simulator.getByLabel("Amount (minor units, e.g. kobo)").fill("4321");
    await simulator.getByRole("button", { name: "Send to the network" }).click();
    const outcome = simulator.getByRole("status").filter({ hasText: "The network's request was decided" });
    await outcome.getByText("approved").waitFor();
    const href = (await outcome.getByRole("link", { name: "Open its timeline" }).getAttribute("href"))!;
    ids.authorization = decodeURIComponent(href.split("/").pop()!);
    await checkPage(simulator, "simulate");
    await simulator.close();

    // Live: the row arrives through the stream, in the same document (no reload).
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: ids.authorization }) });
    await row.getByText("approved").waitFor();
    await expect(row.getByRole("cell", { name: /^NGN\s43\.21$/ }).count()).resolves.toBe(1);
    expect(await page.evaluate("window.__sameDocument")).toBe(true);
    await checkPage(page, "authorizations");

    await page.getByRole("link", { name: ids.authorization }).click();
    await heading(page, `Authorization ${ids.authorization}`);
    const timeline = page.getByRole("list").filter({ hasText: "Pre-checks passed" });
    for (const step of [
      `Created: capture on card ${ids.card}`,
      "Decision requested from the receiver",
      "Receiver answered: approved",
      "Ledger: capture debit",
      "Closed: final status sent",
    ])
      await timeline.getByRole("heading", { name: step }).waitFor();
    await timeline.getByText(/^HTTP 200 after \d+ ms: \{"action":"approve"\}$/).waitFor();
    await timeline.getByRole("cell", { name: '{"action":"approve"}' }).waitFor();
    await checkPage(page, "authorization");
  });

  it("resends a delivery the receiver failed, and shows each attempt", async () => {
    const capture = await api("POST", `/simulation/cards/${ids.card}/request-authorization/capture`, {
      channel: "pos",
      amount: FAILING_AMOUNT,
    });
    const failed = await eventually(async () => {
      const events = await api(
        "GET",
        `/events?filter=${encodeURIComponent(`resource:${capture.data.id} event:card.authorization.closed`)}`,
      );
      const event = (await api("GET", `/events/${events.data[0].id}`)).data;
      expect(event.deliveries[0].attempts[0].httpStatus).toBe(500);
      return event;
    });
    ids.event = failed.id;
    failClosed = false;

    await nav(page, "Events");
    await heading(page, "Events");
    await page.getByLabel("Filter").fill(`resource:${capture.data.id} event:card.authorization.closed`);
    await page.getByRole("button", { name: "Apply filter" }).click();
    await page.getByRole("link", { name: ids.event }).click();
    await heading(page, `Event ${ids.event}`);
    const attempts = page.getByRole("table", { name: /^Delivery attempts/ });
    await attempts.getByRole("row").filter({ hasText: "500" }).first().waitFor();

    const before = receiver.byEvent(ids.event).length;
    await page.getByRole("button", { name: "Resend event" }).click();
    await attempts.getByRole("row").filter({ hasText: "manual" }).filter({ hasText: "200" }).waitFor();
    expect(receiver.byEvent(ids.event).length).toBeGreaterThan(before);
    await checkPage(page, "event");

    await nav(page, "Events");
    await heading(page, "Events");
    await checkPage(page, "events");
  });

  it("creates a webhook, enables it, sends it a test event and rolls its signing key", async () => {
    await nav(page, "Webhooks");
    await heading(page, "Webhooks");
    const form = page.getByRole("form", { name: "Create a webhook" });
    await form.getByLabel("Name").fill("Console hook");
    await form.getByLabel("URL").fill(receiver.url.replace(/\/hook$/, "/second"));
    await form.getByRole("checkbox", { name: "card.transaction.created" }).check();
    await form.getByRole("button", { name: "Create webhook" }).click();
    const row = page.getByRole("row").filter({ hasText: "Console hook" });
    await row.getByText("created", { exact: true }).waitFor();

    await row.getByRole("button", { name: "Enable Console hook" }).click();
    await row.getByText("enabled", { exact: true }).waitFor();
    await page.getByRole("status").filter({ hasText: "Console hook enabled." }).waitFor();

    await row.getByRole("button", { name: "Send test event to Console hook" }).click();
    await page.getByRole("status").filter({ hasText: "Test event sent to Console hook" }).waitFor();
    await eventually(() => expect(receiver.received.some((r) => r.path === "/second")).toBe(true), 10_000);

    await row.getByRole("button", { name: "Roll signing key of Console hook" }).click();
    await page.getByRole("status").filter({ hasText: "New signing key of Console hook" }).waitFor();
    await checkPage(page, "webhooks");
  });

  it("shows every other page: Home, customers, cards, accounts and their records", async () => {
    await nav(page, "Home");
    await heading(page, "Home");
    await page.getByRole("term").filter({ hasText: "Approval rate" }).waitFor();
    await checkPage(page, "home");
    await page.getByRole("radio", { name: "Last day" }).check();
    await page
      .getByRole("figure", { name: "Authorizations per minute" })
      .getByText(/^Latest \d/)
      .waitFor();

    for (const name of ["Customers", "Cards", "Accounts"]) {
      await nav(page, name);
      await heading(page, name);
      await page.getByRole("table", { name }).waitFor();
      await checkPage(page, name.toLowerCase());
    }

    await page.goto(`${platform.url}/console/customers/${ids.customer}`);
    await heading(page, `Customer ${ids.customer}`);
    await page.getByRole("link", { name: ids.card }).waitFor();
    await checkPage(page, "customer");

    await page.getByRole("link", { name: ids.card }).click();
    await heading(page, `Card ${ids.card}`);
    await page.getByRole("button", { name: "Freeze card" }).click();
    await page.getByRole("button", { name: "Unfreeze card" }).waitFor();
    await page.getByText("blocked", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Unfreeze card" }).click();
    await page.getByRole("button", { name: "Freeze card" }).waitFor();
    const controls = page.getByRole("form", { name: "Controls" });
    await controls.getByRole("group", { name: "Blocked channels" }).getByRole("checkbox", { name: "atm" }).check();
    await controls.getByLabel(/^Per-authorization limit/).fill("50000");
    await controls.getByRole("button", { name: "Save controls" }).click();
    await page.getByRole("status").filter({ hasText: "Controls saved." }).waitFor();
    expect((await api("GET", `/cards/${ids.card}`)).data.controls).toMatchObject({
      blockedChannels: ["atm"],
      spendingLimits: [{ amount: 50_000, interval: "per-authorization" }],
    });
    await page.getByRole("button", { name: "Reveal card number" }).click();
    await page
      .getByRole("definition")
      .filter({ hasText: /^\d{16,19}$/ })
      .waitFor();
    await page.getByRole("button", { name: "Hide card number" }).click();
    await checkPage(page, "card");

    await page.goto(`${platform.url}/console/accounts/${ids.account}`);
    await heading(page, `Account ${ids.account}`);
    await page.getByRole("link", { name: ids.authorization }).waitFor();
    await checkPage(page, "account");
  });

  it("creates a restricted key; its session sees no secrets; revoking the key refuses the session", async () => {
    await nav(page, "Developers");
    await heading(page, "Developers");
    const form = page.getByRole("form", { name: "Create a restricted key" });
    await form.getByLabel("Key name").fill("Read-only dashboard");
    await form.getByRole("checkbox", { name: /^read:/ }).check();
    await form.getByRole("button", { name: "Create key" }).click();
    const secret = (await page.getByLabel("New secret key").textContent())!;
    expect(secret).toMatch(/^sk\.test\./);
    await page.getByRole("table", { name: "Request logs" }).waitFor();
    await checkPage(page, "developers");

    const other = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const restricted = await other.newPage();
    watch(restricted);
    await signIn(restricted, platform.url, secret);
    await restricted.goto(`${platform.url}/console/cards/${ids.card}`);
    await heading(restricted, `Card ${ids.card}`);
    await restricted.getByText("•••• ", { exact: false }).first().waitFor();
    await expect(restricted.getByRole("button", { name: "Reveal card number" }).count()).resolves.toBe(0);
    await expect(restricted.getByRole("button", { name: "Freeze card" }).count()).resolves.toBe(0);

    const row = page.getByRole("row").filter({ hasText: "Read-only dashboard" });
    await row.getByRole("button", { name: "Revoke Read-only dashboard" }).click();
    await row.getByRole("button", { name: "Confirm revoking Read-only dashboard" }).click();
    await row.getByText("revoked", { exact: true }).waitFor();

    await nav(restricted, "Authorizations");
    await heading(restricted, "Sign in to the Cardhold console");
    await restricted.getByRole("status").filter({ hasText: "Your session ended" }).waitFor();
    await other.close();
  });

  it("says LIVE on every page of a live key's session, which has no Simulate page", async () => {
    const created = await fetch(`${platform.url}/admin/businesses/${platform.defaultBusiness.businessId}/keys`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-operator-token": OPERATOR_TOKEN },
      body: JSON.stringify({ mode: "live" }),
    });
    expect(created.status).toBe(201);
    const { key } = ((await created.json()) as Json).data;
    const other = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const live = await other.newPage();
    watch(live);
    await signIn(live, platform.url, key);
    for (const name of ["Home", "Authorizations", "Webhooks"]) {
      await nav(live, name);
      await heading(live, name);
      await live.getByText("LIVE", { exact: true }).waitFor();
      await expect(live.getByText("TEST", { exact: true }).count()).resolves.toBe(0);
    }
    await expect(live.getByRole("link", { name: "Simulate" }).count()).resolves.toBe(0);
    await live.screenshot({ path: `${SCREENSHOTS}live-webhooks.png`, fullPage: true });
    await other.close();
  });

  it("signs out: the session cookie is refused afterwards", async () => {
    const [cookie] = await context.cookies();
    await page.getByRole("button", { name: "Sign out" }).click();
    await heading(page, "Sign in to the Cardhold console");
    const after = await fetch(`${platform.url}/console/api/session`, {
      headers: { cookie: `${cookie!.name}=${cookie!.value}` },
    });
    expect(after.status).toBe(401);
    await page.goto(`${platform.url}/console/developers`);
    await heading(page, "Sign in to the Cardhold console");
  });

  it("checked and photographed every page, logged no error and asked no host but this one", () => {
    expect(new Set(checkedPages)).toEqual(
      new Set([
        "sign-in",
        "home",
        "authorizations",
        "authorization",
        "customers",
        "customer",
        "cards",
        "card",
        "accounts",
        "account",
        "events",
        "event",
        "webhooks",
        "developers",
        "simulate",
      ]),
    );
    const foreign = requested.filter(
      (url) => /^(https?|wss?):$/.test(new URL(url).protocol) && !LOCAL_HOSTS.has(new URL(url).hostname),
    );
    expect(foreign).toEqual([]);
    expect(pageErrors).toEqual([]);
    // A 401 is how the page learns there is no session (before sign-in, after sign-out or revocation).
    expect(consoleErrors.filter((text) => !/status of 401 \(Unauthorized\)/.test(text))).toEqual([]);
  });
});
