import { isIP } from "node:net";

/** Hosts a live-mode webhook may not target: loopback, private, link-local, unspecified (SSRF protection). */
function isInternalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  const version = isIP(host);
  if (version === 4) {
    const [a, b] = host.split(".").map(Number) as [number, number];
    return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  if (version === 6) {
    if (host === "::" || host === "::1") return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
    if (mapped) return isInternalHost(mapped[1]!);
    // The URL parser writes IPv4-mapped addresses in hex: ::ffff:7f00:1 is 127.0.0.1.
    const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
    if (hex) {
      const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
      return isInternalHost(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
    }
    return /^f[cd]/.test(host) || /^fe[89ab]/.test(host);
  }
  return false;
}

/**
 * Why a webhook URL is refused, or undefined when it is acceptable: http(s) only; in live mode no internal targets
 * unless the operator allows them. Test mode may target anything, localhost included, for local receivers.
 * Names are checked as written; a public name that resolves to a private address is not caught here.
 */
export function webhookUrlProblem(url: string, mode: "test" | "live", allowPrivateTargets: boolean): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "must be a URL";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "must be an http or https URL";
  if (parsed.username || parsed.password) return "must not carry credentials";
  if (mode === "live" && !allowPrivateTargets && isInternalHost(parsed.hostname)) {
    return "must not target a private, loopback or link-local address in live mode";
  }
  return undefined;
}
