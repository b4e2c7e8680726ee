/**
 * What a restricted API key may do, decided in the gateway from the request's method and path (Stripe's restricted
 * keys are the model). A key has either full access (`permissions` null: every key made before restricted keys) or
 * a non-empty list of these:
 *
 * - `read`: GET and HEAD on every path except card secrets (`/logs` included);
 * - `write`: every other method (POST, PUT, PATCH, DELETE …), on every path;
 * - `card-secrets`: GET and HEAD on `/cards/:id/secrets` (full PAN and CVV);
 * - `webhook-secrets`: GET and HEAD on `/webhooks/:id/secret` (the key that signs the business's events: whoever
 *   holds it can forge deliveries to its receiver).
 *
 * They are independent: `write` does not include `read`, and `read` never includes either kind of secret.
 */
export const PERMISSIONS = ["read", "write", "card-secrets", "webhook-secrets"] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** null: full access. */
export type KeyPermissions = readonly Permission[] | null;

const READ_METHODS = new Set(["GET", "HEAD"]);

/**
 * The path's segments as a service behind the gateway would route them: percent-decoded, lower-cased (Express
 * routes case-insensitively and ignores a trailing slash), empty segments dropped.
 */
function segments(path: string): string[] {
  return path
    .split("/")
    .map((segment) => {
      try {
        return decodeURIComponent(segment).toLowerCase();
      } catch {
        return segment.toLowerCase();
      }
    })
    .filter((segment) => segment !== "");
}

/** Card secrets: `/cards/<id>/secrets`, and, failing closed, anything under /cards that names `secrets`. */
function isCardSecrets(path: string): boolean {
  const parts = segments(path);
  return parts[0] === "cards" && parts.includes("secrets");
}

/** Webhook signing keys: `/webhooks/<id>/secret`, and, failing closed, anything under /webhooks that names `secret`. */
function isWebhookSecret(path: string): boolean {
  const parts = segments(path);
  return parts[0] === "webhooks" && parts.includes("secret");
}

/** The permission a request needs. */
export function requiredPermission(method: string, path: string): Permission {
  if (!READ_METHODS.has(method.toUpperCase())) return "write";
  if (isCardSecrets(path)) return "card-secrets";
  return isWebhookSecret(path) ? "webhook-secrets" : "read";
}

/** The permission the key lacks for this request, or undefined when it may go on. */
export function missingPermission(permissions: KeyPermissions, method: string, path: string): Permission | undefined {
  if (permissions === null) return undefined;
  const needed = requiredPermission(method, path);
  return permissions.includes(needed) ? undefined : needed;
}
