import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { standardWebhooksSecret } from "@cardhold/contracts";
import { startAllInOne, type AllInOne } from "../../../apps/cli/src/all-in-one";
import { apiClient, createBusiness } from "../../../test/support/api-client";
import { freePort } from "../../../test/integration/support/service-processes";
import { authorization, closed, deliver, envelope, sign, uniqueId, update } from "./test-support/deliveries.js";

// The README's "Build your receiver" section must work exactly as written: its receiver.mjs runs with plain node in a scratch
// folder where the SDK was installed the documented way, from the tarball `npm run pack:receiver` makes, with express.
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const DOC = new URL("../../../README.md", import.meta.url);
const KEY = "build-your-receiver-signing-key";

let folder: string;
let child: ChildProcess | undefined;
let webhookUrl = "";

/** The code block of the doc that starts with `// receiver.mjs`. */
async function receiverSource(): Promise<string> {
  const doc = await readFile(DOC, "utf8");
  const block = /```js\n(\/\/ receiver\.mjs[\s\S]*?)```/.exec(doc);
  if (!block?.[1]) throw new Error("README.md has no ```js block starting with // receiver.mjs");
  return block[1];
}

/** As the README says: the SDK packed from the repository (`npm run pack:receiver`), then `npm install <tarball> express`. */
async function installPackedSdk(folder: string) {
  const tarball = execFileSync(process.execPath, [join(ROOT, "packages", "receiver", "scripts", "pack.mjs"), folder], {
    encoding: "utf8",
  }).trim();
  // --prefer-offline: express and zod come from npm's cache when the repository's own install put them there.
  execFileSync("npm", ["install", tarball, "express", "--prefer-offline", "--no-audit", "--no-fund"], {
    cwd: folder,
    stdio: "pipe",
  });
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "build-your-receiver-"));
  await installPackedSdk(folder);
  await writeFile(join(folder, "receiver.mjs"), await receiverSource());
  const port = await freePort();
  child = spawn(process.execPath, ["receiver.mjs"], {
    cwd: folder,
    env: { PATH: process.env.PATH, PORT: String(port), CARDHOLD_SIGNING_KEY: KEY },
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child!.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("receiver listening")) resolve();
    });
    child!.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child!.once("exit", (code) => reject(new Error(`receiver.mjs exited with ${code}:\n${output}`)));
  });
  expect(output).toContain(`http://127.0.0.1:${port}/webhook`);
  webhookUrl = `http://127.0.0.1:${port}/webhook`;
}, 60_000);
afterAll(async () => {
  child?.kill();
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** The Standard Webhooks headers the platform sends beside Service-Signature, made with the specification's library. */
const standardHeaders = (body: string, key = KEY) => {
  const id = uniqueId("evt");
  const sentAt = new Date();
  const signature = new Webhook(standardWebhooksSecret(key)).sign(id, sentAt, body);
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
    "webhook-signature": signature,
  };
};
const post = (body: string, signature?: string, key = KEY) =>
  deliver(webhookUrl, body, signature ?? sign(body, key), standardHeaders(body, key));
const check = () => post(envelope("card.authorization.request", authorization({ card: "c.doc", type: "check" })));

describe("the receiver of the README (Build your receiver)", () => {
  it("approves a check with the balance and the holder's name", async () => {
    expect(await check()).toEqual({
      status: 200,
      body: { action: "approve", cardBalance: 150_000, cardHolderName: "Ada Obi" },
    });
  });

  it("approves a capture it can afford, declines one it cannot, and gives a declined purchase back", async () => {
    const id = uniqueId("c.auth.");
    const capture = envelope(
      "card.authorization.request",
      authorization({ id, card: "c.doc", amount: 50_000, fees: 1_000 }),
    );
    expect(await post(capture)).toEqual({ status: 200, body: { action: "approve" } });
    expect(await post(capture)).toEqual({ status: 200, body: { action: "approve" } });
    expect((await check()).body.cardBalance).toBe(99_000);
    const tooMuch = envelope("card.authorization.request", authorization({ card: "c.doc", amount: 100_000 }));
    expect((await post(tooMuch)).body).toEqual({ action: "decline", code: "insufficient-funds" });
    expect((await post(closed({ id, card: "c.doc", status: "declined", amount: 50_000, fees: 1_000 }))).body).toEqual({
      action: "approve",
    });
    expect((await check()).body.cardBalance).toBe(150_000);
  });

  it("takes the difference of an amount update, declines one it cannot cover, and gives a reversal back", async () => {
    const id = uniqueId("c.auth.");
    await post(envelope("card.authorization.request", authorization({ id, card: "c.doc", amount: 10_000 })));
    await post(closed({ id, card: "c.doc", status: "approved", amount: 10_000 }));
    expect((await post(update({ id, card: "c.doc", status: "pending", amount: 12_000 }))).body).toEqual({
      action: "approve",
    });
    expect((await check()).body.cardBalance).toBe(138_000);
    expect((await post(update({ id, card: "c.doc", status: "reversed", amount: 12_000 }))).body).toEqual({
      action: "approve",
    });
    expect((await check()).body.cardBalance).toBe(150_000);
    const other = uniqueId("c.auth.");
    await post(envelope("card.authorization.request", authorization({ id: other, card: "c.doc", amount: 10_000 })));
    expect((await post(update({ id: other, card: "c.doc", status: "pending", amount: 170_000 }))).body).toEqual({
      action: "decline",
      code: "insufficient-funds",
    });
    expect((await check()).body.cardBalance).toBe(140_000);
  });

  it("answers 400 to a wrong signature and to what is not an event", async () => {
    const body = envelope("card.authorization.request", authorization({ card: "c.doc", type: "check" }));
    expect(await post(body, sign(body, "another-key"), "another-key")).toEqual({
      status: 400,
      body: { error: "Invalid Signature" },
    });
    const stale = { ...standardHeaders(body), "webhook-timestamp": String(Math.floor(Date.now() / 1000) - 3_600) };
    expect(await deliver(webhookUrl, body, sign(body, KEY), stale)).toMatchObject({ status: 400 });
    const once = standardHeaders(body);
    expect((await deliver(webhookUrl, body, sign(body, KEY), once)).status).toBe(200);
    expect(await deliver(webhookUrl, body, sign(body, KEY), once)).toEqual({
      status: 400,
      body: { error: "Replayed Request" },
    });
    expect(await deliver(webhookUrl, body, sign(body, KEY))).toMatchObject({ status: 400 });
    expect(await post(JSON.stringify({ hello: "world" }))).toEqual({ status: 400, body: { error: "Invalid Request" } });
  });
});

describe("the receiver of the README (Build your receiver) as the webhook of a running platform", () => {
  const OPERATOR = "operator-token-build-your-receiver";
  let platform: AllInOne;
  let key = "";
  const api = apiClient(
    () => platform.url,
    () => key,
  );

  beforeAll(async () => {
    platform = await startAllInOne({ port: 0, logLevel: "silent", operatorToken: OPERATOR });
    key = (await createBusiness(platform.url, OPERATOR, { name: "Doc Ltd", webhookUrl: webhookUrl, signingKey: KEY }))
      .testKey;
  }, 60_000);
  afterAll(async () => {
    await platform?.stop();
  });

  it("verifies and answers the platform's real, signed check and capture events", async () => {
    const customer = await api("POST", "/customers", {
      name: "Ada Obi",
      reference: "ada",
      type: "individual",
      verifications: ["tier-1"],
      metadata: {},
      claims: {
        individualInformation: {
          firstName: "Ada",
          lastName: "Obi",
          email: "ada@example.com",
          phoneNumber: "+2348012345678",
          dateOfBirth: "1990-01-01",
        },
      },
    });
    const program = await api("POST", "/card-programs", {
      name: "Doc cards",
      network: "verve",
      type: "virtual",
      currency: "NGN",
    });
    const settlement = await api("GET", `/accounts/${program.body.data.authorization.settlementAccount}`);
    await api("POST", "/simulation/payments/pay-in", {
      accountNumber: settlement.body.data.depositChannels[0].accountNumber,
      amount: 1_000_000,
    });
    const card = (
      await api("POST", "/cards", {
        program: program.body.data.id,
        customer: customer.body.data.id,
        reference: "doc-card",
      })
    ).body.data.id;
    const { cvv } = (await api("GET", `/cards/${card}/secrets`)).body.data;
    await api("POST", `/cards/${card}/activate`, { cvv, pin: "1234" });

    const balance = (await api("POST", `/simulation/cards/${card}/request-authorization/check`, { channel: "atm" }))
      .body.data;
    expect(balance).toMatchObject({
      status: "approved",
      decisionType: "direct-response",
      cardHolderName: "Ada Obi",
      cardBalance: expect.any(Number),
    });
    const capture = (
      await api("POST", `/simulation/cards/${card}/request-authorization/capture`, {
        amount: 5_000,
        fees: 100,
        channel: "online",
      })
    ).body.data;
    expect(capture).toMatchObject({ status: "approved", decisionType: "direct-response" });
    const after = (await api("POST", `/simulation/cards/${card}/request-authorization/check`, { channel: "atm" })).body
      .data;
    expect(after.cardBalance).toBe(balance.cardBalance - 5_100);
    const tooMuch = (
      await api("POST", `/simulation/cards/${card}/request-authorization/capture`, {
        amount: after.cardBalance + 1,
        channel: "online",
      })
    ).body.data;
    expect(tooMuch).toMatchObject({
      status: "declined",
      declineReason: "insufficient-funds",
      decisionType: "direct-response",
    });
  }, 60_000);
});
