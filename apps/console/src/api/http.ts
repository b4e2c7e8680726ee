/** Every call the console makes: same origin, the session cookie, and the session's CSRF token on every write. */

export interface FieldError {
  path: string;
  message: string;
}

/** An answer other than 2xx, with the API's own message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldError[] = [],
  ) {
    super(message);
  }
}

const SESSION_PATH = "/console/api/session";
const READ_METHODS = new Set(["GET", "HEAD"]);

let csrfToken: string | undefined;
let unauthorized: (message: string) => void = () => undefined;

/** The token the gateway gave this session; sent as X-CSRF-Token on every write. */
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

/** Called when the API answers 401: the session ended (signed out elsewhere, expired, or its key was revoked). */
export function onUnauthorized(handler: (message: string) => void): void {
  unauthorized = handler;
}

/** `path` with the parameters that are set, e.g. withQuery("/cards", { limit: 20, filter: undefined }). */
export function withQuery(path: string, params: Record<string, string | number | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    if (value !== undefined && value !== "") query.set(name, String(value));
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

function parse(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

function errorOf(status: number, body: unknown): ApiError {
  const fields = (body ?? {}) as { message?: unknown; errors?: unknown };
  const message = typeof fields.message === "string" ? fields.message : `The server answered ${status}`;
  const errors = Array.isArray(fields.errors) ? (fields.errors as FieldError[]) : [];
  return new ApiError(status, message, errors);
}

/** Calls the API; resolves with the parsed JSON answer (undefined for 204), rejects with an ApiError. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (!READ_METHODS.has(method) && csrfToken) headers["x-csrf-token"] = csrfToken;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
    cache: "no-store",
  });
  const answer = parse(await response.text());
  if (response.ok) return answer as T;
  const error = errorOf(response.status, answer);
  if (response.status === 401 && path !== SESSION_PATH) unauthorized(error.message);
  throw error;
}

/** The `data` of a `{code, data}` answer. */
export async function apiData<T>(method: string, path: string, body?: unknown): Promise<T> {
  return (await api<{ data: T }>(method, path, body)).data;
}

/** An answer's record whether it comes as is or in the API's `{code, data}` envelope. */
export function unwrap<T>(answer: unknown): T {
  const body = answer as { code?: unknown; data?: unknown };
  return (body && typeof body === "object" && body.code === "success" && "data" in body ? body.data : answer) as T;
}
