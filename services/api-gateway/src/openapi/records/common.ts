/** Small field types the record schemas share. */
import { z } from "zod";

export const time = z.string().meta({ format: "date-time", description: "ISO 8601 timestamp" });
export const idOf = (prefix: string, what: string) =>
  z
    .string()
    .regex(new RegExp(`^${prefix.replace(/\./g, "\\.")}`))
    .describe(`${what} (\`${prefix}…\`)`);
export const minorUnits = (description: string) =>
  z.number().int().describe(`${description}, in minor units (kobo, cents)`);
export const metadata = z.record(z.string(), z.unknown()).describe("Your own key/value pairs");
