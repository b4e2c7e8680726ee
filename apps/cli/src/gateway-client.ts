import type { CliIo } from "./cli-io";

export const DEFAULT_GATEWAY = "http://127.0.0.1:8080";

/** An error answer of the API: `{statusCode, code, message, errors?}`. */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly code: string | undefined,
    readonly apiMessage: string,
    readonly errors: { path: string; message: string }[] = [],
  ) {
    const details = errors.map((e) => `\n  - ${e.path || "(body)"}: ${e.message}`).join("");
    super(`${method} ${path} answered ${status}${code ? ` ${code}` : ""}: ${apiMessage}${details}`);
  }
}

/** The gateway could not be reached at all. */
export class GatewayUnreachable extends Error {
  override name = "GatewayUnreachable";
}

export interface GatewayClient {
  readonly gateway: string;
  get<T = unknown>(path: string): Promise<T>;
  post<T = unknown>(path: string, body: unknown): Promise<T>;
}

export interface GatewayOptions {
  gateway?: string;
  key?: string;
}

/** `--gateway`, else CARDHOLD_URL, else http://127.0.0.1:8080, without a trailing slash. */
export const gatewayUrl = (opts: GatewayOptions, io: CliIo) =>
  (opts.gateway ?? io.env.CARDHOLD_URL ?? DEFAULT_GATEWAY).replace(/\/+$/, "");

/** The business's API: `--key` or CARDHOLD_KEY (required). */
export function gatewayClient(opts: GatewayOptions, io: CliIo): GatewayClient {
  const key = opts.key ?? io.env.CARDHOLD_KEY;
  if (!key) throw new Error("no API key: pass --key or set CARDHOLD_KEY to the business's secret key (sk.test.…)");
  return jsonClient(gatewayUrl(opts, io), { authorization: `Bearer ${key}` });
}

/** The gateway's admin endpoints: OPERATOR_TOKEN (required). */
export function operatorClient(opts: GatewayOptions, io: CliIo): GatewayClient {
  const token = io.env.OPERATOR_TOKEN;
  if (!token) throw new Error("no operator token: set OPERATOR_TOKEN to the gateway's operator token");
  return jsonClient(gatewayUrl(opts, io), { "x-operator-token": token });
}

function jsonClient(gateway: string, auth: Record<string, string>): GatewayClient {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(gateway + path, {
        method,
        headers: { ...auth, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      if ((error as Error).name === "TimeoutError")
        throw new GatewayUnreachable(`${method} ${path}: no answer from ${gateway} within 30 s`);
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const reason = cause?.code ?? cause?.message ?? (error as Error).message;
      throw new GatewayUnreachable(
        `cannot reach the gateway at ${gateway} (${reason}): is Cardhold running? If it runs elsewhere, set --gateway or CARDHOLD_URL`,
      );
    }
    return readAnswer<T>(method, path, response);
  }

  return { gateway, get: (path) => call("GET", path), post: (path, body) => call("POST", path, body) };
}

async function readAnswer<T>(method: string, path: string, response: Response): Promise<T> {
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const error = (parsed ?? {}) as { code?: string; message?: string; errors?: { path: string; message: string }[] };
    throw new ApiError(
      method,
      path,
      response.status,
      error.code,
      error.message ?? (text.slice(0, 200) || response.statusText),
      error.errors,
    );
  }
  return parsed as T;
}
