import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { composeIBAN, getCountrySpecifications, isSEPACountry, isValidBIC as ibantoolsIsValidBic, validateIBAN, ValidationErrorsIBAN } from 'ibantools';

/**
 * Bank identifiers: IBAN, BIC, ABA routing numbers and account numbers. Pure: validation is
 * arithmetic on the string (ibantools for the IBAN registry and mod-97); nothing is looked up.
 * Validators take the normalised form (see the `normalize…` functions): upper case, no spaces.
 */

/** Electronic form of an IBAN: what partners paste in print form ("DE89 3704 …") becomes "DE8937…". */
export const normalizeIban = (value: string) => value.replace(/\s+/g, '').toUpperCase();
export const normalizeBic = (value: string) => value.replace(/\s+/g, '').toUpperCase();
/** Account numbers are sent with spaces or dashes in print; the rails carry them without. */
export const normalizeAccountNumber = (value: string) => value.replace(/[\s-]+/g, '').toUpperCase();

export type IbanProblem = 'country' | 'length' | 'format' | 'checksum';

/** Why an IBAN is not valid (unknown country, wrong length for it, bad format, failed mod-97 or national check), or null. */
export function ibanProblem(iban: string): IbanProblem | null {
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$/.test(iban)) return 'format';
  const { valid, errorCodes } = validateIBAN(iban, { allowQRIBAN: true });
  if (valid) return null;
  if (errorCodes.includes(ValidationErrorsIBAN.NoIBANCountry)) return 'country';
  if (errorCodes.includes(ValidationErrorsIBAN.WrongBBANLength)) return 'length';
  if (errorCodes.includes(ValidationErrorsIBAN.WrongBBANFormat)) return 'format';
  return 'checksum';
}

export const isValidIban = (iban: string) => ibanProblem(iban) === null;

/** BIC (ISO 9362): 4-letter institution, ISO country, 2-character location, optional 3-character branch. */
export const isValidBic = (bic: string) => /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic) && ibantoolsIsValidBic(bic);

export const bicCountry = (bic: string) => bic.slice(4, 6);
export const ibanCountry = (iban: string) => iban.slice(0, 2);

/**
 * Territories whose banks hold IBANs of another country's registry while their BICs name the
 * territory itself (SWIFT assigns BIC country codes by ISO 3166, the IBAN registry groups them):
 * the Crown Dependencies bank on GB IBANs, the French overseas territories on FR IBANs (or on their
 * own FR-format prefixes), Åland on FI IBANs.
 */
const IBAN_REGISTRY_OF: Record<string, string> = {
  ...Object.fromEntries(['JE', 'GG', 'IM'].map((c) => [c, 'GB'])),
  ...Object.fromEntries(['GF', 'GP', 'MQ', 'RE', 'YT', 'PM', 'BL', 'MF', 'NC', 'PF', 'WF', 'TF'].map((c) => [c, 'FR'])),
  AX: 'FI',
};
const registryOf = (country: string) => IBAN_REGISTRY_OF[country] ?? country;

/**
 * An IBAN is held at the bank its BIC names, so both name the same country (or the same IBAN
 * registry, for the territories above). A mismatch is almost always a BIC copied from another
 * account, and the payment would be rejected by the beneficiary bank days later.
 */
export const ibanMatchesBicCountry = (iban: string, bic: string) => registryOf(ibanCountry(iban)) === registryOf(bicCountry(bic));

/** The countries of the SEPA scheme (ibantools' list). */
export const SEPA_COUNTRIES = Object.keys(getCountrySpecifications()).filter(isSEPACountry).sort();

/** Whether a SEPA credit transfer can reach this IBAN: its country belongs to the SEPA scheme (ibantools' list). */
export const isSepaIban = (iban: string) => isSEPACountry(ibanCountry(iban));

// First two digits of a routing number: Federal Reserve districts (01-12), thrifts (21-32),
// electronic (61-72) and traveller's cheques (80). 00 (U.S. Government) never receives ACH from us.
const ABA_PREFIXES = [...range(1, 12), ...range(21, 32), ...range(61, 72), 80];
const ABA_WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1];

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

const abaSum = (digits: string) => [...digits].reduce((sum, d, i) => sum + Number(d) * ABA_WEIGHTS[i]!, 0);

/**
 * ABA routing transit number: 9 digits, a known prefix, and 3-7-1 weights summing to a multiple
 * of 10. Every weight is coprime to 10, so any single wrong digit fails the checksum.
 */
export function isValidAbaRouting(value: string): boolean {
  if (!/^[0-9]{9}$/.test(value)) return false;
  if (!ABA_PREFIXES.includes(Number(value.slice(0, 2)))) return false;
  return abaSum(value) % 10 === 0;
}

/** The ninth digit that completes eight routing digits. */
export const abaCheckDigit = (first8: string) => String((10 - (abaSum(first8) % 10)) % 10);

/** US (ACH/Fedwire) account numbers: 4 to 17 digits. */
export const isValidUsAccountNumber = (value: string) => /^[0-9]{4,17}$/.test(value);

const IBAN_COUNTRIES = new Set(
  Object.entries(getCountrySpecifications())
    .filter(([, spec]) => spec.chars !== null && spec.IBANRegistry)
    .map(([country]) => country),
);

/**
 * Account number of an international (SWIFT) wire: 4 to 34 letters and digits (the IBAN maximum).
 * When it has the shape of an IBAN of an IBAN country it must be a valid IBAN: a mistyped IBAN
 * would otherwise be wired as a "local" number and bounce days later.
 */
export function isValidInternationalAccountNumber(value: string): boolean {
  if (!/^[A-Z0-9]{4,34}$/.test(value)) return false;
  const looksLikeIban = /^[A-Z]{2}[0-9]{2}/.test(value) && IBAN_COUNTRIES.has(value.slice(0, 2));
  return looksLikeIban ? isValidIban(value) : true;
}

/** National clearing code sent with an international wire (ABA, sort code, IFSC, BSB, transit…). */
export const isValidClearingCode = (value: string) => /^[A-Z0-9]{3,20}$/.test(value);

/**
 * What reads show of an account number: the last four characters (fewer for very short
 * numbers, never more than half), e.g. `…6789`.
 */
export function maskAccountNumber(value: string): string {
  const visible = Math.min(4, Math.floor(value.length / 2));
  return `…${visible ? value.slice(-visible) : ''}`;
}

// ——— Sandbox generators: deterministic, valid identifiers for sandbox deposit instructions and tests ———

const DIGITS = '0123456789';
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ALPHANUMERIC = LETTERS + DIGITS;

/** An endless, deterministic stream of characters drawn from a seed (SHA-256 in counter mode). */
function seededChars(kind: string, seed: string) {
  let block = 0;
  let bytes: Uint8Array = new Uint8Array();
  let at = 0;
  const nextByte = () => {
    if (at === bytes.length) {
      bytes = sha256(utf8ToBytes(`ramp-sandbox:${kind}:${block++}:${seed}`));
      at = 0;
    }
    return bytes[at++]!;
  };
  return (alphabet: string, count: number) => {
    let out = '';
    while (out.length < count) {
      const byte = nextByte();
      // Rejection sampling keeps every character equally likely.
      if (byte < 256 - (256 % alphabet.length)) out += alphabet[byte % alphabet.length];
    }
    return out;
  };
}

/**
 * Countries the sandbox issues IBANs for. Their BBANs have a fixed letter/digit layout and no
 * national check digit, so mod-97 alone decides validity (AE serves AED, the others EUR/GBP).
 */
const SANDBOX_BBAN_LAYOUTS = {
  DE: [[DIGITS, 18]],
  AT: [[DIGITS, 16]],
  LT: [[DIGITS, 16]],
  NL: [
    [LETTERS, 4],
    [DIGITS, 10],
  ],
  GB: [
    [LETTERS, 4],
    [DIGITS, 14],
  ],
  AE: [[DIGITS, 19]],
} as const satisfies Record<string, ReadonlyArray<readonly [string, number]>>;
export type SandboxIbanCountry = keyof typeof SANDBOX_BBAN_LAYOUTS;
export const SANDBOX_IBAN_COUNTRIES = Object.keys(SANDBOX_BBAN_LAYOUTS) as SandboxIbanCountry[];

export function sandboxIban(country: SandboxIbanCountry, seed: string): string {
  const draw = seededChars(`iban:${country}`, seed);
  const bban = SANDBOX_BBAN_LAYOUTS[country].map(([alphabet, count]) => draw(alphabet, count)).join('');
  const iban = composeIBAN({ countryCode: country, bban });
  if (!iban) throw new Error(`cannot compose a sandbox IBAN for ${country}`);
  return iban;
}

/** A BIC for `country` (any ISO country ibantools knows): 8 characters, or 11 with a branch. */
export function sandboxBic(country: string, seed: string, options: { branch?: boolean } = {}): string {
  const draw = seededChars(`bic:${country}`, seed);
  // A location code whose second character is 0 marks a test BIC; sandbox numbers look live.
  const location = draw(ALPHANUMERIC, 1) + draw(LETTERS + DIGITS.slice(1), 1);
  const bic = draw(LETTERS, 4) + country + location + (options.branch ? draw(ALPHANUMERIC, 3) : '');
  if (!isValidBic(bic)) throw new Error(`cannot make a sandbox BIC for ${country}`);
  return bic;
}

export function sandboxAbaRouting(seed: string): string {
  const draw = seededChars('aba', seed);
  const prefix = ABA_PREFIXES[Number(draw(DIGITS, 2)) % ABA_PREFIXES.length]!;
  const first8 = String(prefix).padStart(2, '0') + draw(DIGITS, 6);
  return first8 + abaCheckDigit(first8);
}

/** A 12-digit US account number that does not start with 0 (some banks' forms drop leading zeros). */
export function sandboxUsAccountNumber(seed: string): string {
  const draw = seededChars('us-account', seed);
  return draw(DIGITS.slice(1), 1) + draw(DIGITS, 11);
}
