/**
 * The business's own API keys (GET, POST /api-keys, DELETE /api-keys/{id}) and the web console's session and live
 * stream (/console/api/…): services/api-gateway/src/console/.
 */
import { z } from "zod";
import { modeSchema } from "@cardhold/contracts";
import { createRestrictedKeySchema } from "../console/api-keys-routes";
import { signInSchema } from "../console/session-routes";
import { streamQuerySchema } from "../console/stream-routes";
import { PERMISSIONS } from "../domain/permissions";
import { list, operation, write } from "./operations";
import { idOf, time } from "./records/common";
import { apiKeyRecord } from "./records/platform";
import { error } from "./responses";
import { named, ref, type Json, type Paths } from "./schema";

/** Handled by the gateway itself, never forwarded: no delayed 202 (finish.ts). */
export const isGatewayOwnWrite = (path: string): boolean =>
  path === "/api-keys" || path.startsWith("/api-keys/") || path.startsWith("/console/");

/** The console's session and stream: no Idempotency-Key (idempotency.ts); POST /api-keys takes one. */
export const isConsoleRoute = (path: string): boolean => path.startsWith("/console/");

const businessApiKeyRecord = named(
  "BusinessApiKey",
  apiKeyRecord.extend({ prefix: z.string().describe("The key's visible start, `sk.<mode>.`, shown with last4") }),
);

const createdBusinessApiKeyRecord = named(
  "CreatedBusinessApiKey",
  businessApiKeyRecord.extend({
    secret: z
      .string()
      .nullable()
      .describe("The secret key, `sk.<mode>.<secret>`: shown this once (null in a replay for an Idempotency-Key)"),
  }),
);

const consoleSessionRecord = named(
  "ConsoleSession",
  z.object({
    business: z.object({ id: idOf("bus.", "Business id"), name: z.string() }),
    mode: modeSchema,
    keyId: idOf("key.", "The signed-in key's id"),
    permissions: z.array(z.enum(PERMISSIONS)).nullable().describe("null: full access"),
    csrfToken: z.string().describe("Send it as X-CSRF-Token with every write made with the session cookie"),
    expiresAt: time.describe("When the session ends unless a request comes first (30 min idle, 12 h at most)"),
  }),
  "The console's session: the key it stands for and the CSRF token its writes carry",
);

const sessionExample = {
  business: { id: "bus.2tVghquVL5LxCkjB3", name: "Acme" },
  mode: "test",
  keyId: "key.2tVghquVL5LxCkjB4",
  permissions: null,
  csrfToken: "b3Jm9yQm3xY8nq2Lr7TzK0c1VwE5aPpD4sHgJ6uFkXo",
  expiresAt: "2025-03-14T18:52:51.000Z",
};

const SESSION_COOKIE_SET: Json = {
  "Set-Cookie": {
    description: "`cardhold_session=<opaque id>; HttpOnly; SameSite=Strict; Path=/; Max-Age=<s>` (and Secure over TLS)",
    schema: { type: "string" },
  },
};

const cookie = [{ consoleSession: [] }];

/** The operation with the session cookie's Set-Cookie header on its `status` answer. */
function withSetCookie(status: string, op: Json): Json {
  const responses = op.responses as Record<string, Json>;
  return { ...op, responses: { ...responses, [status]: { ...responses[status], headers: SESSION_COOKIE_SET } } };
}
const signInLimited = { "429": error("TooManyRequests", "Too many sign-in attempts from this address: Retry-After") };
const crossSite = { "403": error("Forbidden", "Without the session's X-CSRF-Token, or from another Origin") };

function sessionPaths(): Paths {
  const session = (summary: string, extra: Json = {}) =>
    operation({
      summary,
      returns: "The session",
      schema: ref(consoleSessionRecord),
      example: sessionExample,
      security: cookie,
      ...extra,
    });
  return {
    "/console/api/session": {
      post: withSetCookie(
        "201",
        session("Sign in to the console with a secret key: a session cookie in exchange", {
          status: "201",
          body: signInSchema,
          security: [],
          description:
            "The key is checked and never kept: the session stores the key's id, and ends when the key is revoked. " +
            "A request with another site's Origin is refused (403); attempts are limited per client address (429).",
          responses: { ...signInLimited, "403": error("Forbidden", "Another site's Origin") },
        }),
      ),
      get: session("The console's session (after a reload: its CSRF token)"),
      delete: {
        summary: "Sign out: ends the session and clears the cookie",
        security: cookie,
        parameters: [csrfHeader()],
        responses: {
          "204": { description: "Signed out; Set-Cookie clears the cookie", headers: SESSION_COOKIE_SET },
          ...crossSite,
        },
      },
    },
    "/console/api/stream/card-authorizations": {
      get: {
        summary: "Every new or changed card authorization, live (server-sent events)",
        description:
          "With the session cookie. Each new or changed authorization matching `filter` is an event `card-authorization` " +
          'whose data is `{"code":"success","data":<the authorization>}`, as GET /card-authorizations/{id} answers; a ' +
          "`: keepalive` comment comes every 15 s; an event `session-ended` closes the stream when the session ends. At " +
          "most 5 streams per session (429).",
        security: cookie,
        parameters: [
          {
            name: "filter",
            in: "query",
            required: false,
            description: streamQuerySchema.shape.filter.description,
            schema: { type: "string", maxLength: 2_000 },
          },
        ],
        responses: {
          "200": {
            description: "The event stream",
            content: {
              "text/event-stream": {
                schema: { type: "string" },
                example:
                  'event: card-authorization\ndata: {"code":"success","data":{"id":"c.auth.2tVghquVL5LxCkjB3"}}\n\n',
              },
            },
          },
          "429": error("TooManyRequests", "Five streams of this session are open already"),
        },
      },
    },
  };
}

function csrfHeader(): Json {
  return {
    name: "X-CSRF-Token",
    in: "header",
    required: true,
    description: "The session's csrfToken",
    schema: { type: "string" },
  };
}

function apiKeyPaths(): Paths {
  const fullAccessOnly = {
    "403": error("Forbidden", "A restricted key (or its session): only a full-access key manages keys"),
  };
  return {
    "/api-keys": {
      get: list("List this business's secret keys in this mode, revoked ones included", businessApiKeyRecord, [], {
        description: "Never the secret or its hash. lastUsedAt is kept to the minute.",
        responses: fullAccessOnly,
      }),
      post: write(
        "Create a restricted secret key in this mode; its secret is shown once",
        createRestrictedKeySchema,
        createdBusinessApiKeyRecord,
        {
          status: "201",
          bodyExample: { name: "reporting", permissions: ["read"] },
          description:
            "permissions: read (GET except secrets), write (every other method), card-secrets (GET /cards/{id}/secrets), " +
            "webhook-secrets (GET /webhooks/{id}/secret). With an Idempotency-Key a retry makes no second key: it answers " +
            "the key made first, marked Idempotent-Replayed, with secret null (the secret is never stored).",
          responses: fullAccessOnly,
        },
      ),
    },
    "/api-keys/{id}": {
      delete: write(
        "Revoke a secret key (idempotent): it and its console sessions are refused at once",
        undefined,
        businessApiKeyRecord,
        {
          description: "On this gateway at once, on every other gateway instance within a second.",
          responses: fullAccessOnly,
        },
      ),
    },
  };
}

export function consolePaths(): Paths {
  return { ...apiKeyPaths(), ...sessionPaths() };
}
