/** The session cookie: read from a Cookie header, written as a Set-Cookie value. */
import { SESSION_COOKIE } from "./session-rules";

/** The value of the named cookie in a Cookie header (the first one, as browsers send the most specific first). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(";")) {
    const at = pair.indexOf("=");
    if (at < 0 || pair.slice(0, at).trim() !== name) continue;
    const value = pair.slice(at + 1).trim();
    return value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1) : value;
  }
  return undefined;
}

export const sessionIdOf = (cookieHeader: string | undefined) => cookieValue(cookieHeader, SESSION_COOKIE);

/**
 * HttpOnly: the page's JavaScript never reads it; SameSite=Strict: no other site's page sends it; Path=/: it goes
 * with the API's requests; Secure when the request came over TLS.
 */
export function sessionCookie(id: string, maxAgeSeconds: number, secure: boolean): string {
  const attributes = [`${SESSION_COOKIE}=${id}`, "HttpOnly", "SameSite=Strict", "Path=/", `Max-Age=${maxAgeSeconds}`];
  if (secure) attributes.push("Secure");
  return attributes.join("; ");
}

/** Tells the browser to drop the cookie. */
export const clearedSessionCookie = (secure: boolean): string => sessionCookie("", 0, secure);
