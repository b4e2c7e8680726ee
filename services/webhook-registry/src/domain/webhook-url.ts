import { isIP } from "node:net";

export type TargetMode = "test" | "live";

/** IPv4 ranges a live webhook may not target: [first octet, lowest second octet, highest second octet]. */
const INTERNAL_V4: Array<[number, number, number]> = [
  [0, 0, 255], // 0.0.0.0/8 "this network", 0.0.0.0 unspecified
  [10, 0, 255], // 10/8 private
  [127, 0, 255], // 127/8 loopback
  [169, 254, 254], // 169.254/16 link-local (cloud metadata endpoints)
  [172, 16, 31], // 172.16/12 private
  [192, 168, 168], // 192.168/16 private
  [100, 64, 127], // 100.64/10 shared address space (carrier-grade NAT)
];

function isInternalV4(host: string): boolean {
  const [a, b] = host.split(".").map(Number) as [number, number];
  return INTERNAL_V4.some(([first, low, high]) => a === first && b >= low && b <= high);
}

/** The eight 16-bit groups of an IPv6 address (the URL parser has already normalised it). */
function ipv6Groups(host: string): number[] {
  let text = host;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split(".").map(Number) as [number, number, number, number];
    text = text.slice(0, -dotted[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? (text.split("::") as [string, string]) : [text, undefined];
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const front = parse(head);
  if (tail === undefined) return front;
  const back = parse(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

function embeddedV4(groups: number[]): string {
  const [high, low] = [groups[6]!, groups[7]!];
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

function isInternalV6(host: string): boolean {
  const groups = ipv6Groups(host);
  const first = groups[0]!;
  const zeroUpTo = (n: number) => groups.slice(0, n).every((g) => g === 0);
  if (zeroUpTo(7) && (groups[7] === 0 || groups[7] === 1)) return true; // :: unspecified, ::1 loopback
  if (zeroUpTo(5) && groups[5] === 0xffff) return isInternalV4(embeddedV4(groups)); // ::ffff:a.b.c.d mapped
  if (zeroUpTo(6)) return isInternalV4(embeddedV4(groups)); // ::a.b.c.d (deprecated IPv4-compatible)
  const nat64 = first === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0);
  if (nat64) return isInternalV4(embeddedV4(groups)); // 64:ff9b::a.b.c.d
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80; // fc00::/7 unique local, fe80::/10 link-local
}

/** Hosts a live-mode webhook may not target: loopback, private, link-local, unspecified (SSRF protection). */
export function isInternalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  const version = isIP(host);
  if (version === 4) return isInternalV4(host);
  if (version === 6) return isInternalV6(host);
  return false;
}

/**
 * Why a webhook URL is refused, or undefined when it is acceptable: http(s) only, no credentials; in live mode no
 * internal targets unless the operator allows them. Test mode may target anything, localhost included, for local
 * receivers. Hosts are checked as written (the URL parser normalises `0x7f.1`, `2130706433` … to dotted form); a
 * public name that resolves to a private address is not caught here.
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
    return "must not target a private, loopback, link-local or unspecified address in live mode";
  }
  return undefined;
}
