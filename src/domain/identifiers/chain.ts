import { keccak_256 } from '@noble/hashes/sha3.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import bs58 from 'bs58';
import { EVM_NETWORKS, NETWORKS, type Network } from '../money.js';
import { whenOneOf } from '../validation.js';

/**
 * Blockchain identifiers of the networks we settle on: wallet addresses and transaction hashes.
 * Pure: validation is arithmetic on the string; nothing is looked up on chain.
 */

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const EVM_TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const TRON_TX_HASH = /^[0-9a-fA-F]{64}$/;
/** Tron mainnet addresses are base58check of 0x41 ‖ 20-byte account ‖ 4-byte checksum (so they start with `T`). */
const TRON_VERSION_BYTE = 0x41;

const isEvm = (network: Network) => EVM_NETWORKS.includes(network);

/** EIP-55: a hex letter is upper case exactly when the matching nibble of keccak256(lowercase address) is ≥ 8. */
function toChecksumAddress(hex40: string): string {
  const lower = hex40.toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) {
    const char = lower[i]!;
    out += parseInt(hash[i]!, 16) >= 8 ? char.toUpperCase() : char;
  }
  return out;
}

function isValidEvmAddress(address: string): boolean {
  if (!EVM_ADDRESS.test(address)) return false;
  const body = address.slice(2);
  // All one case carries no checksum (EIP-55 keeps such addresses valid); mixed case must match it.
  if (body === body.toLowerCase() || body === body.toUpperCase()) return true;
  return toChecksumAddress(body) === address;
}

/** bs58 decoding that answers undefined instead of throwing on characters outside the alphabet. */
const decodeBase58 = (text: string): Uint8Array | undefined => (text === '' ? undefined : bs58.decodeUnsafe(text));

const doubleSha256Checksum = (payload: Uint8Array) => sha256(sha256(payload)).slice(0, 4);

function isValidTronAddress(address: string): boolean {
  const bytes = decodeBase58(address);
  if (bytes?.length !== 25 || bytes[0] !== TRON_VERSION_BYTE) return false;
  const expected = doubleSha256Checksum(bytes.slice(0, 21));
  return expected.every((byte, i) => byte === bytes[21 + i]);
}

/** BIP-32's version bytes of a serialized public node: `xpub` (mainnet) and `tpub` (testnets). A private node (`xprv`, `tprv`) has others. */
const PUBLIC_NODE_VERSIONS = [0x0488b21e, 0x043587cf];

/**
 * Whether `text` is a BIP-32 extended public key as written: base58check of 78 bytes whose version says public. The
 * curve point inside is checked where the key is used (rails/evm/hd.ts), when the chain adapter opens.
 */
export function isExtendedPublicKeyText(text: string): boolean {
  const bytes = decodeBase58(text);
  if (bytes?.length !== 82) return false;
  const expected = doubleSha256Checksum(bytes.slice(0, 78));
  if (!expected.every((byte, i) => byte === bytes[78 + i])) return false;
  const version = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0);
  return PUBLIC_NODE_VERSIONS.includes(version);
}

/** Solana addresses are ed25519 public keys (32 bytes) in base58; signatures (tx ids) are 64 bytes. */
const isBase58OfLength = (text: string, length: number) => decodeBase58(text)?.length === length;

export function isValidAddress(network: Network, address: string): boolean {
  if (isEvm(network)) return isValidEvmAddress(address);
  if (network === 'tron') return isValidTronAddress(address);
  if (network === 'solana') return isBase58OfLength(address, 32);
  return false;
}

export function isValidTransactionHash(network: Network, hash: string): boolean {
  if (isEvm(network)) return EVM_TX_HASH.test(hash);
  if (network === 'tron') return TRON_TX_HASH.test(hash);
  if (network === 'solana') return isBase58OfLength(hash, 64);
  return false;
}

/**
 * A transaction hash of some network, as the REST contract states it: `0x` and 64 hex digits (EVM), 64 hex digits (Tron), or
 * a base58 signature (Solana). Which of them a request must send is the transfer's network, stored with its quote, and a
 * Solana signature's length in bytes is nothing a pattern says: hence `x-ramp-checks`, with a valid example of each.
 */
export const TRANSACTION_HASH_SCHEMA = {
  pattern: '^(?:0x[0-9a-fA-F]{64}|[0-9a-fA-F]{64}|[1-9A-HJ-NP-Za-km-z]{64,88})$',
  examples: [
    '0x2c0dfb1e8a1f0b8f2a5e2e4ac5e9d7f21b1a4a3e6f1c0d9b8a7e6f5d4c3b2a19',
    '2c0dfb1e8a1f0b8f2a5e2e4ac5e9d7f21b1a4a3e6f1c0d9b8a7e6f5d4c3b2a19',
    '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW',
  ],
  'x-ramp-checks':
    "a transaction hash of the transfer's network: 0x and 64 hex digits on polygon, ethereum, base and arbitrum; 64 hex digits on tron; a base58 signature of 64 bytes on solana",
};

/**
 * The one stored form of a transaction hash, so that uniqueness checks compare like with like.
 * EVM (`0x` + 64 hex) and Tron (64 hex) hashes are hexadecimal numbers: `0xABC…` and `0xabc…` are
 * the same transaction, so they are kept in lower case. Solana signatures are base58, where case
 * is part of the value (`a` and `A` are different digits), so they are kept exactly as sent.
 * Takes a hash already valid for the network (see `isValidTransactionHash`).
 */
export function normalizeTransactionHash(network: Network, hash: string): string {
  if (isEvm(network) || network === 'tron') return hash.toLowerCase();
  return hash;
}

/** Domain-separated digest of a seed, so an address and a hash made from the same seed are unrelated. */
const digest = (kind: string, network: Network, seed: string) => sha512(utf8ToBytes(`ramp-sandbox:${kind}:${network}:${seed}`));

/** A deterministic, valid address for sandbox deposits and tests (EIP-55 checksummed on EVM chains). */
export function sandboxAddress(network: Network, seed: string): string {
  const bytes = digest('address', network, seed);
  if (isEvm(network)) return toChecksumAddress(bytesToHex(bytes.slice(0, 20)));
  if (network === 'tron') {
    const payload = concatBytes(Uint8Array.of(TRON_VERSION_BYTE), bytes.slice(0, 20));
    return bs58.encode(concatBytes(payload, doubleSha256Checksum(payload)));
  }
  return bs58.encode(bytes.slice(0, 32));
}

/** A deterministic, valid transaction hash for the sandbox's simulated transfers and for tests. */
export function sandboxTransactionHash(network: Network, seed: string): string {
  const bytes = digest('transaction', network, seed);
  if (isEvm(network)) return `0x${bytesToHex(bytes.slice(0, 32))}`;
  if (network === 'tron') return bytesToHex(bytes.slice(0, 32));
  return bs58.encode(bytes);
}

/**
 * An address of the network as JSON Schema, for the REST contract: EVM addresses in one case (which
 * carry no EIP-55 checksum); Tron's and Solana's base58 carry checksums or a key length no pattern
 * states, so their schema names valid examples (`x-ramp-checks`).
 */
export function addressSchemaOf(network: Network): Record<string, unknown> {
  if (isEvm(network)) return { pattern: '^0x(?:[0-9a-f]{40}|[0-9A-F]{40})$', examples: ['0x70997970c51812dc3a010c7d01b50e0d17dc79c8'] };
  const examples = network === 'tron' ? ['TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7'] : ['9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'];
  return { pattern: '^[1-9A-HJ-NP-Za-km-z]{32,44}$', examples, 'x-ramp-checks': `a ${network} address (base58 with its checksum or key length)` };
}

/** The address field holds an address of the network the network field names (as a client may spell it: `spellings`). */
export const addressOnNetworkSchema = (networkField: string, addressField: string, spellings = (network: string) => [network]) => ({
  allOf: NETWORKS.map((network) => whenOneOf(networkField, spellings(network), { properties: { [addressField]: addressSchemaOf(network) } })),
});
