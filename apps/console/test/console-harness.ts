/** The browser test's helpers: the business's API, its seed data, and what every page is checked for. */
import { readFile } from "node:fs/promises";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { eventually } from "../../../test/support/eventually";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers, whose shape is what the test asserts
export type Json = Record<string, any>;
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** The business's API with a secret key, to set things up as a client would. */
export function apiWith(baseUrl: () => string, key: () => string) {
  return async (method: string, path: string, body?: unknown): Promise<Json> => {
    const res = await fetch(baseUrl() + path, {
      method,
      headers: { authorization: `Bearer ${key()}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await res.json()) as Json;
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(answer)}`);
    return answer;
  };
}

/** A customer with an active card on a funded program (its settlement account): captures on it can be approved. */
export async function seedCard(api: ReturnType<typeof apiWith>) {
  const fixture = JSON.parse(
    await readFile(new URL("../../../test/fixtures/customer-create-response.json", import.meta.url), "utf8"),
  ).data;
  const customer = await api("POST", "/customers", {
    name: fixture.name,
    reference: "console-browser-1",
    type: fixture.type,
    claims: fixture.claims,
    verifications: ["tier-2"],
    metadata: {},
  });
  const program = await api("POST", "/card-programs", {
    name: "Console cards",
    network: "verve",
    type: "virtual",
    currency: "NGN",
  });
  const card = await eventually(
    () => api("POST", "/cards", { program: program.data.id, customer: customer.data.id, reference: "console-card-1" }),
    10_000,
  );
  const { cvv } = (await api("GET", `/cards/${card.data.id}/secrets`)).data;
  await api("POST", `/cards/${card.data.id}/activate`, { cvv, pin: "2580" });
  const settlement = await api("GET", `/accounts/${card.data.fundingSource}`);
  await api("POST", "/simulation/payments/pay-in", {
    accountNumber: settlement.data.depositChannels[0].accountNumber,
    amount: 1_000_000,
    reference: "console-pay-in",
  });
  return { customer: customer.data.id as string, card: card.data.id as string, account: card.data.fundingSource };
}

/** The page's main heading, once it shows. */
export const heading = (on: Page, name: string | RegExp) => on.getByRole("heading", { level: 1, name }).waitFor();

/** Follows a link of the console's navigation. */
export const nav = (on: Page, name: string) =>
  on.getByRole("navigation", { name: "Console" }).getByRole("link", { name, exact: true }).click();

export async function signIn(on: Page, baseUrl: string, key: string) {
  await on.goto(`${baseUrl}/console/`);
  await heading(on, "Sign in to the Cardhold console");
  await on.getByLabel("Secret key").fill(key);
  await on.getByRole("button", { name: "Sign in" }).click();
  await heading(on, "Home");
}

/** What the pages did that the test checks at the end: errors, and every address they asked. */
export function pageWatch() {
  const seen = { pageErrors: [] as string[], consoleErrors: [] as string[], requested: [] as string[] };
  const watch = (on: Page) => {
    on.setDefaultTimeout(10_000);
    on.on("pageerror", (error) => void seen.pageErrors.push(error.message));
    on.on("console", (message) => void (message.type() === "error" && seen.consoleErrors.push(message.text())));
    on.on("request", (request) => void seen.requested.push(request.url()));
  };
  return { watch, ...seen };
}

/**
 * Every page's checks: the TEST banner (signed-in pages), no serious or critical axe-core violation (WCAG 2.1 A and
 * AA rules), and a screenshot in `dir`. `checked` lists the pages done.
 */
export function pageChecks(dir: string) {
  const checked: string[] = [];
  const check = async (on: Page, name: string, signedIn = true) => {
    if (signedIn) await on.getByText("TEST", { exact: true }).waitFor();
    const { violations } = await new AxeBuilder({ page: on }).withTags(AXE_TAGS).analyze();
    const grave = violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    expect(grave, `axe on the ${name} page`).toEqual([]);
    await on.screenshot({ path: `${dir}${name}.png`, fullPage: true });
    checked.push(name);
  };
  return { check, checked };
}
