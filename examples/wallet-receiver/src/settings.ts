import { z } from "zod";

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().min(1).default("127.0.0.1"),
  CARDHOLD_SIGNING_KEY: z
    .string({ error: "is required: the webhook's signing key (GET /webhooks/:id/secret)" })
    .min(1, "must not be empty"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional(),
  DATA_DIR: z.string().min(1).default("./.data/wallet-receiver"),
  WEBHOOK_PATH: z.string().startsWith("/").default("/webhook"),
  OWN_FEE: z.coerce.number().int().min(0).default(0),
});

export type Settings = z.infer<typeof schema>;

export type SettingsRead = { settings: Settings; warnings: string[] } | { problems: string[] };

/** The receiver's settings from the environment; `SIGNING_KEY`, the signing key's old name, still works with a warning. */
export function readSettings(env: Record<string, string | undefined>): SettingsRead {
  const warnings: string[] = [];
  let source = env;
  if (env.CARDHOLD_SIGNING_KEY === undefined && env.SIGNING_KEY !== undefined) {
    warnings.push("wallet-receiver: SIGNING_KEY is deprecated and will stop working: set CARDHOLD_SIGNING_KEY instead");
    source = { ...env, CARDHOLD_SIGNING_KEY: env.SIGNING_KEY };
  }
  const parsed = schema.safeParse(source);
  if (!parsed.success)
    return {
      problems: parsed.error.issues.map((issue) => `wallet-receiver: ${issue.path.join(".")} ${issue.message}`),
    };
  return { settings: parsed.data, warnings };
}
