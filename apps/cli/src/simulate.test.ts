import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { captureIo } from "./cli-test-io";
import { runCommand } from "./commands";

// The simulation endpoints played by a local fake: what the CLI sends, and how it prints answers and errors.
interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}
const seen: Seen[] = [];
let answer: { status: number; body: unknown } = { status: 200, body: {} };
let server: Server;
let gateway = "";

const authorization = (fields: Record<string, unknown> = {}) => ({
  id: "c.auth.2tXJoWXy2NZNFU9mY",
  object: "card.authorization",
  card: "c.2tUYkKGqPTWH3ZtM4",
  type: "capture",
  status: "approved",
  amount: 5_000,
  fees: 100,
  currency: "NGN",
  channel: "online",
  decisionType: "direct-response",
  reserved: false,
  networkData: {},
  createdAt: "2024-01-01T00:00:00.000Z",
  updatedAt: "2024-01-01T00:00:01.000Z",
  ...fields,
});

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      seen.push({
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: raw ? JSON.parse(raw) : undefined,
      });
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  gateway = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen.length = 0;
  answer = { status: 200, body: { code: "success", data: authorization() } };
});

const run = (
  args: string[],
  env: Record<string, string> = { CARDHOLD_KEY: "sk.test.env-key", CARDHOLD_URL: gateway },
) => {
  const captured = captureIo(env);
  return runCommand(["simulate", ...args], captured.io).then((code) => ({ code, ...captured }));
};

describe("cardhold simulate: the requests", () => {
  it("capture: POSTs amount, fees and the network fields with the key from CARDHOLD_KEY", async () => {
    const r = await run([
      "capture",
      "--card",
      "c.2tUYkKGqPTWH3ZtM4",
      "--amount",
      "5000",
      "--fees",
      "100",
      "--mcc",
      "5411",
      "--merchant-descriptor",
      "SHOPRITE LEKKI LA NG",
    ]);
    expect(r.code).toBe(0);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      method: "POST",
      path: "/simulation/cards/c.2tUYkKGqPTWH3ZtM4/request-authorization/capture",
      headers: { authorization: "Bearer sk.test.env-key", "content-type": "application/json" },
      body: { amount: 5_000, fees: 100, channel: "online", mcc: "5411", merchantDescriptor: "SHOPRITE LEKKI LA NG" },
    });
  });

  it("check, update and reverse go to their endpoints with their fields; --key and --gateway win over the environment", async () => {
    const flags = ["--card", "c.1", "--key", "sk.test.flag-key", "--gateway", gateway];
    expect(
      (
        await run(["check", ...flags, "--channel", "pos"], {
          CARDHOLD_KEY: "sk.test.env-key",
          CARDHOLD_URL: "http://127.0.0.1:9",
        })
      ).code,
    ).toBe(0);
    expect(
      (await run(["update", ...flags, "--amount", "1000", "--update-amount", "1500", "--update-fees", "20"])).code,
    ).toBe(0);
    expect((await run(["update", ...flags, "--authorization", "c.auth.X", "--update-amount", "700"])).code).toBe(0);
    expect((await run(["reverse", ...flags, "--authorization", "c.auth.X"])).code).toBe(0);
    expect((await run(["reverse", ...flags, "--amount", "300", "--reference", "ref-1"])).code).toBe(0);
    expect(seen.map((s) => [s.path.split("/").at(-1), s.headers.authorization, s.body])).toEqual([
      ["check", "Bearer sk.test.flag-key", { channel: "pos" }],
      [
        "update-capture",
        "Bearer sk.test.flag-key",
        { amount: 1_000, fees: 0, channel: "online", updateAmount: 1_500, updateFees: 20 },
      ],
      [
        "update-capture",
        "Bearer sk.test.flag-key",
        { fees: 0, channel: "online", authorization: "c.auth.X", updateAmount: 700, updateFees: 0 },
      ],
      ["reverse-capture", "Bearer sk.test.flag-key", { fees: 0, channel: "online", authorization: "c.auth.X" }],
      ["reverse-capture", "Bearer sk.test.flag-key", { amount: 300, fees: 0, channel: "online", reference: "ref-1" }],
    ]);
  });

  it("refuses a wrong command line with exit code 2 and the usage, sending nothing", async () => {
    const cases: [string[], string][] = [
      [["capture", "--amount", "5"], "needs --card"],
      [["capture", "--card", "c.1"], "needs --amount"],
      [["capture", "--card", "c.1", "--amount", "12.5"], "whole number of minor units"],
      [["capture", "--card", "c.1", "--amount", "5", "--authorization", "c.auth.X"], "--authorization is for"],
      [["update", "--card", "c.1", "--amount", "5"], "needs --update-amount"],
      [["refund", "--card", "c.1"], 'unknown command "simulate refund": use check, capture, update or reverse'],
      [["check", "--card", "c.1", "--colour", "red"], "unknown option '--colour' (see cardhold simulate check --help)"],
    ];
    for (const [args, message] of cases) {
      const r = await run(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err()).toContain(message);
    }
    expect(seen).toHaveLength(0);
    const noKey = await run(["check", "--card", "c.1"], { CARDHOLD_URL: gateway });
    expect(noKey.code).toBe(1);
    expect(noKey.err()).toContain("pass --key or set CARDHOLD_KEY");
  });

  it("--help prints the usage and exits 0", async () => {
    const r = await run(["capture", "--help"]);
    expect(r.code).toBe(0);
    expect(r.out()).toContain("usage: cardhold simulate");
    expect(r.out()).toContain("decide");
  });
});

describe("cardhold simulate: the answers", () => {
  it("prints the decided authorization readably, and progress on stderr", async () => {
    answer = {
      status: 200,
      body: {
        code: "success",
        data: authorization({
          status: "declined",
          decisionType: "system-response",
          declineReason: "insufficient-funds",
          statusReason: "timeout-error",
        }),
      },
    };
    const r = await run(["capture", "--card", "c.1", "--amount", "5000"]);
    expect(r.code).toBe(0);
    expect(r.out()).toContain("c.auth.2tXJoWXy2NZNFU9mY  capture  DECLINED");
    expect(r.out()).toContain("amount 5000 + fees 100 NGN");
    expect(r.out()).toContain("decided by the platform (system-response)");
    expect(r.out()).toContain("decline reason: insufficient-funds");
    expect(r.out()).toContain("status reason: timeout-error");
    expect(r.err()).toContain("simulating a capture on c.1: waiting for the decision");
    const update = await run(["update", "--card", "c.1", "--amount", "5000", "--update-amount", "6000"]);
    expect(update.err()).toContain("simulating an amount update on c.1");
  });

  it("shows an approved check's card balance and holder name", async () => {
    answer = {
      status: 200,
      body: {
        code: "success",
        data: authorization({ type: "check", amount: 0, fees: 0, cardBalance: 120_000, cardHolderName: "Ada Obi" }),
      },
    };
    const r = await run(["check", "--card", "c.1"]);
    expect(r.out()).toContain("card balance 120000, holder Ada Obi");
  });

  it("--json prints exactly the authorization record as one JSON line", async () => {
    const r = await run(["check", "--card", "c.1", "--json"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toHaveLength(1);
    expect(JSON.parse(r.stdout[0]!)).toEqual(authorization());
    expect(r.stderr).toEqual([]);
  });

  it("an API error exits 1 with the HTTP status, the code and the API's message", async () => {
    answer = {
      status: 422,
      body: {
        statusCode: 422,
        code: "authorization-dropped",
        message: "The card c.1 is not active: the network request was dropped",
      },
    };
    const dropped = await run(["capture", "--card", "c.1", "--amount", "5"]);
    expect(dropped.code).toBe(1);
    expect(dropped.err()).toContain(
      "POST /simulation/cards/c.1/request-authorization/capture answered 422 authorization-dropped: The card c.1 is not active",
    );
    answer = { status: 403, body: { statusCode: 403, code: "forbidden", message: "Simulation needs a test key" } };
    expect((await run(["check", "--card", "c.1"])).err()).toContain(
      "answered 403 forbidden: Simulation needs a test key",
    );
    answer = {
      status: 400,
      body: {
        statusCode: 400,
        code: "invalid-request",
        message: "Invalid request",
        errors: [{ path: "mcc", message: "must be a 4-digit merchant category code" }],
      },
    };
    const invalid = await run(["check", "--card", "c.1", "--mcc", "54"]);
    expect(invalid.err()).toContain("- mcc: must be a 4-digit merchant category code");
  });

  it("an unreachable gateway exits 1 and says where it looked", async () => {
    const r = await run(["check", "--card", "c.1"], { CARDHOLD_KEY: "sk.test.k", CARDHOLD_URL: "http://127.0.0.1:9" });
    expect(r.code).toBe(1);
    expect(r.err()).toContain("cannot reach the gateway at http://127.0.0.1:9");
  });
});
