import { randomInt } from 'node:crypto';
import type { CollectionAccount } from '../../../rails/port.js';
import type { DepositInstructions } from '../../virtual-accounts/issuance.js';

/**
 * Where an on-ramp customer sends fiat, as the transfer keeps it and the partner API shows it
 * (`quote.deposit_bank_account`): Ramp's collection account (a business), or for a virtual-account
 * deposit the customer's own virtual account.
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

/** The bank's collection account in the shape the transfer keeps and shows. */
export function collectionDepositAccount(account: CollectionAccount): DepositBankAccount {
  const common = {
    bank_name: account.bankName,
    bank_address: account.bankAddress,
    account_beneficiary_type: 'business' as const,
    account_beneficiary_name: account.beneficiaryName,
  };
  if (account.accountType === 'iban') return { ...common, account_type: 'iban', iban: { bic: account.iban!.bic, iban_number: account.iban!.ibanNumber } };
  return { ...common, account_type: 'us', us: { account_number: account.us!.accountNumber, routing_number: account.us!.routingNumber } };
}

/**
 * The numbers a virtual-account deposit actually arrived on, in the partner API's shape: the account's own
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

const REFERENCE_IN_TEXT = new RegExp(`RAMP[${REFERENCE_ALPHABET}]{12}`, 'g');

/**
 * The deposit references a payer wrote in a bank transfer's remittance information, in the order written: typed by
 * hand, so case and the spaces a banking app may put in every few characters do not count.
 */
export function depositReferencesIn(remittance: string): string[] {
  return [...new Set(remittance.toUpperCase().replace(/\s+/g, '').match(REFERENCE_IN_TEXT) ?? [])];
}
