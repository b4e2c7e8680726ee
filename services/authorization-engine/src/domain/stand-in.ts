/**
 * Stand-in: what a card program's rules (or, without any, its deciding webhook's) decide for a capture when the
 * receiver gives no usable answer in time (the role a network's stand-in processing or Marqeta's Commando Mode plays).
 * The flat timeoutDefault is the simplest such rule; these add limits. Pure: the caller supplies what stand-in already
 * approved for the card today.
 */
import { mccInLists, type Channel } from "./pre-checks";
import { intervalStart } from "./spending-windows";

export interface StandInRule {
  /** Names the rule in the decision; unnamed, it is `rules[<index>]`. */
  name?: string;
  /** Approves an authorization of at most this amount (minor units, fees not counted). */
  approveUpTo: number;
  /** At most this much (minor units) approved by stand-in for the card per UTC day, this authorization included. */
  perCardDaily?: number;
  /** Only authorizations whose MCC is in one of these lists ("5541-5542,7654"); absent or empty: any. */
  mccs?: string[];
  /** Only authorizations on these channels; absent or empty: any. */
  channels?: Channel[];
}

export interface StandIn {
  rules: StandInRule[];
  /** What an authorization no rule takes gets. */
  otherwise: "approve" | "decline";
}

/** Where the stand-in rules a capture gets came from: its card program, or the webhook that decides it. */
export type StandInSource = "program" | "webhook";

/** The stand-in rules a capture gets, and where they came from. */
export interface StandInInForce {
  standIn: StandIn;
  source: StandInSource;
}

/**
 * Which stand-in rules a capture gets: the card program's when it has any, else the rules of the webhook that decides
 * it, else none (null: the flat timeoutDefault decides).
 */
export function standInInForce(program: StandIn | null, webhook: StandIn | null): StandInInForce | null {
  if (program) return { standIn: program, source: "program" };
  if (webhook) return { standIn: webhook, source: "webhook" };
  return null;
}

/** What stand-in decided, and the rule that decided it (its name, `rules[<index>]`, or `otherwise`). */
export interface StandInVerdict {
  action: "approve" | "decline";
  rule: string;
}

export interface StandInSubject {
  amount: number;
  channel: Channel;
  mcc?: string;
}

export const OTHERWISE = "otherwise";

const ruleId = (rule: StandInRule, index: number) => rule.name ?? `rules[${index}]`;

const takes = (rule: StandInRule, a: StandInSubject) =>
  (!rule.channels?.length || rule.channels.includes(a.channel)) &&
  (!rule.mccs?.length || (a.mcc !== undefined && mccInLists(a.mcc, rule.mccs)));

const withinLimits = (rule: StandInRule, amount: number, approvedToday: number) =>
  amount <= rule.approveUpTo && (rule.perCardDaily === undefined || approvedToday + amount <= rule.perCardDaily);

/**
 * The first rule whose MCCs and channels take the authorization decides it: approve when the amount is within
 * approveUpTo and, with perCardDaily, within what is left of the card's day; else decline. No rule takes it:
 * `otherwise`. `approvedToday`: what stand-in approved for the card since the UTC day started (needed only when needsApprovedToday).
 */
export function standInVerdict(a: StandInSubject, standIn: StandIn, approvedToday: number): StandInVerdict {
  const index = standIn.rules.findIndex((rule) => takes(rule, a));
  const rule = standIn.rules[index];
  if (!rule) return { action: standIn.otherwise, rule: OTHERWISE };
  return { action: withinLimits(rule, a.amount, approvedToday) ? "approve" : "decline", rule: ruleId(rule, index) };
}

/** Whether the verdict on `a` needs what stand-in approved for the card today: the rule that takes it has a daily limit. */
export const needsApprovedToday = (a: StandInSubject, standIn: StandIn) =>
  standIn.rules.find((rule) => takes(rule, a))?.perCardDaily !== undefined;

/** Where the card's stand-in day started at `now` (UTC midnight). */
export const standInDayStart = (now: number) => intervalStart("daily", now)!;
