/** What every public record shares: the compatibility notes' field names, absent fields left out. */
export type Json = Record<string, unknown>;

/** Leaves out the keys whose value is null or undefined, as the original interface omits absent fields. */
export const present = (record: Json): Json =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== null && v !== undefined));
