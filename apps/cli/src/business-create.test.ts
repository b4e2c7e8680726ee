import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { captureIo } from "./cli-test-io";
import { runCommand } from "./commands";

// The admin endpoint played by a local fake: what `business create` sends, and what it prints.
let seen: { path: string; headers: IncomingHttpHeaders; body: any }[] = [];
let answer: { status: number; body: unknown };
let server: Server;
let gateway = "";

const CREATED = {
  business: { id: "bus.2wQd4bX7yK1Zp9R3f", object: "business", name: "Acme" },
  testKey: "sk.test.acme-key",
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      seen.push({ path: req.url ?? "", headers: req.headers, body: JSON.parse(raw) });
      res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  gateway = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  answer = { status: 201, body: { code: "success", data: CREATED } };
});

async function create(
  args: string[],
  env: Record<string, string> = { OPERATOR_TOKEN: "operator-token-0123456789", CARDHOLD_URL: gateway },
) {
  const captured = captureIo(env);
  const code = await runCommand(
    ["business", "create", "--name", "Acme", "--webhook-url", "https://acme.example/hooks", ...args],
    captured.io,
  );
  return { code, ...captured };
}

describe("cardhold business create", () => {
  it("sends a new signing key with the business and prints it with the test key", async () => {
    const r = await create([]);
    expect(r.code).toBe(0);
    expect(seen).toHaveLength(1);
    const sent = seen[0]!;
    expect(sent.path).toBe("/admin/businesses");
    expect(sent.headers["x-operator-token"]).toBe("operator-token-0123456789");
    expect(sent.body).toMatchObject({ name: "Acme", webhookUrl: "https://acme.example/hooks" });
    expect(sent.body.signingKey).toMatch(/^[0-9a-f]{64}$/);
    expect(r.out()).toContain("business bus.2wQd4bX7yK1Zp9R3f created");
    expect(r.out()).toContain("test key (shown once): sk.test.acme-key");
    expect(r.out()).toContain(`signing key of the test default webhook: ${sent.body.signingKey}`);
    expect(r.err()).toBe("");
  });

  it("a new key each time; --signing-key gives one's own; --json prints one object with all three", async () => {
    await create([]);
    await create([]);
    expect(seen[0]!.body.signingKey).not.toBe(seen[1]!.body.signingKey);
    const r = await create(["--signing-key", "my-own-signing-key-0123", "--json"]);
    expect(seen[2]!.body.signingKey).toBe("my-own-signing-key-0123");
    expect(r.stdout).toHaveLength(1);
    expect(JSON.parse(r.stdout[0]!)).toEqual({ ...CREATED, signingKey: "my-own-signing-key-0123" });
  });

  it("exits 1 with the gateway's answer, or without OPERATOR_TOKEN, and 2 without --name", async () => {
    answer = {
      status: 401,
      body: { statusCode: 401, code: "unauthorized", message: "A valid X-Operator-Token header is required" },
    };
    const refused = await create([]);
    expect(refused.code).toBe(1);
    expect(refused.err()).toContain(
      "POST /admin/businesses answered 401 unauthorized: A valid X-Operator-Token header is required",
    );
    const noToken = await create([], { CARDHOLD_URL: gateway });
    expect(noToken.code).toBe(1);
    expect(noToken.err()).toContain("set OPERATOR_TOKEN");
    const captured = captureIo({ OPERATOR_TOKEN: "operator-token-0123456789", CARDHOLD_URL: gateway });
    expect(await runCommand(["business", "create", "--webhook-url", "https://acme.example/hooks"], captured.io)).toBe(
      2,
    );
    expect(captured.err()).toContain("business create needs --name and --webhook-url");
    expect(seen).toHaveLength(1);
  });
});
