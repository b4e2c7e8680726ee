import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isPublicAddress, SPECIAL_IPV4_RANGES, SPECIAL_IPV6_RANGES, specialRangeOf } from "./special-addresses";

/** [address, the range it is named after, or undefined for a public address]. */
const rows: ReadonlyArray<readonly [string, string | undefined]> = [
  // IPv4 special-purpose ranges, at their edges
  ["0.0.0.0", "this network"],
  ["0.255.255.255", "this network"],
  ["10.0.0.0", "private"],
  ["10.255.255.255", "private"],
  ["100.64.0.1", "shared address space (carrier-grade NAT)"],
  ["100.127.255.255", "shared address space (carrier-grade NAT)"],
  ["100.63.255.255", undefined],
  ["100.128.0.0", undefined],
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["169.254.169.254", "link-local"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["172.15.255.255", undefined],
  ["172.32.0.0", undefined],
  ["192.0.0.1", "IETF protocol assignments"],
  ["192.0.0.255", "IETF protocol assignments"],
  ["192.0.1.1", undefined],
  ["192.0.2.1", "documentation"],
  ["192.88.99.1", "6to4 relay anycast"],
  ["192.168.1.1", "private"],
  ["192.169.0.1", undefined],
  ["198.18.0.1", "benchmarking"],
  ["198.19.255.255", "benchmarking"],
  ["198.17.255.255", undefined],
  ["198.20.0.0", undefined],
  ["198.51.100.7", "documentation"],
  ["203.0.113.9", "documentation"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.255", "multicast"],
  ["240.0.0.1", "reserved"],
  ["255.255.255.254", "reserved"],
  ["255.255.255.255", "limited broadcast"],
  // public IPv4
  ["8.8.8.8", undefined],
  ["1.1.1.1", undefined],
  ["9.255.255.255", undefined],
  ["11.0.0.0", undefined],
  ["126.255.255.255", undefined],
  ["128.0.0.0", undefined],
  ["223.255.255.255", undefined],
  // IPv6 special-purpose ranges
  ["::", "unspecified"],
  ["::1", "loopback"],
  ["[::1]", "loopback"],
  ["::7f00:1", "IPv4-compatible (deprecated)"],
  ["::8.8.8.8", "IPv4-compatible (deprecated)"],
  ["64:ff9b:1::1", "local-use IPv4/IPv6 translation"],
  ["64:ff9b:1::7f00:1", "local-use IPv4/IPv6 translation"],
  ["64:ff9b:1:ffff:ffff:ffff:ffff:ffff", "local-use IPv4/IPv6 translation"],
  ["100::1", "discard-only"],
  ["100:0:0:1::1", "dummy prefix"],
  ["100::1:0:0:1", "discard-only"],
  ["2001::1", "Teredo"],
  ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"],
  ["2001:2::1", "IETF protocol assignments"],
  ["2001:1ff:ffff::1", "IETF protocol assignments"],
  ["2001:200::1", undefined], // just past 2001::/23
  ["2001:db8::1", "documentation"],
  ["2001:DB8:FFFF::1", "documentation"],
  ["3fff::1", "documentation"],
  ["3fff:fff::1", "documentation"],
  ["3fff:1000::1", undefined], // past 3fff::/20
  ["2002:7f00:1::1", "6to4"],
  ["2002:808:808::1", "6to4"],
  ["5f00::1", "segment routing (SRv6) SIDs"],
  ["fc00::1", "unique local (private)"],
  ["fd12:3456::1", "unique local (private)"],
  ["fe80::1", "link-local"],
  ["fe80::1%eth0", "link-local"],
  ["febf::1", "link-local"],
  ["fec0::1", "site-local (deprecated)"],
  ["ff02::1", "multicast"],
  ["ff0e::1", "multicast"],
  ["fc::1", "reserved (outside global unicast 2000::/3)"],
  ["fe00::1", "reserved (outside global unicast 2000::/3)"],
  ["4000::1", "reserved (outside global unicast 2000::/3)"],
  // IPv4 carried in IPv6: judged by the IPv4 address
  ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
  ["::ffff:7f00:1", "IPv4-mapped loopback"],
  ["::ffff:a9fe:a9fe", "IPv4-mapped link-local"],
  ["::ffff:8.8.8.8", undefined],
  ["::ffff:0:7f00:1", "IPv4-translated loopback"],
  ["::ffff:0:10.0.0.1", "IPv4-translated private"],
  ["::ffff:0:808:808", undefined],
  ["64:ff9b::7f00:1", "NAT64 loopback"],
  ["64:ff9b::a9fe:a9fe", "NAT64 link-local"],
  ["64:ff9b::c612:1", "NAT64 benchmarking"],
  ["64:ff9b::808:808", undefined],
  // public IPv6
  ["2606:4700::1111", undefined],
  ["2001:4860:4860::8888", undefined],
  ["2a00:1450:4001:80b::200e", undefined],
  ["2620:4f:8000::1", undefined],
  // not IP addresses at all: never public
  ["localhost", "not an IP address"],
  ["example.com", "not an IP address"],
  ["0x7f.1", "not an IP address"],
  ["", "not an IP address"],
];

describe("special-purpose addresses", () => {
  it.each(rows)("%s → %s", (address, range) => {
    expect(specialRangeOf(address)).toBe(range);
    expect(isPublicAddress(address)).toBe(range === undefined);
  });

  it("every range in the tables refuses its own first address", () => {
    for (const { cidr } of [...SPECIAL_IPV4_RANGES, ...SPECIAL_IPV6_RANGES]) {
      expect(isPublicAddress(cidr.split("/")[0]!), cidr).toBe(false);
    }
  });
});

const octet = fc.integer({ min: 0, max: 255 });
const group = fc.integer({ min: 0, max: 0xffff });
const v4 = (a: number, b: number, c: number, d: number) => `${a}.${b}.${c}.${d}`;
const hex = (n: number) => n.toString(16);

/** Any address inside `first.second/…`: the fixed leading octets, the rest random within the prefix. */
const inV4Range = (cidr: string) => {
  const [network, bitsText] = cidr.split("/") as [string, string];
  const bits = Number(bitsText);
  const base = network.split(".").reduce((n, o) => n * 256 + Number(o), 0);
  const size = 2 ** (32 - bits);
  return fc.integer({ min: 0, max: size - 1 }).map((offset) => {
    const n = base + offset;
    return v4(Math.floor(n / 2 ** 24) % 256, Math.floor(n / 2 ** 16) % 256, Math.floor(n / 2 ** 8) % 256, n % 256);
  });
};

describe("special-purpose addresses, for any address", () => {
  it("every address in an IPv4 special range is refused, also when carried in IPv6", () => {
    for (const { cidr } of SPECIAL_IPV4_RANGES) {
      fc.assert(
        fc.property(inV4Range(cidr), (address) => {
          const [a, b, c, d] = address.split(".").map(Number) as [number, number, number, number];
          const high = hex((a << 8) | b);
          const low = hex((c << 8) | d);
          return [
            address,
            `::ffff:${address}`,
            `::ffff:${high}:${low}`,
            `::ffff:0:${high}:${low}`,
            `64:ff9b::${high}:${low}`,
          ].every((form) => !isPublicAddress(form));
        }),
        { numRuns: 50 },
      );
    }
  });

  it("an IPv4 address and its IPv4-mapped, IPv4-translated and NAT64 forms are judged alike", () => {
    fc.assert(
      fc.property(octet, octet, octet, octet, (a, b, c, d) => {
        const address = v4(a, b, c, d);
        const [high, low] = [hex((a << 8) | b), hex((c << 8) | d)];
        const expected = isPublicAddress(address);
        return [`::ffff:${address}`, `[::ffff:${high}:${low}]`, `::ffff:0:${address}`, `64:ff9b::${address}`].every(
          (form) => isPublicAddress(form) === expected,
        );
      }),
    );
  });

  it("every address in the private, loopback, link-local, unique-local and multicast IPv6 ranges is refused", () => {
    const in6 = (first: fc.Arbitrary<number>) =>
      fc
        .tuple(first, fc.array(group, { minLength: 7, maxLength: 7 }))
        .map(([g, rest]) => [g, ...rest].map(hex).join(":"));
    const ranges = [
      in6(fc.integer({ min: 0xfc00, max: 0xfdff })), // fc00::/7
      in6(fc.integer({ min: 0xfe80, max: 0xfebf })), // fe80::/10
      in6(fc.integer({ min: 0xfec0, max: 0xfeff })), // fec0::/10
      in6(fc.integer({ min: 0xff00, max: 0xffff })), // ff00::/8
      in6(fc.constant(0x2002)), // 6to4
      fc.array(group, { minLength: 5, maxLength: 5 }).map((rest) => ["64", "ff9b", "1", ...rest.map(hex)].join(":")), // 64:ff9b:1::/48
      fc.array(group, { minLength: 6, maxLength: 6 }).map((rest) => ["2001", "db8", ...rest.map(hex)].join(":")), // 2001:db8::/32
    ];
    for (const range of ranges)
      fc.assert(
        fc.property(range, (address) => !isPublicAddress(address)),
        { numRuns: 100 },
      );
  });

  it("public addresses are allowed: IPv4 outside every special range, IPv6 in 2000::/3 outside them", () => {
    const outsideV4 = fc
      .tuple(fc.integer({ min: 1, max: 223 }), octet, octet, octet)
      .filter(([a, b]) => ![0, 10, 127].includes(a) && !(a === 100 && b >= 64 && b <= 127) && !(a === 169 && b === 254))
      .filter(([a, b]) => !(a === 172 && b >= 16 && b <= 31) && !(a === 192 && [0, 88, 168].includes(b)))
      .filter(([a, b]) => !(a === 198 && [18, 19, 51].includes(b)) && !(a === 203 && b === 0));
    fc.assert(fc.property(outsideV4, ([a, b, c, d]) => isPublicAddress(v4(a, b, c, d))));
    const globalV6 = fc
      .tuple(fc.integer({ min: 0x2400, max: 0x2fff }), fc.array(group, { minLength: 7, maxLength: 7 }))
      .map(([g, rest]) => [g, ...rest].map(hex).join(":"));
    fc.assert(fc.property(globalV6, (address) => isPublicAddress(address)));
  });
});
