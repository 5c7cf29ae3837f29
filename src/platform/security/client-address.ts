import proxyAddr from '@fastify/proxy-addr';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { parseAddressRange } from '../../domain/identifiers/address-range.js';

/**
 * Whether every address of `inner` is inside one of the `outer` ranges: a range of the same family whose prefix is no
 * longer than inner's and which holds inner's address (inner's other addresses share the bits that range compares).
 */
export function rangeWithin(inner: string, outer: readonly string[]): boolean {
  const range = parseAddressRange(inner);
  if (!range) return false;
  return outer.some((text) => {
    const candidate = parseAddressRange(text);
    if (!candidate || candidate.family !== range.family || candidate.prefix > range.prefix) return false;
    const list = new BlockList();
    list.addSubnet(candidate.address, candidate.prefix, candidate.family);
    return list.check(range.address, range.family);
  });
}

/** `::ffff:127.0.0.1` (an IPv4 client of a dual-stack socket) is 127.0.0.1. */
const unmapped = (address: string) => (/^::ffff:[0-9.]+$/i.test(address) ? address.slice(7) : address);

/**
 * Whether an address is inside one of these ranges (IPv4 and IPv6). Built once per key (the verified
 * key keeps it), so each request costs one lookup in Node's BlockList, not a parse.
 */
export function addressAllowlist(ranges: readonly string[]): (address: string | undefined) => boolean {
  const list = new BlockList();
  for (const text of ranges) {
    const range = parseAddressRange(text);
    if (range) list.addSubnet(range.address, range.prefix, range.family);
  }
  return (address) => {
    if (!address) return false;
    const client = unmapped(address);
    const family = isIPv4(client) ? 'ipv4' : isIPv6(client) ? 'ipv6' : null;
    return family !== null && list.check(client, family);
  };
}

/**
 * Who sent a request. `X-Forwarded-For` is believed only from the proxies TRUST_PROXY names: each hop
 * is read right to left while the address it came from is a trusted proxy, so a client cannot name
 * itself by sending the header. Fastify's `trustProxy` takes the same function, so `request.ip` and
 * the address of a graphql-ws upgrade request agree.
 */
export interface ClientAddresses {
  /** For Fastify's `trustProxy` option: false when no proxy is trusted. */
  trustProxy: false | ((address: string, hop: number) => boolean);
  /** The client's address of a raw request (the graphql-ws upgrade request). */
  of(request: IncomingMessage): string | undefined;
}

export function clientAddresses(trustedProxies: readonly string[]): ClientAddresses {
  if (!trustedProxies.length) return { trustProxy: false, of: (request) => request.socket.remoteAddress };
  const trusted = proxyAddr.compile([...trustedProxies]);
  return { trustProxy: trusted, of: (request) => proxyAddr(request, trusted) };
}
