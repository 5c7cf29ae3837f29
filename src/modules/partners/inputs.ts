import { z } from 'zod';
import {
  bicCountry,
  ibanCountry,
  ibanMatchesBicCountry,
  ibanProblem,
  isValidBic,
  isValidUsAccountNumber,
  normalizeAccountNumber,
  normalizeBic,
} from '../../domain/identifiers/bank.js';
import { addressOnNetworkSchema, isValidAddress } from '../../domain/identifiers/chain.js';
import { FIAT_CURRENCIES, NETWORKS, type Network, TOKENS } from '../../domain/money.js';
import { type Report, acrossFields } from '../../domain/validation.js';
import { SCOPES } from '../../domain/scopes.js';
import { parseAddressRange, rangeText } from '../../domain/identifiers/address-range.js';

/*
 * The whitelists' use cases take these inputs (NewWhitelistedWalletAddress, NewWhitelistedBankAccount).
 * Encryptus's bodies spell their fields in camelCase too: REST's own schemas
 * (rest-bodies.ts) use the same field rules under the spec's names; GraphQL passes its inputs as they are.
 */

/** Every field of the Encryptus whitelist bodies is a required, non-empty string. */
const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

/** Encryptus clients write `USDC`, `Polygon`; Ramp stores the lower-case names it uses everywhere. */
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(values))
    .meta({ enum: values.flatMap(spellingsOf) });
/** How the document lists a name Ramp reads in any case: `usdc`, `USDC`, `Usdc`. */
const spellingsOf = (value: string) => [...new Set([value, value.toUpperCase(), value[0]!.toUpperCase() + value.slice(1)])];

const isNetwork = (value: unknown): value is Network => typeof value === 'string' && (NETWORKS as readonly string[]).includes(value);

/** Encryptus's field rules of a wallet address entry; REST's body (rest-bodies.ts) spells the same fields with them. */
export const walletAddressFields = { address: text(128), coin: oneOf(TOKENS), network: oneOf(NETWORKS), label: text(100) };

/**
 * The address must be one of its network's (EIP-55 checksum, base58, …). Checked whenever address
 * and network are there, whatever else failed, so every failing field is reported at once.
 */
export const addressOnItsNetwork = () =>
  acrossFields(
    (entry, report: Report) => {
      const { address, network } = entry;
      if (typeof address === 'string' && isNetwork(network) && !isValidAddress(network, address)) {
        report('address', 'invalid_address', `is not a valid ${network} address`);
      }
    },
    () => addressOnNetworkSchema('network', 'address', spellingsOf),
  );

/** A wallet address to whitelist, in the domain's words (today the same as Encryptus's). */
export const NewWhitelistedWalletAddress = z.strictObject(walletAddressFields).check(addressOnItsNetwork());
export type NewWhitelistedWalletAddress = z.input<typeof NewWhitelistedWalletAddress>;

const LOOKS_LIKE_IBAN = /^[A-Z]{2}[0-9]{2}/;

/**
 * An IBAN (registry length of its country and mod-97, via ibantools) or a standard domestic account
 * number of 4 to 17 digits (the US ACH range). Messages never repeat the number: it must not reach logs.
 */
const bankAccountNumber = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(64, 'must be at most 64 characters')
  // Spaces and hyphens dropped, upper case: the form banks exchange and duplicates are compared on.
  .transform(normalizeAccountNumber)
  .superRefine((value, ctx) => {
    if (LOOKS_LIKE_IBAN.test(value)) {
      const problem = ibanProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: `is not a valid IBAN (${problem})`, params: { code: 'invalid_iban' } });
    } else if (!isValidUsAccountNumber(value)) {
      ctx.addIssue({ code: 'custom', message: 'must be an IBAN or an account number of 4 to 17 digits', params: { code: 'invalid_account_number' } });
    }
  })
  .meta({ examples: ['AE070331234567890123456', '123456789'], 'x-ramp-checks': "an IBAN (its check digits, its country the BIC's) or 4 to 17 digits" });

const bicSwift = z
  .string()
  .trim()
  .transform(normalizeBic)
  .refine(isValidBic, { message: 'must be a valid BIC (8 or 11 characters)', params: { code: 'invalid_bic' } })
  .meta({ examples: ['EBILAEAD'], 'x-ramp-checks': 'a BIC with a known country code' });

export const bankAccountFields = {
  accountHolderName: text(140),
  accountHolderAddress: text(300),
  beneficiaryBankName: text(140),
  beneficiaryBankAddress: text(300),
  beneficiaryBankCountry: text(100),
  bankAccountNumber,
  bicSwift,
  fiatCurrency: oneOf(FIAT_CURRENCIES),
};

/**
 * An IBAN and its bank's BIC name one country, as for external accounts. Checked whenever both
 * are valid, whatever else failed (a failed field is seen as sent, so both are checked again here).
 */
export const bicInTheIbansCountry = () =>
  acrossFields((account, report: Report) => {
    const number = account.bankAccountNumber;
    const bic = account.bicSwift;
    if (typeof number !== 'string' || typeof bic !== 'string') return;
    if (ibanProblem(number) || !isValidBic(bic) || ibanMatchesBicCountry(number, bic)) return;
    report('bicSwift', 'bic_country_mismatch', `is a bank in ${bicCountry(bic)}, but the IBAN is of ${ibanCountry(number)}`);
  });

/** A bank account to whitelist, in the domain's words (today the same as Encryptus's). */
export const NewWhitelistedBankAccount = z.strictObject(bankAccountFields).check(bicInTheIbansCountry());
export type NewWhitelistedBankAccount = z.input<typeof NewWhitelistedBankAccount>;

/** A key's allowlist holds at most this many ranges: each request checks them all. */
export const MAX_ALLOWED_IPS = 100;

/**
 * What a new API key may do and where from. No `scopes`: every scope (as keys always had); no
 * `allowedIps`: anywhere. Ranges are kept in their canonical spelling (`10.0.0.0/8`, `::1`).
 */
export const ApiKeyGrant = z.object({
  scopes: z
    .array(z.enum(SCOPES))
    .min(1, 'must name at least one scope (leave it out for every scope)')
    .transform((scopes) => SCOPES.filter((scope) => scopes.includes(scope)))
    .optional(),
  allowedIps: z
    .array(
      z.string().transform((text, ctx) => {
        const range = parseAddressRange(text);
        if (range) return rangeText(range);
        ctx.addIssue({
          code: 'custom',
          message: 'must be an IPv4 or IPv6 address or CIDR range (10.0.0.0/8, 2001:db8::/32)',
          params: { code: 'invalid_ip_range' },
        });
        return z.NEVER;
      }),
    )
    .max(MAX_ALLOWED_IPS, `must hold at most ${MAX_ALLOWED_IPS} ranges`)
    .transform((ranges) => [...new Set(ranges)])
    .optional(),
});
export type ApiKeyGrant = z.input<typeof ApiKeyGrant>;
/** A grant as its rules leave it: scopes in SCOPES' order, ranges in their canonical spelling. */
export type ApiKeyGrantParsed = z.output<typeof ApiKeyGrant>;
