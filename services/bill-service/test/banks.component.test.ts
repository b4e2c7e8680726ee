import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMetrics, listen, newId, type Listening } from "@cardhold/platform";
import { callService } from "../../../test/support/internal-api";
import type { AccountNameProvider } from "../src/banks/account-names";
import { BANKS } from "../src/domain/banks";
import { createService } from "../src/service";
import { call, INTERNAL, startHarness, TEST_OPTIONS, type Caller, type Harness } from "./harness";

/** The sandbox's documented test numbers at GTBank (058): see the README, "Bank tools". */
const GTBANK = { code: "058", nipCode: "000013", name: "Guaranty Trust Bank" };
const RESOLVES = "0123456785"; // Fatima Bello
const NO_SUCH_ACCOUNT = "0123400001"; // digits 6–9 are 0000
const BANK_UNREACHABLE = "0123411115"; // digits 6–9 are 1111
const WRONG_CHECK_DIGIT = "0123456784";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

const business = (mode: Caller["mode"] = "test"): Caller => ({ businessId: newId("business"), mode });
const api = (as: Caller, path: string) => call(h, as, "GET", path);
const resolvePath = (accountNumber: string, bankCode: string) =>
  `/tools/banks/resolve?accountNumber=${accountNumber}&bankCode=${bankCode}`;

describe("GET /tools/banks", () => {
  it("lists the banks with their CBN and NIP codes, by name, through the list query language", async () => {
    const as = business();
    const res = await api(as, "/tools/banks?countTotal");
    expect(res.status).toBe(200);
    expect(res.body.code).toBe("success");
    expect(res.body.metadata).toEqual({ hasMore: true, totalCount: BANKS.length });
    expect(res.body.data).toEqual(BANKS.slice(0, 20));
    const all = (await api(as, "/tools/banks?limit=100")).body.data;
    expect(all).toEqual(BANKS);
    expect(all).toContainEqual({ object: "bank", ...GTBANK, type: "commercial" });
  });

  it("filters, sorts, selects and pages like every list", async () => {
    const as = business();
    const microfinance = await api(as, "/tools/banks?filter=type|eq|microfinance&select=name code");
    expect(microfinance.body.data).toEqual([
      { object: "bank", name: "Kuda Microfinance Bank", code: "50211" },
      { object: "bank", name: "Moniepoint Microfinance Bank", code: "50515" },
    ]);
    const byNip = await api(as, "/tools/banks?filter=nipCode:000013");
    expect(byNip.body.data.map((b: { code: string }) => b.code)).toEqual(["058"]);
    const first = await api(as, "/tools/banks?sort=code&limit=2");
    expect(first.body.data.map((b: { code: string }) => b.code)).toEqual(["011", "023"]);
    const next = await api(as, "/tools/banks?sort=code&limit=2&after=023");
    expect(next.body.data.map((b: { code: string }) => b.code)).toEqual(["032", "033"]);
  });

  it("answers 400 for a query it cannot read", async () => {
    const as = business();
    expect((await api(as, "/tools/banks?sort=color")).body).toMatchObject({ statusCode: 400, code: "invalid-query" });
    expect((await api(as, "/tools/banks?limit=500")).status).toBe(400);
    expect((await api(as, "/tools/banks?after=999")).body).toMatchObject({ statusCode: 400, code: "invalid-query" });
  });
});

describe("GET /tools/banks/short-list/:accountNumber", () => {
  it("lists the banks whose NUBAN check digit the account number passes", async () => {
    const res = await api(business(), `/tools/banks/short-list/${RESOLVES}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      code: "success",
      data: [
        expect.objectContaining({ code: "070", name: "Fidelity Bank" }),
        { object: "bank", ...GTBANK, type: "commercial" },
        expect.objectContaining({ code: "50515", nipCode: "090405" }),
        expect.objectContaining({ code: "102" }),
      ],
      metadata: { hasMore: false },
    });
  });

  it.each([
    ["9 digits", "012345678"],
    ["11 digits", "01234567850"],
    ["a letter", "012345678a"],
  ])("answers 400 for an account number of %s", async (_, accountNumber) => {
    const res = await api(business(), `/tools/banks/short-list/${accountNumber}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "invalid-request", errors: [{ path: "accountNumber" }] });
  });
});

describe("GET /tools/banks/resolve", () => {
  it("answers the account holder's name, by the bank's CBN or NIP code, and the same again from the table", async () => {
    const as = business();
    const res = await api(as, resolvePath(RESOLVES, "058"));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      code: "success",
      data: {
        object: "bank.account",
        accountNumber: RESOLVES,
        accountName: "Fatima Bello",
        bankCode: "058",
        bankName: GTBANK.name,
        nipCode: GTBANK.nipCode,
        resolvedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    });
    expect((await api(as, resolvePath(RESOLVES, "000013"))).body).toEqual(res.body);
    const { rows } = await h.pg.db.query(
      "SELECT bank_code, account_name, provider FROM bills.resolved_bank_accounts WHERE business_id = $1",
      [as.businessId],
    );
    expect(rows).toEqual([{ bank_code: "058", account_name: "Fatima Bello", provider: "sandbox" }]);
  });

  it.each([
    ["no account number", "/tools/banks/resolve?bankCode=058", "accountNumber"],
    ["no bank code", `/tools/banks/resolve?accountNumber=${RESOLVES}`, "bankCode"],
    ["an account number of 9 digits", resolvePath("012345678", "058"), "accountNumber"],
    ["a bank code of 4 digits", resolvePath(RESOLVES, "0058"), "bankCode"],
    ["a bank code no bank has", resolvePath(RESOLVES, "999"), "bankCode"],
    ["a wrong check digit", resolvePath(WRONG_CHECK_DIGIT, "058"), "accountNumber"],
    ["a number valid at another bank only", resolvePath(RESOLVES, "044"), "accountNumber"],
  ])("answers 400 for %s", async (_, path, field) => {
    const res = await api(business(), path);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, code: "invalid-request", errors: [{ path: field }] });
  });

  it("answers 404 account-not-found for an account the bank does not have, and remembers nothing", async () => {
    const as = business();
    const res = await api(as, resolvePath(NO_SUCH_ACCOUNT, "058"));
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, code: "account-not-found" });
    const { rows } = await h.pg.db.query("SELECT 1 FROM bills.resolved_bank_accounts WHERE business_id = $1", [
      as.businessId,
    ]);
    expect(rows).toHaveLength(0);
  });

  it("answers 503 bank-unavailable with Retry-After when the bank does not answer", async () => {
    const res = await api(business(), resolvePath(BANK_UNREACHABLE, "000013"));
    expect(res.status).toBe(503);
    expect(res.headers?.get("retry-after")).toBe("10");
    expect(res.body).toMatchObject({ statusCode: 503, code: "bank-unavailable" });
  });

  it("refuses in live mode without a live provider (403), naming what to configure; the lists still answer", async () => {
    const live = business("live");
    const res = await api(live, resolvePath(RESOLVES, "058"));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ statusCode: 403, code: "bank-provider-not-configured" });
    expect(res.body.message).toContain("liveAccountNames");
    expect((await api(live, "/tools/banks")).status).toBe(200);
    expect((await api(live, `/tools/banks/short-list/${RESOLVES}`)).status).toBe(200);
  });
});

describe("a live account-name provider", () => {
  let service: Awaited<ReturnType<typeof createService>>;
  let http: Listening;
  const asked: string[] = [];
  const provider: AccountNameProvider = {
    name: "test-live-provider",
    async resolve(bank, accountNumber) {
      asked.push(`${bank.code}:${accountNumber}`);
      return `Live Holder ${asked.length}`;
    },
  };

  beforeAll(async () => {
    const deps = {
      db: h.pg.db,
      bus: h.bus,
      logger: pino({ level: "silent" }),
      metrics: createMetrics("bill-service-live", false),
      internalToken: INTERNAL,
    };
    service = await createService(deps, { ...TEST_OPTIONS, biller: h.biller, liveAccountNames: provider });
    http = await listen(service.app, 0);
  });
  afterAll(async () => {
    await http?.close();
  });

  it("answers live requests once configured, asks it once per account and keeps its first answer", async () => {
    const live = business("live");
    const get = () => callService(http.url, INTERNAL, live, "GET", resolvePath(RESOLVES, "058"));
    const first = await get();
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ accountName: "Live Holder 1", bankCode: "058" });
    expect((await get()).body).toEqual(first.body);
    expect(asked).toEqual(["058:0123456785"]);
    const test = await callService(http.url, INTERNAL, business(), "GET", resolvePath(RESOLVES, "058"));
    expect(test.body.data.accountName).toBe("Fatima Bello");
  });
});
