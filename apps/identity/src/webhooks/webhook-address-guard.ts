import { BlockList, isIP } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';

/**
 * Where a webhook may not be delivered in production: loopback, private, link-local (and the cloud metadata address
 * in it), carrier-grade NAT, benchmarking, multicast, reserved and unspecified ranges, in IPv4 and IPv6 (an
 * IPv4-mapped IPv6 address is checked as the IPv4 address it maps).
 */
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

/** Whether a webhook may be delivered to this IP address in production (a public unicast address). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) {
    return false;
  }
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped !== null) {
      return isPublicAddress(mapped[1]);
    }
    return !BLOCKED.check(address, 'ipv6');
  }
  return !BLOCKED.check(address, 'ipv4');
}

/** Resolves a host name to every address it has (`dns.lookup` with `all`; tests give answers of their own). */
export type HostResolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: HostResolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** A refusal to connect: the endpoint resolved to an address webhooks may not reach. */
export class BlockedAddressError extends Error {
  constructor(readonly hostname: string, readonly address: string) {
    super(`${hostname} resolves to ${address}, a loopback, private, link-local or reserved address`);
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request` that resolves with `resolve` and refuses the connection when any answer is not a
 * public address (checked on the answers the socket then connects to, so a name that changes its answer between a
 * check and the connection, DNS rebinding, cannot slip through). With `allowPrivate`, every answer is taken.
 */
export function guardedLookup(resolve: HostResolver, allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    resolve(hostname).then(
      (answers) => {
        const wanted = answers.filter((answer) => options.family === undefined || options.family === 0 || options.family === answer.family || options.family === `IPv${answer.family}`);
        if (wanted.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
          return;
        }
        const blocked = allowPrivate ? undefined : wanted.find((answer) => !isPublicAddress(answer.address));
        if (blocked !== undefined) {
          callback(new BlockedAddressError(hostname, blocked.address), '', 0);
          return;
        }
        if (options.all === true) {
          callback(null, wanted);
        } else {
          callback(null, wanted[0].address, wanted[0].family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
