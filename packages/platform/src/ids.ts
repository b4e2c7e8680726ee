import { randomInt } from "node:crypto";

/** Bitcoin base58 alphabet; it is in ASCII order, so fixed-width encodings sort like the numbers they encode. */
const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const TIME_CHARS = 9; // 58^9 > 2^48 ms: good until the year 10889
const RANDOM_CHARS = 8;
const RANDOM_SPACE = 58 ** RANDOM_CHARS; // 1.28e14: exact in a number, as is any time in ms (< 2^53)

export const ID_PREFIXES = {
  business: "bus.",
  apiKey: "key.",
  customer: "cus.",
  account: "ac.",
  cardProgram: "c.prg.",
  card: "c.",
  authorization: "c.auth.",
  transaction: "c.txn.",
  event: "evt.",
  webhook: "wh.",
  billProduct: "bp.",
  payment: "p.",
  fee: "fee.",
  billing: "bil.",
  merchant: "mch.",
  dispute: "dsp.",
  paymentRequest: "preq.",
  message: "msg.",
  request: "req.",
  log: "log.",
  delivery: "dlv.",
  ledgerMovement: "mv.",
  ledgerEntry: "le.",
} as const;
export type IdKind = keyof typeof ID_PREFIXES;

/** One id body's characters, written in place: number arithmetic and one string, no BigInt or string per digit. */
const idChars = Buffer.alloc(TIME_CHARS + RANDOM_CHARS);
const ALPHABET_CODES = Buffer.from(ALPHABET, "latin1");

function encodeInto(value: number, start: number, width: number): void {
  for (let i = start + width - 1; i >= start; i--) {
    idChars[i] = ALPHABET_CODES[value % 58]!;
    value = Math.floor(value / 58);
  }
}

let lastTime = 0;
let lastRandom = 0;

/** The part after the prefix: 17 base58 characters, time-ordered and monotonic within this process. */
export function newIdBody(now = Date.now()): string {
  let random: number;
  if (now <= lastTime) {
    now = lastTime;
    random = lastRandom + 1;
    if (random >= RANDOM_SPACE) {
      now += 1;
      random = 0;
    }
  } else {
    // The lower half of the space, so that the ids of one millisecond have room to count up.
    random = randomInt(RANDOM_SPACE / 2);
  }
  lastTime = now;
  lastRandom = random;
  encodeInto(now, 0, TIME_CHARS);
  encodeInto(random, TIME_CHARS, RANDOM_CHARS);
  return idChars.toString("latin1");
}

export function newId<K extends IdKind>(kind: K): `${(typeof ID_PREFIXES)[K]}${string}` {
  return `${ID_PREFIXES[kind]}${newIdBody()}` as `${(typeof ID_PREFIXES)[K]}${string}`;
}

const BODY = new RegExp(`^[${ALPHABET}]{${TIME_CHARS + RANDOM_CHARS}}$`);

/** True when `value` is an id of this kind (prefix plus a well-formed body). */
export function isId(kind: IdKind, value: unknown): value is string {
  if (typeof value !== "string") return false;
  const prefix = ID_PREFIXES[kind];
  return value.startsWith(prefix) && BODY.test(value.slice(prefix.length));
}

/** When an id was made (ms since the epoch, from its time-ordered body), or undefined for text that is not one. */
export function idTime(id: string): number | undefined {
  const body = id.slice(-(TIME_CHARS + RANDOM_CHARS));
  if (!BODY.test(body)) return undefined;
  let time = 0;
  for (const char of body.slice(0, TIME_CHARS)) time = time * 58 + ALPHABET.indexOf(char);
  return time;
}

/**
 * Whether a resource with this id could still be on its way to a projection (made in the last `windowMs`): only
 * then is it worth waiting for it. An unknown id that is not recent, or not an id at all, is simply not there.
 */
export function mayStillArrive(id: string, windowMs: number, now = Date.now()): boolean {
  const made = idTime(id);
  return made !== undefined && made > now - windowMs && made < now + 1_000;
}
