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
import { isValidAddress } from '../../domain/identifiers/chain.js';
import { FIAT_CURRENCIES, NETWORKS, type Network, TOKENS } from '../../domain/money.js';

/** Every field of the Encryptus whitelist bodies is a required, non-empty string (spec §4.7). */
const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

/** Encryptus clients write `USDC`, `Polygon`; Ramp stores the lower-case names it uses everywhere. */
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => z.string().trim().toLowerCase().pipe(z.enum(values));

const isNetwork = (value: unknown): value is Network => typeof value === 'string' && (NETWORKS as readonly string[]).includes(value);

export const WhitelistWalletAddressInput = z
  .strictObject({
    address: text(128),
    coin: oneOf(TOKENS),
    network: oneOf(NETWORKS),
    label: text(100),
  })
  // Runs whenever address and network themselves parsed, so every failing field is reported at once.
  .refine((body) => isValidAddress(body.network, body.address), {
    path: ['address'],
    params: { code: 'invalid_address' },
    error: (issue) => `is not a valid ${String((issue.input as { network?: unknown }).network)} address`,
    when: ({ value }) => {
      const body = value as { address?: unknown; network?: unknown };
      return typeof body.address === 'string' && isNetwork(body.network);
    },
  });
export type WhitelistWalletAddress = z.infer<typeof WhitelistWalletAddressInput>;

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
  });

const bicSwift = z
  .string()
  .trim()
  .transform(normalizeBic)
  .refine(isValidBic, { message: 'must be a valid BIC (8 or 11 characters)', params: { code: 'invalid_bic' } });

export const WhitelistBankAccountInput = z
  .strictObject({
    accountHolderName: text(140),
    accountHolderAddress: text(300),
    beneficiaryBankName: text(140),
    beneficiaryBankAddress: text(300),
    beneficiaryBankCountry: text(100),
    bankAccountNumber,
    bicSwift,
    fiatCurrency: oneOf(FIAT_CURRENCIES),
  })
  .superRefine((account, ctx) => {
    // An IBAN and its bank's BIC name one country, as for external accounts.
    const number = account.bankAccountNumber;
    if (ibanProblem(number) || !isValidBic(account.bicSwift) || ibanMatchesBicCountry(number, account.bicSwift)) return;
    ctx.addIssue({
      code: 'custom',
      path: ['bicSwift'],
      message: `is a bank in ${bicCountry(account.bicSwift)}, but the IBAN is of ${ibanCountry(number)}`,
      params: { code: 'bic_country_mismatch' },
    });
  });
export type WhitelistBankAccount = z.infer<typeof WhitelistBankAccountInput>;
