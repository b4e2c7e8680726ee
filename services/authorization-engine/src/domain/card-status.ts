/** A card's life (compatibility notes): inactive at creation, active once activated, blocked and back, terminated for good. */
export type CardStatus = "inactive" | "active" | "blocked" | "terminated";
export type CardAction = "activate" | "block" | "unblock" | "terminate" | "change" | "fund";

const ALLOWED: Record<CardAction, { from: CardStatus[]; to?: CardStatus }> = {
  activate: { from: ["inactive"], to: "active" },
  block: { from: ["active"], to: "blocked" },
  unblock: { from: ["blocked"], to: "active" },
  terminate: { from: ["inactive", "active", "blocked"], to: "terminated" },
  /** Controls, metadata, PIN. */
  change: { from: ["inactive", "active", "blocked"] },
  fund: { from: ["inactive", "active", "blocked"] },
};

const DONE: Record<CardAction, string> = {
  activate: "activated",
  block: "blocked",
  unblock: "unblocked",
  terminate: "terminated",
  change: "changed",
  fund: "funded",
};

export class CardStateError extends Error {
  constructor(
    readonly action: CardAction,
    readonly status: CardStatus,
  ) {
    super(`a ${status} card cannot be ${DONE[action]}`);
    this.name = "CardStateError";
  }
}

/** The status after `action`, or a CardStateError when the card's status does not allow it. */
export function cardStatusAfter(status: CardStatus, action: CardAction): CardStatus {
  const rule = ALLOWED[action];
  if (!rule.from.includes(status)) throw new CardStateError(action, status);
  return rule.to ?? status;
}
