import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isValidAddress,
  isValidTransactionHash,
  normalizeTransactionHash,
  sandboxAddress,
  sandboxTransactionHash,
} from '../../src/domain/identifiers/chain.js';
import { EVM_NETWORKS, NETWORKS, type Network } from '../../src/domain/money.js';

const network = fc.constantFrom(...NETWORKS);
const evmNetwork = fc.constantFrom(...EVM_NETWORKS);
const seed = fc.string();
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const HEX = '0123456789abcdefABCDEF';

/** Replaces the character at `index` (wrapped into range) with `char`; undefined when nothing changes. */
function corrupt(text: string, index: number, char: string): string | undefined {
  const i = index % text.length;
  if (text[i] === char) return undefined;
  return text.slice(0, i) + char + text.slice(i + 1);
}

describe('sandbox identifiers', () => {
  it('generates an address that validates for its network, for every seed', () => {
    fc.assert(fc.property(network, seed, (net, s) => isValidAddress(net, sandboxAddress(net, s))));
  });

  it('generates a transaction hash that validates for its network, for every seed', () => {
    fc.assert(fc.property(network, seed, (net, s) => isValidTransactionHash(net, sandboxTransactionHash(net, s))));
  });

  it('is deterministic: the same seed gives the same address and hash', () => {
    fc.assert(
      fc.property(network, seed, (net, s) => {
        expect(sandboxAddress(net, s)).toBe(sandboxAddress(net, s));
        expect(sandboxTransactionHash(net, s)).toBe(sandboxTransactionHash(net, s));
      }),
    );
  });

  it('checksums EVM addresses (EIP-55 mixed case) and starts Tron addresses with T', () => {
    fc.assert(
      fc.property(evmNetwork, seed, (net, s) => {
        const address = sandboxAddress(net, s);
        expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
      }),
    );
    fc.assert(fc.property(seed, (s) => sandboxAddress('tron', s).startsWith('T')));
    expect(sandboxAddress('ethereum', 'ramp')).not.toBe(sandboxAddress('ethereum', 'ramp').toLowerCase());
  });

  it('gives different seeds different addresses', () => {
    fc.assert(
      fc.property(network, seed, seed, (net, a, b) => {
        fc.pre(a !== b);
        return sandboxAddress(net, a) !== sandboxAddress(net, b);
      }),
    );
  });
});

describe('EVM addresses (EIP-55)', () => {
  // The examples published in EIP-55 itself.
  it.each([
    '0x52908400098527886E0F7030069857D2E4169EE7',
    '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
    '0xde709f2102306220921060314715629080e2fb77',
    '0x27b1fdb04752bbc536007a920d24acb045561c26',
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ])('accepts the EIP-55 example %s on every EVM network', (address) => {
    for (const net of EVM_NETWORKS) expect(isValidAddress(net, address)).toBe(true);
  });

  it.each([
    ['a wrong checksum (one letter case flipped)', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD'],
    ['a missing 0x prefix', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    ['39 hex digits', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe'],
    ['41 hex digits', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed0'],
    ['a non-hex character', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg'],
    ['an uppercase 0X prefix', '0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
  ])('refuses %s', (_why, address) => {
    expect(isValidAddress('ethereum', address)).toBe(false);
  });

  it('refuses any letter of a checksummed address whose case is flipped (the keccak hash is unchanged, so the checksum must disagree)', () => {
    fc.assert(
      fc.property(evmNetwork, seed, fc.nat(), (net, s, index) => {
        const address = sandboxAddress(net, s);
        const letters = [...address.slice(2)].flatMap((c, i) => (/[a-fA-F]/.test(c) ? [i + 2] : []));
        fc.pre(letters.length > 0);
        const i = letters[index % letters.length]!;
        const c = address[i]!;
        const flipped = address.slice(0, i) + (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) + address.slice(i + 1);
        const body = flipped.slice(2);
        // An all-one-case result is a legitimately non-checksummed address (EIP-55 keeps those valid).
        fc.pre(body !== body.toLowerCase() && body !== body.toUpperCase());
        return !isValidAddress(net, flipped);
      }),
    );
  });

  it('refuses single-character substitutions of a checksummed address', () => {
    // A substituted hex digit changes keccak256 of the address, so the case pattern no longer matches
    // (EIP-55 puts the chance of a false accept at about 0.02%); the seed keeps this run reproducible.
    fc.assert(
      fc.property(evmNetwork, seed, fc.nat(), fc.constantFrom(...HEX, 'g', 'x', ' '), (net, s, index, char) => {
        const address = sandboxAddress(net, s);
        const corrupted = corrupt(address.slice(2), index, char);
        fc.pre(corrupted !== undefined && corrupted.toLowerCase() !== address.slice(2).toLowerCase());
        fc.pre(corrupted !== corrupted.toLowerCase() && corrupted !== corrupted.toUpperCase());
        return !isValidAddress(net, `0x${corrupted}`);
      }),
      { seed: 20261122, numRuns: 500 },
    );
  });

  it('refuses non-EVM addresses on EVM networks', () => {
    expect(isValidAddress('polygon', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7')).toBe(false);
    expect(isValidAddress('base', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')).toBe(false);
  });
});

describe('Tron addresses (base58check, version 0x41)', () => {
  it.each(['TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'])('accepts the mainnet address %s', (address) => {
    expect(isValidAddress('tron', address)).toBe(true);
  });

  it.each([
    ['a broken checksum', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU8'],
    ['a character outside base58 (0)', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU0'],
    ['a truncated address', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU'],
    ['an EVM address', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    ['a Bitcoin base58check address (version byte 0x00)', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
    ['the empty string', ''],
  ])('refuses %s', (_why, address) => {
    expect(isValidAddress('tron', address)).toBe(false);
  });

  it('refuses every single-character corruption of a valid address', () => {
    fc.assert(
      fc.property(seed, fc.nat(), fc.constantFrom(...BASE58, '0', 'O', 'I', 'l'), (s, index, char) => {
        const corrupted = corrupt(sandboxAddress('tron', s), index, char);
        fc.pre(corrupted !== undefined);
        return !isValidAddress('tron', corrupted);
      }),
    );
  });
});

describe('Solana addresses (base58 of a 32-byte public key)', () => {
  it.each([
    'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', // USDC mint
    'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', // SPL token program
    '11111111111111111111111111111111', // system program: 32 zero bytes
  ])('accepts %s', (address) => {
    expect(isValidAddress('solana', address)).toBe(true);
  });

  it.each([
    ['a character outside base58 (0)', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt10'],
    ['too short (31 bytes)', '1111111111111111111111111111111'],
    ['an EVM address', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    ['a 64-byte signature', sandboxTransactionHash('solana', 'x')],
    ['the empty string', ''],
  ])('refuses %s', (_why, address) => {
    expect(isValidAddress('solana', address)).toBe(false);
  });
});

describe('transaction hashes', () => {
  const evmHash = '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060';
  const tronHash = '5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060';

  it.each(EVM_NETWORKS.map((net) => [net] as [Network]))('accepts 0x + 64 hex on %s and refuses other lengths or no prefix', (net) => {
    expect(isValidTransactionHash(net, evmHash)).toBe(true);
    expect(isValidTransactionHash(net, evmHash.slice(0, -1))).toBe(false);
    expect(isValidTransactionHash(net, tronHash)).toBe(false);
    expect(isValidTransactionHash(net, evmHash.replace('5c', 'zz'))).toBe(false);
  });

  it('accepts 64 hex without 0x on tron and refuses the 0x form', () => {
    expect(isValidTransactionHash('tron', tronHash)).toBe(true);
    expect(isValidTransactionHash('tron', evmHash)).toBe(false);
    expect(isValidTransactionHash('tron', `${tronHash}0`)).toBe(false);
  });

  it('accepts a base58 64-byte signature on solana and refuses a 32-byte value or hex', () => {
    expect(isValidTransactionHash('solana', sandboxTransactionHash('solana', 'deposit-1'))).toBe(true);
    expect(isValidTransactionHash('solana', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')).toBe(false);
    expect(isValidTransactionHash('solana', tronHash)).toBe(false);
  });
});

describe('normalizeTransactionHash', () => {
  const hex64 = fc.stringMatching(/^[0-9a-fA-F]{64}$/);

  it.each(EVM_NETWORKS.map((net) => [net] as [Network]))('lower-cases %s hashes: every letter case of one hash is one hash', (net) => {
    fc.assert(
      fc.property(hex64, (body) => {
        const normal = normalizeTransactionHash(net, `0x${body}`);
        expect(normal).toBe(`0x${body.toLowerCase()}`);
        expect(normalizeTransactionHash(net, `0x${body.toUpperCase()}`)).toBe(normal);
        expect(isValidTransactionHash(net, normal)).toBe(true);
      }),
    );
  });

  it('lower-cases tron hashes', () => {
    fc.assert(
      fc.property(hex64, (body) => {
        expect(normalizeTransactionHash('tron', body.toUpperCase())).toBe(body.toLowerCase());
        expect(normalizeTransactionHash('tron', body)).toBe(normalizeTransactionHash('tron', body.toLowerCase()));
      }),
    );
  });

  it('keeps solana signatures as they are: in base58 a letter’s case is part of its value', () => {
    fc.assert(
      fc.property(seed, (s) => {
        const signature = sandboxTransactionHash('solana', s);
        expect(normalizeTransactionHash('solana', signature)).toBe(signature);
      }),
    );
  });

  it('leaves the sandbox’s own hashes unchanged (they are generated in normal form)', () => {
    fc.assert(fc.property(network, seed, (net, s) => normalizeTransactionHash(net, sandboxTransactionHash(net, s)) === sandboxTransactionHash(net, s)));
  });
});
