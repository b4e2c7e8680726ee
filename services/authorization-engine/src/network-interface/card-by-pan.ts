/**
 * The card of a network message, by its PAN: through the card vault's keyed hash (migration 012), never by unsealing
 * every card's PAN, never logging it. Cards without a hash yet (from before the migration) are hashed at start and
 * whenever a PAN finds no card while such cards remain.
 */
import type { Db } from "@cardhold/db";
import type { Logger } from "pino";
import type { CardVault } from "../cards/card-vault";
import {
  findCardsByPanHash,
  findCardsWithoutPanHash,
  setPanHashes,
  type PanCardWithAnswer,
} from "../store/card-pans.store";
import type { NetworkMessageKey } from "../store/network-messages.store";
import { asField14 } from "./card-checks";

const BACKFILL_BATCH = 500;

export interface CardLookup {
  db: Db;
  vault: CardVault;
  logger: Logger;
}

/** Hashes the PANs of every card that has no hash yet; returns how many it hashed. */
export async function backfillPanHashes(ctx: CardLookup): Promise<number> {
  let hashed = 0;
  for (;;) {
    const cards = await findCardsWithoutPanHash(ctx.db, BACKFILL_BATCH);
    if (cards.length === 0) return hashed;
    await setPanHashes(
      ctx.db,
      cards.map((c) => ({ id: c.id, panHash: ctx.vault.panHash(ctx.vault.open(c.pan_encrypted)) })),
    );
    hashed += cards.length;
    if (cards.length < BACKFILL_BATCH) return hashed;
  }
}

/**
 * The card with this PAN (and, when several share it, this expiry: YYMM), with the answer already given to the message
 * `key` names when it is a repeat; undefined when none, or several, do. Cards of every business and both modes: the
 * PAN decides.
 */
export async function findCardByPan<Answer>(
  ctx: CardLookup,
  message: { pan: string; expiry: string | undefined; maskedPan: string; key: NetworkMessageKey },
): Promise<PanCardWithAnswer<Answer> | undefined> {
  const panHash = ctx.vault.panHash(message.pan);
  const find = () => findCardsByPanHash<Answer>(ctx.db, panHash, message.key);
  let cards = await find();
  if (cards.length === 0 && (await backfillPanHashes(ctx)) > 0) cards = await find();
  const { expiry } = message;
  if (cards.length > 1 && expiry !== undefined) cards = cards.filter((c) => asField14(c.expiry) === expiry);
  if (cards.length > 1) {
    const found = cards.map((c) => c.id);
    ctx.logger.warn({ pan: message.maskedPan, cards: found }, "several cards share a PAN: answered 14");
    return undefined;
  }
  return cards[0];
}
