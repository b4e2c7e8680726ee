import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAllInOne, type AllInOne } from "../../../apps/cli/src/all-in-one";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const MISSING = !existsSync(CHROMIUM);
const SCREENSHOT = fileURLToPath(new URL("../../../test-results/docs.png", import.meta.url));
const WEBHOOK = "card.authorization.request";
const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost"]);

type Json = Record<string, any>;

let platform: AllInOne;
let browser: Browser;
let page: Page;
let doc: Json;
const consoleErrors: string[] = [];
const requested: string[] = [];

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The document's webhook `name`: its method and operation. */
function webhook(name: string): [string, Json] {
  const [method, operation] = Object.entries((doc.webhooks?.[name] ?? {}) as Record<string, Json>)[0] ?? ["post", {}];
  return [method, operation];
}

/** The top-level fields of a webhook's payload, as the document describes them. */
function payloadFields(operation: Json): string[] {
  let schema = operation.requestBody?.content?.["application/json"]?.schema as Json | undefined;
  if (schema?.$ref) schema = doc.components?.schemas?.[String(schema.$ref).split("/").pop()!];
  return Object.keys(schema?.properties ?? {});
}

/** Types into Scalar's search (opened with Ctrl+K) and waits for the result named `result`. */
async function search(query: string, result: RegExp) {
  await page.keyboard.press("Control+k");
  const dialog = page.getByRole("dialog", { name: "Reference Search" });
  await dialog.getByRole("combobox").fill(query);
  const option = dialog.getByRole("option", { name: result }).first();
  await option.waitFor();
  return option;
}

// CI installs Chromium, so there a missing browser fails the run; on a laptop the suite is skipped.
const skip = MISSING && !process.env.CI;
const title = skip
  ? `docs page (skipped: no Chromium at ${CHROMIUM}; apt-get install chromium, or set CHROMIUM_PATH)`
  : "docs page";

describe.skipIf(skip)(title, () => {
  beforeAll(async () => {
    if (MISSING)
      throw new Error(`No Chromium at ${CHROMIUM}: install it (apt-get install chromium) or set CHROMIUM_PATH`);
    platform = await startAllInOne({ port: 0, logLevel: "silent" });
    doc = (await (await fetch(`${platform.url}/openapi.json`)).json()) as Json;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-background-networking"],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(10_000);
    page.on("console", (message) => void (message.type() === "error" && consoleErrors.push(message.text())));
    page.on("pageerror", (error) => void consoleErrors.push(error.message));
    page.on("request", (request) => void requested.push(request.url()));
    await page.goto(`${platform.url}/docs`);
    await page.getByRole("heading", { level: 1, name: doc.info.title }).waitFor();
    await mkdir(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it("lists every resource (the document's tags) in the sidebar", async () => {
    const tags = ((doc.tags ?? []) as { name: string }[]).map((tag) => tag.name);
    expect(tags).toEqual(expect.arrayContaining(["Customers", "Cards"]));
    const sidebar = page.getByRole("navigation");
    // .first(): a tag named Webhooks sits beside Scalar's own Webhooks group.
    for (const tag of tags)
      await sidebar
        .getByRole("button", { name: new RegExp(`^${escapeRegExp(tag)} (Open|Close) Group$`) })
        .first()
        .waitFor();
  });

  it("finds an operation with its search", async () => {
    const summary = String(doc.paths["/customers"].get.summary);
    await search("list customers", new RegExp(`^Operation: ${escapeRegExp(summary)} ,`));
    await page.keyboard.press("Escape");
  });

  it(`shows the ${WEBHOOK} webhook and its payload`, async () => {
    const [method, operation] = webhook(WEBHOOK);
    const fields = payloadFields(operation);
    expect(fields, `the document's webhooks.${WEBHOOK} payload`).not.toEqual([]);
    // Scalar lists and searches a webhook by its summary.
    const title = String(operation.summary ?? WEBHOOK);
    await (await search(title, new RegExp(`^Webhook: ${escapeRegExp(title)} ,`))).click();
    const section = page.getByRole("region", { name: title, exact: true });
    await section.getByRole("group", { name: "Request Body" }).waitFor();
    const example = await section
      .getByRole("group", { name: `Request Example for ${method}${WEBHOOK}` })
      .locator("code")
      .textContent();
    for (const field of fields) expect(example).toContain(`"${field}"`);
  });

  it("serves the page under a strict policy and Scalar's bundle from the gateway, cached for a year", async () => {
    const pageResponse = await fetch(`${platform.url}/docs`);
    expect(pageResponse.headers.get("content-security-policy")).toContain("script-src 'self';");
    const bundle = await fetch(new URL((await page.locator("script[src]").getAttribute("src"))!, platform.url));
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(bundle.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    await bundle.body?.cancel();
  });

  it("logged no error and asked no host but this one", () => {
    const foreign = requested.filter(
      (url) => /^(https?|wss?):$/.test(new URL(url).protocol) && !LOCAL_HOSTS.has(new URL(url).hostname),
    );
    expect(foreign).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
