import { addDepositChannelSchema, updateDepositChannelNameSchema } from "@cardhold/contracts";
import type { Db, Queryable } from "@cardhold/db";
import { notFound, recordIdempotentAnswer, stateConflict, validate, type ProjectedCustomer } from "@cardhold/platform";
import type { Scope } from "@cardhold/query";
import { toAccountRecord } from "./account-records";
import { getAccount, requireCustomer } from "./accounts";
import {
  addDepositChannel,
  lockAccounts,
  replaceDepositChannels,
  type AccountRow,
  type DepositChannel,
} from "../store/accounts.store";

/** Channels per account: each is a number on the account's row, which every authorization of the account reads. */
export const MAX_DEPOSIT_CHANNELS = 5;

/**
 * The full name of a customer as a bank account name: an individual's first, middle and last names; otherwise (a
 * business, or a customer known only by name) the customer's name.
 */
export function customerFullName(customer: Pick<ProjectedCustomer, "name" | "record">): string {
  const record = customer.record as { type?: unknown; claims?: { individualInformation?: Individual } } | null;
  const info = record?.type === "individual" ? record.claims?.individualInformation : undefined;
  const names = [info?.firstName, info?.middleName, info?.lastName]
    .filter((name): name is string => typeof name === "string" && name.trim() !== "")
    .map((name) => name.trim());
  return names.length > 0 ? names.join(" ") : customer.name;
}

type Individual = Partial<Record<"firstName" | "middleName" | "lastName", unknown>>;

/** The account of this business, locked for the rest of the transaction; 404 if there is none. */
async function lockedAccount(tx: Queryable, scope: Scope, id: string): Promise<AccountRow> {
  const account = await getAccount(tx, scope, id);
  return (await lockAccounts(tx, [account.id])).get(account.id)!;
}

/** POST /accounts/:id/deposit-channels: a new channel with its own 10-digit number; answers the account. */
export async function openDepositChannel(db: Db, scope: Scope, id: string, body: unknown) {
  validate(addDepositChannelSchema, body);
  return db.tx(async (tx) => {
    const account = await lockedAccount(tx, scope, id);
    if (account.status !== "active") throw stateConflict(`account ${account.id} is ${account.status}`);
    if (account.deposit_channels.length >= MAX_DEPOSIT_CHANNELS)
      throw stateConflict(`account ${account.id} has ${MAX_DEPOSIT_CHANNELS} deposit channels, the most it can have`);
    const record = toAccountRecord(await addDepositChannel(tx, scope, account));
    await recordIdempotentAnswer(tx, 201, { code: "success", data: record });
    return record;
  });
}

/**
 * PUT /accounts/:id/deposit-channels/update-account-name: the channel numbered `accountNumber` takes the full name of
 * the account's customer. An account without a customer has no such name: 422.
 */
export async function renameDepositChannel(db: Db, scope: Scope, id: string, body: unknown) {
  const request = validate(updateDepositChannelNameSchema, body);
  const account = await getAccount(db, scope, id);
  if (!account.customer_id)
    throw stateConflict(`account ${account.id} has no customer whose name its deposit channels could take`);
  const name = customerFullName(await requireCustomer(db, scope, account.customer_id));
  return db.tx(async (tx) => {
    const locked = await lockedAccount(tx, scope, id);
    const channels = withAccountName(locked.deposit_channels, request, name);
    const record = toAccountRecord(await replaceDepositChannels(tx, scope, locked.id, channels));
    await recordIdempotentAnswer(tx, 200, { code: "success", data: record });
    return record;
  });
}

/** The channels with the one picked by type and number renamed (its updatedAt now); 404 when there is none. */
function withAccountName(
  channels: DepositChannel[],
  pick: { type: string; accountNumber: string },
  accountName: string,
): DepositChannel[] {
  const picked = (c: DepositChannel) => c.type === pick.type && c.accountNumber === pick.accountNumber;
  if (!channels.some(picked)) throw notFound("Deposit channel", pick.accountNumber);
  const updatedAt = new Date().toISOString();
  return channels.map((c) => (picked(c) ? { ...c, accountName, updatedAt } : c));
}
