import { BlockList, isIP } from "node:net";

/**
 * Which IP addresses are public: the one address-range policy for outgoing requests to customer-chosen targets
 * (live-mode webhooks), shared by the webhook-registry (URLs written with an address) and the event-dispatcher
 * (the address it actually connects to). Pure: no DNS, no I/O.
 *
 * Refused are the special-purpose ranges of the IANA IPv4 and IPv6 special-purpose address registries (RFC 6890 and
 * later), multicast, the IPv4 reserved block, deprecated IPv6 site-local, and — since nothing outside it is allocated
 * for global unicast — IPv6 outside 2000::/3. An IPv6 address that carries an IPv4 address in its last 32 bits
 * (IPv4-mapped, IPv4-translated, NAT64 64:ff9b::/96) is judged by that IPv4 address.
 */
export interface SpecialRange {
  /** The range in CIDR notation. */
  readonly cidr: string;
  /** What it is, in a few words, for messages. */
  readonly name: string;
}

export const SPECIAL_IPV4_RANGES: readonly SpecialRange[] = [
  { cidr: "0.0.0.0/8", name: "this network" },
  { cidr: "10.0.0.0/8", name: "private" },
  { cidr: "100.64.0.0/10", name: "shared address space (carrier-grade NAT)" },
  { cidr: "127.0.0.0/8", name: "loopback" },
  { cidr: "169.254.0.0/16", name: "link-local" },
  { cidr: "172.16.0.0/12", name: "private" },
  { cidr: "192.0.0.0/24", name: "IETF protocol assignments" },
  { cidr: "192.0.2.0/24", name: "documentation" },
  { cidr: "192.88.99.0/24", name: "6to4 relay anycast" },
  { cidr: "192.168.0.0/16", name: "private" },
  { cidr: "198.18.0.0/15", name: "benchmarking" },
  { cidr: "198.51.100.0/24", name: "documentation" },
  { cidr: "203.0.113.0/24", name: "documentation" },
  { cidr: "224.0.0.0/4", name: "multicast" },
  { cidr: "255.255.255.255/32", name: "limited broadcast" },
  { cidr: "240.0.0.0/4", name: "reserved" },
];

/** Checked in order after the IPv4-carrying prefixes below: the first match names the range. */
export const SPECIAL_IPV6_RANGES: readonly SpecialRange[] = [
  { cidr: "::/128", name: "unspecified" },
  { cidr: "::1/128", name: "loopback" },
  { cidr: "::/96", name: "IPv4-compatible (deprecated)" },
  { cidr: "64:ff9b:1::/48", name: "local-use IPv4/IPv6 translation" },
  { cidr: "100::/64", name: "discard-only" },
  { cidr: "100:0:0:1::/64", name: "dummy prefix" },
  { cidr: "2001::/32", name: "Teredo" },
  { cidr: "2001::/23", name: "IETF protocol assignments" },
  { cidr: "2001:db8::/32", name: "documentation" },
  { cidr: "2002::/16", name: "6to4" },
  { cidr: "3fff::/20", name: "documentation" },
  { cidr: "5f00::/16", name: "segment routing (SRv6) SIDs" },
  { cidr: "fc00::/7", name: "unique local (private)" },
  { cidr: "fe80::/10", name: "link-local" },
  { cidr: "fec0::/10", name: "site-local (deprecated)" },
  { cidr: "ff00::/8", name: "multicast" },
  { cidr: "::/3", name: "reserved (outside global unicast 2000::/3)" },
  { cidr: "4000::/2", name: "reserved (outside global unicast 2000::/3)" },
  { cidr: "8000::/1", name: "reserved (outside global unicast 2000::/3)" },
];

/** IPv6 prefixes whose last 32 bits are an IPv4 address; such an address is as public as that IPv4 address. */
const IPV4_CARRIERS: readonly { prefix: readonly number[]; name: string }[] = [
  { prefix: [0, 0, 0, 0, 0, 0xffff], name: "IPv4-mapped" }, // ::ffff:0:0/96
  { prefix: [0, 0, 0, 0, 0xffff, 0], name: "IPv4-translated" }, // ::ffff:0:0:0/96
  { prefix: [0x64, 0xff9b, 0, 0, 0, 0], name: "NAT64" }, // 64:ff9b::/96
];

function blockListOf(ranges: readonly SpecialRange[], family: "ipv4" | "ipv6"): BlockList {
  const list = new BlockList();
  for (const { cidr } of ranges) {
    const [network, bits] = cidr.split("/") as [string, string];
    list.addSubnet(network, Number(bits), family);
  }
  return list;
}

const V4 = blockListOf(SPECIAL_IPV4_RANGES, "ipv4");
const V6 = blockListOf(SPECIAL_IPV6_RANGES, "ipv6");
const V4_EACH = SPECIAL_IPV4_RANGES.map((range) => ({ range, list: blockListOf([range], "ipv4") }));
const V6_EACH = SPECIAL_IPV6_RANGES.map((range) => ({ range, list: blockListOf([range], "ipv6") }));

/** `[::1]` → `::1`, `fe80::1%eth0` → `fe80::1`, upper case → lower case. */
function bare(address: string): string {
  return address
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/%.*$/, "")
    .toLowerCase();
}

/** The eight 16-bit groups of a valid IPv6 address (`::` and a dotted IPv4 tail allowed). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => parseInt(group, 16)));
  const split = text.indexOf("::");
  if (split < 0) return parse(text);
  const front = parse(text.slice(0, split));
  const back = parse(text.slice(split + 2));
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

const v4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/** An IPv6 address spelled out in full: what the IPv6 block list is asked (so it never maps it to IPv4 itself). */
const fullV6 = (groups: number[]) => groups.map((g) => g.toString(16)).join(":");

type Classified = { family: "ipv4"; address: string; via?: string } | { family: "ipv6"; address: string };

/** The address to judge: an IPv4 address as is or carried in IPv6, else the IPv6 address in full; null if not an IP. */
function classify(text: string): Classified | null {
  const address = bare(text);
  const version = isIP(address);
  if (version === 4) return { family: "ipv4", address };
  if (version !== 6) return null;
  const groups = ipv6Groups(address);
  const carrier = IPV4_CARRIERS.find(({ prefix }) => prefix.every((g, i) => groups[i] === g));
  if (carrier) return { family: "ipv4", address: v4Of(groups[6]!, groups[7]!), via: carrier.name };
  return { family: "ipv6", address: fullV6(groups) };
}

/**
 * Whether `address` (IPv4 or IPv6 text, brackets and a zone allowed) is a public address a live-mode request may
 * reach. False for every special-purpose range above, and for text that is not an IP address at all (fail closed).
 * One block-list lookup: cheap enough for every new connection.
 */
export function isPublicAddress(address: string): boolean {
  const judged = classify(address);
  if (!judged) return false;
  return judged.family === "ipv4" ? !V4.check(judged.address, "ipv4") : !V6.check(judged.address, "ipv6");
}

/**
 * The special-purpose range `address` lies in, named for a message (`loopback`, `IPv4-mapped private` …), or undefined
 * for a public address. Text that is not an IP address is named `not an IP address`.
 */
export function specialRangeOf(address: string): string | undefined {
  const judged = classify(address);
  if (!judged) return "not an IP address";
  if (judged.family === "ipv4") {
    const found = V4_EACH.find(({ list }) => list.check(judged.address, "ipv4"))?.range.name;
    return found && judged.via ? `${judged.via} ${found}` : found;
  }
  return V6_EACH.find(({ list }) => list.check(judged.address, "ipv6"))?.range.name;
}
