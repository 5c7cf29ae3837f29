import { isIPv4, isIPv6 } from 'node:net';

/** An address or a CIDR range, as a key's allowlist or TRUST_PROXY names it. */
export interface AddressRange {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** `127.0.0.1`, `10.0.0.0/8`, `::1`, `2001:db8::/32`; null when it is none of these. */
export function parseAddressRange(text: string): AddressRange | null {
  const [address = '', prefixText, ...rest] = text.trim().split('/');
  if (rest.length) return null;
  const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : null;
  if (!family) return null;
  const bits = family === 'ipv4' ? 32 : 128;
  if (prefixText !== undefined && !/^[0-9]{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  return prefix <= bits ? { address: address.toLowerCase(), prefix, family } : null;
}

/** The canonical spelling kept and shown: the address, and its prefix when it is a range. */
export const rangeText = (range: AddressRange) => (range.prefix === (range.family === 'ipv4' ? 32 : 128) ? range.address : `${range.address}/${range.prefix}`);
