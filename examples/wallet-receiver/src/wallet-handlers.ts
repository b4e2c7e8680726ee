import {
  decline,
  onAmountUpdate,
  onCapture,
  onCheck,
  onClosed,
  onReversal,
  type AuthorizationAnswer,
  type Handlers,
  type Lien,
  type Outcome,
  type Wallet,
} from "@cardhold/receiver";
import type { Sql } from "./database.js";
import { findLien, insertLien, saveLien } from "./liens.store.js";
import { insertTransaction } from "./transactions.store.js";
import { findWallet, findWalletByCard, saveWallet } from "./wallets.store.js";

export interface WalletRules {
  /** The wallet app's own fee per capture, in minor units (default 0). */
  ownFee?: number;
}

/**
 * Runs one of the SDK's lien rules on the lien of an authorization and its wallet, both locked (wallet first, as in
 * a capture, so two deliveries never wait on each other in opposite orders), and saves the result.
 */
async function withLien(
  sql: Sql,
  authorizationId: string,
  rule: (wallet: Wallet, lien: Lien) => Outcome,
): Promise<AuthorizationAnswer> {
  const seen = await findLien(sql, authorizationId);
  if (!seen) return decline("invalid-transaction");
  const wallet = await findWallet(sql, seen.wallet, true);
  const lien = await findLien(sql, authorizationId, true);
  if (!wallet || !lien) return decline("invalid-transaction");
  const outcome = rule(wallet, lien);
  await saveWallet(sql, wallet.id, { ...wallet, ...outcome.wallet });
  await saveLien(sql, authorizationId, outcome.lien);
  return outcome.answer;
}

/** The reference receiver's steps 2–6 on the wallet database; each runs inside the delivery's transaction. */
export function walletHandlers(rules: WalletRules = {}): Handlers<Sql> {
  const ownFee = rules.ownFee ?? 0;
  return {
    check: async (authorization, { tx }) => onCheck(await findWalletByCard(tx, authorization.card)),

    async capture(authorization, { tx }) {
      const wallet = await findWalletByCard(tx, authorization.card, true);
      const outcome = onCapture(wallet, authorization.amount, authorization.fees ?? 0, {
        ownFee,
        withinSpendingRules: (total) => wallet?.captureLimit == null || total <= wallet.captureLimit,
      });
      if (wallet && outcome.lien) {
        await saveWallet(tx, wallet.id, { ...wallet, ...outcome.wallet });
        await insertLien(tx, {
          authorization: authorization.id,
          wallet: wallet.id,
          card: authorization.card,
          ...outcome.lien,
        });
      }
      return outcome.answer;
    },

    closed: (authorization, { tx }) => {
      const total = authorization.amount + (authorization.fees ?? 0) + ownFee;
      return withLien(tx, authorization.id, (wallet, lien) => onClosed(wallet, lien, authorization.status, total));
    },

    amountUpdate: (authorization, { tx }) =>
      withLien(tx, authorization.id, (wallet, lien) =>
        onAmountUpdate(wallet, lien, authorization.amount + (authorization.fees ?? 0) + ownFee),
      ),

    reversal: (authorization, { tx }) => withLien(tx, authorization.id, (wallet, lien) => onReversal(wallet, lien)),

    transaction: (transaction, { tx }) => insertTransaction(tx, transaction),
  };
}
