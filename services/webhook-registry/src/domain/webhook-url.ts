import { isIP } from "node:net";
import { isPublicAddress } from "@cardhold/platform";

export type TargetMode = "test" | "live";

/**
 * Hosts a live-mode webhook may not target as written (SSRF protection): `localhost` names, and any address that is
 * not public under the shared special-purpose range policy (`isPublicAddress` in `@cardhold/platform`: private,
 * loopback, link-local, unspecified, CGNAT, documentation, benchmarking, multicast, reserved, IPv4 carried in IPv6 …).
 * Other names are not resolved here: the event-dispatcher checks the address it actually connects to.
 */
export function isInternalHost(hostname: string): boolean {
  const host = hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  return isIP(host) !== 0 && !isPublicAddress(host);
}

/**
 * Why a webhook URL is refused, or undefined when it is acceptable: http(s) only, no credentials; in live mode no
 * internal targets unless the operator allows them. Test mode may target anything, localhost included, for local
 * receivers. Hosts are checked as written (the URL parser normalises `0x7f.1`, `2130706433` … to dotted form); a
 * public name that resolves to an internal address is refused at send time by the event-dispatcher instead.
 */
export function webhookUrlProblem(url: string, mode: TargetMode, allowPrivateTargets: boolean): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "must be an absolute http or https URL";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "must be an http or https URL";
  if (parsed.username || parsed.password) return "must not carry credentials";
  if (mode === "live" && !allowPrivateTargets && isInternalHost(parsed.hostname)) {
    return "must not target a private, loopback, link-local, reserved or other special-purpose address in live mode";
  }
  return undefined;
}
