import { z } from "zod";

/** Options every service shares; each service extends this with its own settings. */
export const baseConfigShape = {
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Shared secret a service requires on every non-health request (set by the gateway). */
  INTERNAL_TOKEN: z.string().min(16, "must be at least 16 characters"),
  /** Comma-separated Kafka brokers, e.g. 127.0.0.1:9092. */
  KAFKA_BROKERS: z.string().min(1),
  /** postgres://user@host:port/db */
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL"),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /** Maximum JSON request body. */
  BODY_LIMIT: z
    .string()
    .regex(/^\d+(b|kb|mb)$/, "must look like 100kb or 1mb")
    .default("1mb"),
};

export class ConfigError extends Error {}

/**
 * Validates the environment against a zod object schema. Throws ConfigError with a single line naming every bad
 * variable; `exitOnConfigError` turns that into one clear line on stderr and exit code 1.
 */
export function loadConfig<S extends z.ZodRawShape>(
  shape: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<z.ZodObject<S>> {
  const result = z.object(shape).safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => {
    const name = i.path.join(".");
    const value = env[name];
    return value === undefined ? `${name} is missing` : `${name} ${i.message}`;
  });
  throw new ConfigError(`invalid configuration: ${problems.join("; ")}`);
}

export function exitOnConfigError<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
