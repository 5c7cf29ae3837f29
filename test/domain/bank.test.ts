import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  abaCheckDigit,
  bicCountry,
  ibanMatchesBicCountry,
  ibanProblem,
  isValidAbaRouting,
  isValidBic,
  isValidIban,
  isValidInternationalAccountNumber,
  isValidUsAccountNumber,
  isSepaIban,
  maskAccountNumber,
  normalizeIban,
  SANDBOX_IBAN_COUNTRIES,
  sandboxAbaRouting,
  sandboxBic,
  sandboxIban,
  sandboxUsAccountNumber,
} from '../../src/domain/identifiers/bank.js';

const seed = fc.string();
const ibanCountry = fc.constantFrom(...SANDBOX_IBAN_COUNTRIES);
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const alphanumeric = fc.constantFrom(...ALPHANUMERIC);
const digit = fc.constantFrom(...'0123456789');

/** Replaces the character at `index` (wrapped into range) with `char`; undefined when nothing changes. */
function substitute(text: string, index: number, char: string): string | undefined {
  const i = index % text.length;
  if (text[i] === char) return undefined;
  return text.slice(0, i) + char + text.slice(i + 1);
}

describe('IBAN', () => {
  it('accepts the registry examples and refuses wrong checksum, length and country', () => {
    expect(isValidIban('DE89370400440532013000')).toBe(true);
    expect(isValidIban('GB29NWBK60161331926819')).toBe(true);
    expect(ibanProblem('DE88370400440532013000')).toBe('checksum');
    expect(ibanProblem('DE8937040044053201300')).toBe('length');
    expect(ibanProblem('XX89370400440532013000')).toBe('country');
    expect(ibanProblem('de89370400440532013000')).toBe('format');
    expect(isValidIban(normalizeIban('de89 3704 0044 0532 0130 00'))).toBe(true);
  });

  it('validates every IBAN the sandbox generates, deterministically, with the right country and length', () => {
    fc.assert(
      fc.property(ibanCountry, seed, (country, s) => {
        const iban = sandboxIban(country, s);
        expect(iban.slice(0, 2)).toBe(country);
        expect(isValidIban(iban)).toBe(true);
        expect(sandboxIban(country, s)).toBe(iban);
      }),
    );
  });

  it('refuses every single-character substitution of a valid IBAN (mod-97 detects them all)', () => {
    fc.assert(
      fc.property(ibanCountry, seed, fc.nat(), alphanumeric, (country, s, index, char) => {
        const corrupted = substitute(sandboxIban(country, s), index, char);
        fc.pre(corrupted !== undefined);
        expect(isValidIban(corrupted!)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('BIC', () => {
  it('accepts 8 and 11 characters with a known country, nothing else', () => {
    expect(isValidBic('DEUTDEFF')).toBe(true);
    expect(isValidBic('DEUTDEFF500')).toBe(true);
    for (const bad of ['DEUTDEF', 'DEUTDEFF5', 'DEUTDEFF50', 'DEU1DEFF', 'DEUTXXFF', 'deutdeff', 'DEUT DEFF']) expect(isValidBic(bad)).toBe(false);
  });

  it('validates every BIC the sandbox generates, with and without a branch', () => {
    fc.assert(
      fc.property(fc.constantFrom('DE', 'US', 'AE', 'GB', 'NL'), seed, fc.boolean(), (country, s, branch) => {
        const bic = sandboxBic(country, s, { branch });
        expect(bic).toHaveLength(branch ? 11 : 8);
        expect(bicCountry(bic)).toBe(country);
        expect(isValidBic(bic)).toBe(true);
      }),
    );
  });
});

describe('IBAN and BIC together', () => {
  it('match when both name the same country', () => {
    expect(ibanMatchesBicCountry('DE89370400440532013000', 'DEUTDEFFXXX')).toBe(true);
    expect(ibanMatchesBicCountry('DE89370400440532013000', 'INGBNL2A')).toBe(false);
    expect(ibanMatchesBicCountry('AE070331234567890123456', 'EBILAEADXXX')).toBe(true);
    expect(ibanMatchesBicCountry('AE070331234567890123456', 'NWBKGB2L')).toBe(false);
  });

  it('match for territories that bank on another country’s IBANs, and only for those', () => {
    expect(ibanMatchesBicCountry('GB29NWBK60161331926819', 'BARCJESH')).toBe(true);
    expect(ibanMatchesBicCountry('GB29NWBK60161331926819', 'ABCDIMD1')).toBe(true);
    expect(ibanMatchesBicCountry('FR1420041010050500013M02606', 'BDAFGPGP')).toBe(true);
    expect(ibanMatchesBicCountry('FR1420041010050500013M02606', 'BARCJESH')).toBe(false);
    expect(ibanMatchesBicCountry('DE89370400440532013000', 'BARCJESH')).toBe(false);
  });

  it('match every sandbox IBAN with a sandbox BIC of its country', () => {
    fc.assert(fc.property(ibanCountry, seed, (country, s) => ibanMatchesBicCountry(sandboxIban(country, s), sandboxBic(country, s))));
  });
});

describe('isSepaIban', () => {
  it('accepts IBANs of SEPA countries, in and outside the EU, and refuses the others', () => {
    for (const iban of ['DE89370400440532013000', 'GB29NWBK60161331926819', 'CH9300762011623852957', 'NL91ABNA0417164300']) expect(isSepaIban(iban)).toBe(true);
    for (const iban of ['AE070331234567890123456', 'XK051212012345678906']) expect(isSepaIban(iban)).toBe(false);
  });
});

describe('ABA routing number', () => {
  it('accepts real routing numbers and refuses unknown prefixes and bad checksums', () => {
    for (const good of ['021000021', '011000015', '121000248', '322271627']) expect(isValidAbaRouting(good)).toBe(true);
    for (const bad of ['021000022', '000000000', '131000025', '02100002', '0210000210', '02100002A']) expect(isValidAbaRouting(bad)).toBe(false);
    expect(abaCheckDigit('02100002')).toBe('1');
  });

  it('validates every routing number the sandbox generates', () => {
    fc.assert(fc.property(seed, (s) => isValidAbaRouting(sandboxAbaRouting(s))));
  });

  it('refuses every single-digit substitution (3-7-1 weights are coprime to 10)', () => {
    fc.assert(
      fc.property(seed, fc.nat(), digit, (s, index, char) => {
        const corrupted = substitute(sandboxAbaRouting(s), index, char);
        fc.pre(corrupted !== undefined);
        expect(isValidAbaRouting(corrupted!)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses any non-digit in place of a digit', () => {
    fc.assert(
      fc.property(seed, fc.nat(), fc.constantFrom(...'ABCXYZ -'), (s, index, char) => {
        expect(isValidAbaRouting(substitute(sandboxAbaRouting(s), index, char)!)).toBe(false);
      }),
    );
  });
});

describe('account numbers', () => {
  it('accepts US account numbers of 4 to 17 digits only', () => {
    expect(isValidUsAccountNumber('1234')).toBe(true);
    expect(isValidUsAccountNumber('12345678901234567')).toBe(true);
    for (const bad of ['123', '123456789012345678', '12345A', '']) expect(isValidUsAccountNumber(bad)).toBe(false);
    fc.assert(fc.property(seed, (s) => isValidUsAccountNumber(sandboxUsAccountNumber(s))));
  });

  it('accepts international account numbers of 4 to 34 letters and digits, and checks the ones shaped like an IBAN', () => {
    expect(isValidInternationalAccountNumber('000123456789')).toBe(true);
    expect(isValidInternationalAccountNumber('ABC1234567')).toBe(true);
    expect(isValidInternationalAccountNumber('DE89370400440532013000')).toBe(true);
    expect(isValidInternationalAccountNumber('DE88370400440532013000')).toBe(false);
    for (const bad of ['123', 'A'.repeat(35), '1234-5678']) expect(isValidInternationalAccountNumber(bad)).toBe(false);
  });
});

describe('maskAccountNumber', () => {
  it('shows only the last four characters', () => {
    expect(maskAccountNumber('123456789')).toBe('…6789');
    expect(maskAccountNumber('DE89370400440532013000')).toBe('…3000');
  });

  it('never shows more than half of a short number', () => {
    expect(maskAccountNumber('1234')).toBe('…34');
    expect(maskAccountNumber('123456')).toBe('…456');
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40 }), (value) => {
        const shown = maskAccountNumber(value).slice(1);
        return shown.length <= Math.min(4, value.length / 2) && value.endsWith(shown);
      }),
    );
  });
});
