/** The Idempotency-Key of every write (packages/platform/src/idempotency): its header, its replay marker, its errors. */
import { isConsoleRoute } from "./console-paths";
import type { Json } from "./schema";

const WRITES = new Set(["post", "put", "patch"]);

const KEY_PARAMETER: Json = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Makes a retry safe: for 24 hours a repeat with the same key, method, path and body answers the first answer again " +
    "(with `Idempotent-Replayed: true`) instead of doing the work twice. Keys are per business and mode.",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7E]+$" },
};

const REPLAYED_HEADER: Json = {
  "Idempotent-Replayed": {
    description: "`true` when this is the stored answer to an earlier request with the same Idempotency-Key",
    schema: { type: "string", enum: ["true"] },
  },
};

const keyError = (description: string, code: string, message: string): Json => ({
  description,
  content: {
    "application/json": {
      schema: { $ref: "#/components/schemas/Error" },
      example: { statusCode: Number(description.slice(0, 3)), code, message },
    },
  },
});

const KEY_ERRORS: Json = {
  "409": keyError(
    "409: a request with this Idempotency-Key is still under way",
    "idempotency-key-in-progress",
    "A request with this Idempotency-Key is still under way",
  ),
  "422": keyError(
    "422: this Idempotency-Key was used with a different method, path or body",
    "idempotency-key-reused",
    "This Idempotency-Key was used with a different request (method, path or body)",
  ),
};

const isAdmin = (op: Json) => ((op.security as Json[] | undefined) ?? []).some((s) => "operatorToken" in s);

function withKey(op: Json): Json {
  const responses = Object.fromEntries(
    Object.entries(op.responses as Record<string, Json>).map(([status, answer]) => [
      status,
      status.startsWith("2") ? { ...answer, headers: { ...(answer.headers as Json), ...REPLAYED_HEADER } } : answer,
    ]),
  );
  return {
    ...op,
    parameters: [...((op.parameters as Json[] | undefined) ?? []), KEY_PARAMETER],
    responses: { ...KEY_ERRORS, ...responses },
  };
}

/** Every tenant write takes an Idempotency-Key (the operator's admin endpoints and the console's session do not). */
export function withIdempotencyKeys(paths: Json): Json {
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item as Record<string, Json>).map(([method, op]) => [
          method,
          WRITES.has(method) && !isAdmin(op) && !isConsoleRoute(path) ? withKey(op) : op,
        ]),
      ),
    ]),
  );
}
