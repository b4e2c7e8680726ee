import type { Db } from "@cardhold/db";
import { projectedCustomerLoader } from "@cardhold/platform";
import type { ExpandLoader, ResourceSpec, Scope } from "@cardhold/query";
import { toAccountRecord } from "../accounts/account-records";
import { toAuthorizationRecord } from "../authorizations/authorization-records";
import { toCardRecord } from "../cards/card-records";
import { toProgramRecord } from "../programs/program-records";
import { accountResource, findAccountsByIds, SCHEMA } from "../store/accounts.store";
import { authorizationResource, type AuthorizationRow } from "../store/authorizations.store";
import { cardResource, findCardsByIds } from "../store/cards.store";
import { findProgramsByIds, programResource } from "../store/programs.store";

type Doc = Record<string, unknown>;

function loader<Row extends { id: string }>(
  spec: ResourceSpec,
  find: (ids: string[], scope: Scope) => Promise<Row[]>,
  toRecord: (row: Row) => Doc,
): ExpandLoader {
  return { spec, load: async (ids, scope) => new Map((await find(ids, scope)).map((row) => [row.id, toRecord(row)])) };
}

/** Every relation the engine's lists can expand: card, customer, account, program, authorization. */
export function expandLoaders(db: Db): Record<string, ExpandLoader> {
  return {
    customer: projectedCustomerLoader(db, SCHEMA),
    card: loader(cardResource, (ids, scope) => findCardsByIds(db, scope, ids), toCardRecord),
    account: loader(accountResource, (ids, scope) => findAccountsByIds(db, scope, ids), toAccountRecord),
    program: loader(programResource, (ids, scope) => findProgramsByIds(db, scope, ids), toProgramRecord),
    authorization: loader(
      authorizationResource,
      async (ids, scope) => {
        const { rows } = await db.query<AuthorizationRow & Doc>(
          "SELECT * FROM engine.authorizations WHERE id = ANY($1::text[]) AND business_id = $2 AND mode = $3",
          [ids, scope.businessId, scope.mode],
        );
        return rows;
      },
      toAuthorizationRecord,
    ),
  };
}
