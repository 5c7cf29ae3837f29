import ipaddr from 'ipaddr.js';
import { type LookupAddress, type LookupAllOptions, type LookupOptions, lookup } from 'node:dns';
import { isIP } from 'node:net';
import type { Environment } from '../../domain/environment.js';
import { ValidationError, fieldError } from '../../domain/errors.js';

/**
 * Where a webhook may point. `public_https`: production keys, and every key when the deployment
 * runs in production: https only, and every address the host resolves to must be public
 * (no loopback, private, link-local, CGNAT, multicast, documentation or IPv6 translation ranges),
 * so an endpoint cannot make Ramp call into its own network. `loopback_or_public`: sandbox keys on a
 * development or test deployment: http is allowed and so is this machine (local receivers on
 * http://127.0.0.1), but still no private or link-local network (a cloud metadata address, say).
 */
export type DestinationPolicy = 'public_https' | 'loopback_or_public';

export const policyFor = (environment: Environment, productionDeployment: boolean): DestinationPolicy =>
  environment === 'production' || productionDeployment ? 'public_https' : 'loopback_or_public';

/** Only ipaddr.js's plain `unicast` range is public; every special-purpose range is refused. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

const isLoopback = (address: string) => ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';

/** Whether the policy lets Ramp connect to this address. */
export const isAllowedAddress = (address: string, policy: DestinationPolicy) =>
  isPublicAddress(address) || (policy === 'loopback_or_public' && isLoopback(address));

const invalid = (code: string, detail: string) => new ValidationError([fieldError('/url', code, detail)]);

/** Parses a webhook URL and applies the scheme rules of the policy (the addresses are checked separately). */
export function parseWebhookUrl(raw: string, policy: DestinationPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('invalid_url', 'must be an absolute http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid('invalid_url', 'must be an absolute http(s) URL');
  if (policy === 'public_https' && url.protocol !== 'https:') throw invalid('url_not_https', 'must use https with a production key');
  if (url.username || url.password) throw invalid('invalid_url', 'must not carry credentials; authenticate deliveries by their signature');
  if (url.hash) throw invalid('invalid_url', 'must not have a #fragment');
  return url;
}

/** The bare host of a URL: IPv6 literals lose their brackets. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Resolves the host and refuses it unless the policy allows every address. Returns why it is refused, or null. */
export async function refusedDestination(url: URL, policy: DestinationPolicy): Promise<string | null> {
  const host = hostOf(url);
  if (isIP(host)) return isAllowedAddress(host, policy) ? null : `${host} is not a public address`;
  const addresses = await new Promise<LookupAddress[] | Error>((resolve) => lookup(host, { all: true }, (error, found) => resolve(error ?? found)));
  if (addresses instanceof Error) return `${host} does not resolve`;
  const refused = addresses.find((a) => !isAllowedAddress(a.address, policy));
  if (addresses.length === 0 || refused) return `${host} resolves to a non-public address${refused ? ` (${refused.address})` : ''}`;
  return null;
}

/** Registration-time check: the URL's rules and its resolved addresses. */
export async function checkWebhookUrl(raw: string, policy: DestinationPolicy): Promise<URL> {
  const url = parseWebhookUrl(raw, policy);
  const refused = await refusedDestination(url, policy);
  if (refused) throw invalid('url_not_public', `must point to a public internet address: ${refused}`);
  return url;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node:http that refuses what the policy forbids at connect time, so a host that
 * re-resolves to a private address after registration (DNS rebinding) is still not called.
 */
export const lookupFor =
  (policy: DestinationPolicy) =>
  (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    lookup(hostname, { ...options, all: true } as LookupAllOptions, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = addresses.find((a) => !isAllowedAddress(a.address, policy));
      if (addresses.length === 0 || refused) {
        const denied = Object.assign(new Error(`${hostname} resolves to a non-public address`), { code: 'EDESTINATIONREFUSED' });
        return callback(denied, []);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
