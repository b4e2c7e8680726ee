import type { Express } from "express";
import type { Db } from "@cardhold/db";
import { listResource, requestContext } from "@cardhold/platform";
import type { ExpandLoader } from "@cardhold/query";
import { accountLogCsv } from "./account-log-csv";
import { createAccount, getAccount } from "./accounts";
import { toAccountRecord, toBalanceRecord, toLogRecord, type LedgerEntryRow } from "./account-records";
import { openDepositChannel, renameDepositChannel } from "./deposit-channels";
import { accountResource, type AccountRow } from "../store/accounts.store";
import { ledgerEntryResource } from "../store/ledger.store";

const ok = (data: unknown) => ({ code: "success", data });

export function accountRoutes(app: Express, db: Db, loaders: Record<string, ExpandLoader>): void {
  app.post("/accounts", async (req, res) => {
    res.status(201).json(ok(await createAccount(db, requestContext(req), req.body)));
  });
  app.get("/accounts", async (req, res) => {
    res.json(
      await listResource<AccountRow>(req, {
        db,
        spec: accountResource,
        scope: requestContext(req),
        toRecord: toAccountRecord,
        loaders,
      }),
    );
  });
  app.get("/accounts/:id", async (req, res) => {
    res.json(ok(toAccountRecord(await getAccount(db, requestContext(req), req.params.id))));
  });
  app.post("/accounts/:id/deposit-channels", async (req, res) => {
    res.status(201).json(ok(await openDepositChannel(db, requestContext(req), req.params.id, req.body)));
  });
  app.put("/accounts/:id/deposit-channels/update-account-name", async (req, res) => {
    res.json(ok(await renameDepositChannel(db, requestContext(req), req.params.id, req.body)));
  });
  app.get("/accounts/:id/balance", async (req, res) => {
    res.json(ok(toBalanceRecord(await getAccount(db, requestContext(req), req.params.id))));
  });
  app.get("/accounts/:id/logs", async (req, res) => {
    const scope = requestContext(req);
    const account = await getAccount(db, scope, req.params.id);
    res.json(
      await listResource<LedgerEntryRow>(req, {
        db,
        spec: ledgerEntryResource,
        scope,
        toRecord: toLogRecord,
        within: { account: account.id },
      }),
    );
  });
  app.get("/accounts/:id/logs/csv", async (req, res) => {
    const scope = requestContext(req);
    const account = await getAccount(db, scope, req.params.id);
    res.type("text/csv").attachment(`${account.id}-log.csv`);
    for await (const line of accountLogCsv(db, scope, account.id)) res.write(line);
    res.end();
  });
}
