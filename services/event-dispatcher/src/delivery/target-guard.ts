import { promises as dns, type LookupAddress, type LookupOptions } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { Agent, buildConnector } from "undici";
import { isPublicAddress, specialRangeOf } from "@cardhold/platform";

/**
 * Connections that reach only allowed addresses (SSRF protection for live-mode deliveries). The check runs when a
 * connection is opened, on the very address the socket connects to: an IP literal as written, a name through a
 * lookup that resolves it once, refuses it if any answer is not allowed, and hands the checked answers to the socket.
 * There is no second resolution to rebind, and kept-alive connections are reused without resolving again.
 */

/** A refused target: the message is what the delivery attempt records. */
export class TargetNotAllowed extends Error {
  readonly code = "ERR_TARGET_NOT_ALLOWED";

  constructor(readonly address: string) {
    const range = specialRangeOf(address);
    super(`target address ${address} is not allowed in live mode${range ? ` (${range})` : ""}`);
    this.name = "TargetNotAllowed";
  }
}

/** Every address of a host name, as `dns.lookup` with `all: true` gives them. */
export type Resolve = (hostname: string, options: LookupOptions) => Promise<LookupAddress[]>;

/** The operating system's resolver (getaddrinfo: /etc/hosts, then DNS), as undici and `net` use by default. */
export const systemResolve: Resolve = (hostname, options) => dns.lookup(hostname, { ...options, all: true });

export interface GuardOptions {
  resolve?: Resolve;
  /** Which addresses may be connected to; public addresses only by default. */
  isAllowed?: (address: string) => boolean;
}

/**
 * A `lookup` for `net.connect`: resolves once, fails with TargetNotAllowed if any address is not allowed (a name
 * that answers with both a public and an internal address is refused, not tried in turns), else answers in the shape
 * asked for (`all` for Happy Eyeballs, else the first address).
 */
export function checkedLookup({
  resolve = systemResolve,
  isAllowed = isPublicAddress,
}: GuardOptions = {}): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, options).then(
      (addresses) => {
        const refused = addresses.find(({ address }) => !isAllowed(address));
        if (refused) return callback(new TargetNotAllowed(refused.address), "");
        const first = addresses[0];
        if (!first)
          return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), "");
        if (options.all) return callback(null, addresses);
        return callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ""),
    );
  };
}

/**
 * An undici connector that checks IP literals itself (`net.connect` does not look them up) and gives every name to
 * the checked lookup; TLS still verifies the certificate against the name, as the name stays the host.
 */
export function guardedConnector(options: GuardOptions = {}): buildConnector.connector {
  const isAllowed = options.isAllowed ?? isPublicAddress;
  const connect = buildConnector({ lookup: checkedLookup(options) });
  return (target, callback) => {
    if (isIP(target.hostname) && !isAllowed(target.hostname))
      return callback(new TargetNotAllowed(target.hostname), null);
    return connect(target, callback);
  };
}

/** An undici Agent whose every new connection goes through the guarded connector. */
export function createGuardedAgent(options: GuardOptions = {}, agentOptions: Agent.Options = {}): Agent {
  return new Agent({ ...agentOptions, connect: guardedConnector(options) });
}
