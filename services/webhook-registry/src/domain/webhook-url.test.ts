import { describe, expect, it } from "vitest";
import { webhookUrlProblem } from "./webhook-url";

type Row = readonly [url: string, mode: "test" | "live", allowPrivate: boolean, problem: string | undefined];

const PRIVATE = "private, loopback";

const rows: Row[] = [
  // scheme and shape, any mode
  ["https://hooks.example.com/cardhold", "live", false, undefined],
  ["http://hooks.example.com", "live", false, undefined],
  ["ftp://hooks.example.com", "test", false, "http or https"],
  ["javascript:alert(1)", "test", false, "http or https"],
  ["file:///etc/passwd", "live", true, "http or https"],
  ["not a url", "test", false, "absolute http or https URL"],
  ["/relative/path", "test", false, "absolute http or https URL"],
  ["https://user:pw@hooks.example.com", "test", false, "credentials"],
  // test mode may target anything http(s)
  ["http://localhost:4000/hook", "test", false, undefined],
  ["http://127.0.0.1:4000/hook", "test", false, undefined],
  ["http://10.0.0.5/hook", "test", false, undefined],
  ["http://[::1]:4000/hook", "test", false, undefined],
  // live mode: loopback
  ["http://localhost:4000/hook", "live", false, PRIVATE],
  ["http://LOCALHOST./hook", "live", false, PRIVATE],
  ["http://api.localhost/hook", "live", false, PRIVATE],
  ["http://127.0.0.1/hook", "live", false, PRIVATE],
  ["http://127.255.255.254/hook", "live", false, PRIVATE],
  ["http://2130706433/hook", "live", false, PRIVATE], // 127.0.0.1 as one number
  ["http://0x7f.1/hook", "live", false, PRIVATE], // 127.0.0.1 in hex shorthand
  ["http://[::1]/hook", "live", false, PRIVATE],
  // live mode: private
  ["http://10.1.2.3/hook", "live", false, PRIVATE],
  ["http://172.16.0.1/hook", "live", false, PRIVATE],
  ["http://172.31.255.255/hook", "live", false, PRIVATE],
  ["http://172.15.0.1/hook", "live", false, undefined],
  ["http://172.32.0.1/hook", "live", false, undefined],
  ["http://192.168.1.1/hook", "live", false, PRIVATE],
  ["http://192.169.1.1/hook", "live", false, undefined],
  ["http://100.64.0.1/hook", "live", false, PRIVATE], // carrier-grade NAT
  ["http://[fc00::1]/hook", "live", false, PRIVATE],
  ["http://[fd12:3456::1]/hook", "live", false, PRIVATE],
  ["http://[fc::1]/hook", "live", false, PRIVATE], // 00fc::1: outside fc00::/7, but not global unicast (2000::/3)
  ["http://[fe00::1]/hook", "live", false, PRIVATE],
  // live mode: link-local
  ["http://169.254.169.254/latest/meta-data", "live", false, PRIVATE],
  ["http://[fe80::1]/hook", "live", false, PRIVATE],
  ["http://[febf::1]/hook", "live", false, PRIVATE],
  ["http://[fec0::1]/hook", "live", false, PRIVATE], // site-local (deprecated)
  // live mode: unspecified
  ["http://0.0.0.0/hook", "live", false, PRIVATE],
  ["http://[::]/hook", "live", false, PRIVATE],
  // IPv4 inside IPv6
  ["http://[::ffff:127.0.0.1]/hook", "live", false, PRIVATE],
  ["http://[::ffff:10.0.0.1]/hook", "live", false, PRIVATE],
  ["http://[::ffff:8.8.8.8]/hook", "live", false, undefined],
  ["http://[64:ff9b::a9fe:a9fe]/hook", "live", false, PRIVATE], // NAT64 of 169.254.169.254
  ["http://[::ffff:0:7f00:1]/hook", "live", false, PRIVATE], // IPv4-translated 127.0.0.1
  ["http://[::ffff:0:808:808]/hook", "live", false, undefined], // IPv4-translated 8.8.8.8
  ["http://[64:ff9b::808:808]/hook", "live", false, undefined], // NAT64 of 8.8.8.8
  ["http://[64:ff9b:1::7f00:1]/hook", "live", false, PRIVATE], // local-use NAT64: the whole /48
  ["http://[64:ff9b:1::808:808]/hook", "live", false, PRIVATE],
  // live mode: every other special-purpose range
  ["http://198.18.0.1/hook", "live", false, PRIVATE], // benchmarking
  ["http://198.19.255.255/hook", "live", false, PRIVATE],
  ["http://224.0.0.1/hook", "live", false, PRIVATE], // multicast
  ["http://255.255.255.255/hook", "live", false, PRIVATE], // broadcast
  ["http://192.0.0.1/hook", "live", false, PRIVATE], // IETF protocol assignments
  ["http://240.0.0.1/hook", "live", false, PRIVATE], // reserved
  ["http://192.0.2.1/hook", "live", false, PRIVATE], // documentation
  ["http://198.51.100.1/hook", "live", false, PRIVATE],
  ["http://203.0.113.1/hook", "live", false, PRIVATE],
  ["http://192.88.99.1/hook", "live", false, PRIVATE], // 6to4 relay
  ["http://[2001:db8::1]/hook", "live", false, PRIVATE], // documentation
  ["http://[3fff::1]/hook", "live", false, PRIVATE],
  ["http://[100::1]/hook", "live", false, PRIVATE], // discard-only
  ["http://[2001::1]/hook", "live", false, PRIVATE], // Teredo
  ["http://[2002:7f00:1::1]/hook", "live", false, PRIVATE], // 6to4
  ["http://[ff02::1]/hook", "live", false, PRIVATE], // multicast
  ["http://[::7f00:1]/hook", "live", false, PRIVATE], // IPv4-compatible
  // public addresses
  ["http://8.8.8.8/hook", "live", false, undefined],
  ["http://1.1.1.1/hook", "live", false, undefined],
  ["http://[2606:4700::1111]/hook", "live", false, undefined],
  ["http://hooks.example.com:14001/p", "live", false, undefined], // names are checked at send time
  // the operator setting lets live mode target internal hosts
  ["http://10.1.2.3/hook", "live", true, undefined],
  ["http://localhost:4000/hook", "live", true, undefined],
  ["http://[fe80::1]/hook", "live", true, undefined],
  ["http://198.18.0.1/hook", "live", true, undefined],
  ["http://[2001:db8::1]/hook", "live", true, undefined],
  // test mode keeps every target
  ["http://198.18.0.1/hook", "test", false, undefined],
  ["http://[64:ff9b:1::7f00:1]/hook", "test", false, undefined],
];

describe("webhook URLs", () => {
  it.each(rows)("%s in %s mode (allow private: %s) → %s", (url, mode, allow, problem) => {
    const result = webhookUrlProblem(url, mode, allow);
    if (problem === undefined) expect(result).toBeUndefined();
    else expect(result).toContain(problem);
  });
});
