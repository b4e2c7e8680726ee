/** The bank tools (services/bill-service/src/banks): the bank list, likely banks of an account number, its holder. */
import { operation } from "./operations";
import { listParameters, query } from "./parameters";
import { bankRecord, resolvedBankAccountRecord } from "./records/bills";
import { error } from "./responses";
import { page, ref, success, type Paths } from "./schema";

const gtbank = { object: "bank", name: "Guaranty Trust Bank", code: "058", nipCode: "000013", type: "commercial" };

const accountNumber = { type: "string", pattern: "^\\d{10}$" };

export function bankPaths(): Paths {
  return {
    "/tools/banks": {
      get: operation({
        summary: "Nigerian banks, with their CBN and NIP codes",
        description:
          "The same for every business, in test and live mode. `code` is the CBN code (3 digits for a bank, 5 for " +
          "another institution), which the NUBAN check digit is computed with; `nipCode` the 6-digit NIBSS code. " +
          "The list query language as on every list (fields: name, code, nipCode, type; `after` / `before` take a " +
          "code); default order: by name.",
        parameters: listParameters(),
        returns: "A page of the matching banks",
        schema: page(ref(bankRecord)),
        example: { code: "success", data: [gtbank], metadata: { hasMore: false } },
      }),
    },
    "/tools/banks/short-list/{accountNumber}": {
      get: operation({
        summary: "The banks an account number may belong to",
        description:
          "`accountNumber` is the 10-digit account number (NUBAN). The banks whose NUBAN check digit it passes (CBN " +
          "algorithm: weights 3,7,3 over the bank's code made 6 digits — `000` before a 3-digit code, `9` before a " +
          "5-digit one — and the first 9 digits). About one bank in ten passes by chance; the real bank may be missing.",
        returns: "Every bank the number passes at, by name",
        schema: page(ref(bankRecord)),
        example: { code: "success", data: [gtbank], metadata: { hasMore: false } },
      }),
    },
    "/tools/banks/resolve": {
      get: operation({
        summary: "The holder's name of an account at a bank",
        description:
          "A name once resolved is kept: asking again answers the same. Test keys ask the sandbox: at any bank the " +
          "number passes at, digits 6–9 `0000` are no account (404), `1111` a bank that does not answer (503), any " +
          "other number a name derived from it (GTBank 058 `0123456785`: Fatima Bello).",
        parameters: [
          { ...query("accountNumber", "The 10-digit account number (NUBAN)", accountNumber), required: true },
          {
            ...query("bankCode", "The bank's CBN code (`058`) or NIP code (`000013`), as GET /tools/banks lists them", {
              type: "string",
              pattern: "^(\\d{3}|\\d{5}|\\d{6})$",
            }),
            required: true,
          },
        ],
        returns: "The account's holder",
        schema: success(ref(resolvedBankAccountRecord)),
        example: {
          code: "success",
          data: {
            object: "bank.account",
            accountNumber: "0123456785",
            accountName: "Fatima Bello",
            bankCode: "058",
            bankName: "Guaranty Trust Bank",
            nipCode: "000013",
            resolvedAt: "2026-11-22T10:00:00.000Z",
          },
        },
        responses: {
          "400": error("BadRequest", "A missing or malformed parameter, a code no bank has, or a wrong check digit"),
          "403": error(
            "Forbidden",
            "bank-provider-not-configured: a live key, and no live account-name provider is configured (test keys " +
              "use the sandbox); or a restricted key lacks the permission",
          ),
          "404": error("NotFound", "account-not-found: the bank has no such account"),
          "503": {
            description: "bank-unavailable: the bank did not answer; try again after Retry-After seconds",
            headers: { "Retry-After": { description: "Seconds to wait", schema: { type: "integer" } } },
            content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
          },
        },
      }),
    },
  };
}
