import { randomInt } from 'node:crypto';
import type { FiatCurrency, PaymentRails } from '../../domain/money.js';
import type { DepositInstructions } from '../virtual-accounts/issuance.js';

/**
 * Where an on-ramp customer sends fiat (spec §2.4 `quote.deposit_bank_account`): Ramp's collection
 * account (a business), or for a virtual-account deposit the customer's own virtual account.
 */
export interface DepositBankAccount {
  bank_name: string;
  bank_address: string;
  account_beneficiary_type: 'individual' | 'business';
  account_beneficiary_name: string;
  account_type: 'iban' | 'us' | 'swift';
  iban?: { bic: string; iban_number: string };
  us?: { account_number: string; routing_number: string };
  /** Only virtual accounts that receive USD over SWIFT: a US bank's BIC, account and routing number. */
  swift?: { bic: string; account_number: string; routing_number: string };
}

const BENEFICIARY = 'Ramp Sandbox Collections Ltd';

/**
 * Ramp's sandbox collection accounts. IBAN rails (SEPA, UAEFTS, SWIFT) get an IBAN account;
 * US domestic rails (ACH, wire) get a routing and account number, as US banks have no IBAN.
 */
const COLLECTION_ACCOUNTS: Record<FiatCurrency, Partial<Record<PaymentRails, DepositBankAccount>>> = {
  eur: {
    sepa: iban('Commerzbank AG', 'Kaiserplatz, 60311 Frankfurt am Main, DE', 'COBADEFFXXX', 'DE89370400440532013000'),
    swift: iban('Commerzbank AG', 'Kaiserplatz, 60311 Frankfurt am Main, DE', 'COBADEFFXXX', 'DE89370400440532013000'),
  },
  aed: {
    uaefts: iban('Emirates NBD', 'Baniyas Road, Deira, Dubai, AE', 'EBILAEADXXX', 'AE070331234567890123456'),
    swift: iban('Emirates NBD', 'Baniyas Road, Deira, Dubai, AE', 'EBILAEADXXX', 'AE070331234567890123456'),
  },
  usd: {
    ach: us('JPMorgan Chase Bank, N.A.', '383 Madison Avenue, New York, NY 10179, US', '021000021', '000123456789'),
    wire: us('JPMorgan Chase Bank, N.A.', '383 Madison Avenue, New York, NY 10179, US', '021000021', '000123456789'),
    swift: iban('National Westminster Bank', '250 Bishopsgate, London EC2M 4AA, GB', 'NWBKGB2LXXX', 'GB29NWBK60161331926819'),
  },
};

function iban(bank_name: string, bank_address: string, bic: string, iban_number: string): DepositBankAccount {
  return {
    bank_name,
    bank_address,
    account_beneficiary_type: 'business',
    account_beneficiary_name: BENEFICIARY,
    account_type: 'iban',
    iban: { bic, iban_number },
  };
}
function us(bank_name: string, bank_address: string, routing_number: string, account_number: string): DepositBankAccount {
  return {
    bank_name,
    bank_address,
    account_beneficiary_type: 'business',
    account_beneficiary_name: BENEFICIARY,
    account_type: 'us',
    us: { account_number, routing_number },
  };
}

/**
 * The numbers a virtual-account deposit actually arrived on, in the §2.4 shape: the account's own
 * deposit instructions, whose beneficiary is the customer (`corporate` customers are `business`
 * beneficiaries, as in `account_holder_type`).
 */
export function virtualAccountDepositAccount(instructions: DepositInstructions, customerType: 'individual' | 'corporate'): DepositBankAccount {
  const common = {
    bank_name: instructions.bank_name,
    bank_address: instructions.bank_address,
    account_beneficiary_type: customerType === 'corporate' ? ('business' as const) : ('individual' as const),
    account_beneficiary_name: instructions.account_holder_name,
  };
  if ('iban' in instructions) return { ...common, account_type: 'iban', iban: { bic: instructions.iban.bic, iban_number: instructions.iban.iban_number } };
  if ('us' in instructions)
    return { ...common, account_type: 'us', us: { account_number: instructions.us.account_number, routing_number: instructions.us.routing_number } };
  const { bic, account_number, routing_number } = instructions.swift;
  return { ...common, account_type: 'swift', swift: { bic, account_number, routing_number } };
}

export function collectionAccount(currency: FiatCurrency, rails: PaymentRails): DepositBankAccount {
  const account = COLLECTION_ACCOUNTS[currency][rails];
  if (!account) throw new Error(`no collection account for ${currency} over ${rails}`);
  return account;
}

// No 0/O or 1/I: the reference is typed by hand into banking apps.
const REFERENCE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/**
 * The reference the customer must put on the bank transfer so the deposit is matched to this
 * transfer: short enough for every rail's remittance field (SEPA allows 140, ACH addenda 80).
 * Unique in the database; 32^12 values make a collision a retry, not a failure.
 */
export function depositReference(): string {
  let out = 'RAMP';
  for (let i = 0; i < 12; i++) out += REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)];
  return out;
}
