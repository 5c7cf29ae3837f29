import { postalAddressOf } from '../../domain/address.js';
import type { AccountHolderAddress, AccountHolderType, UsAccountType, ValidNewBankAccount } from './inputs.js';

/**
 * A bank account in the spec's snake_case shape (§2.2): what REST shows, what an off-ramp
 * transfer keeps (jsonb) as its `destination_bank_account`. Only the variant named by
 * `account_type` is present; numbers are normalised.
 */
export type BankAccountDetails = {
  bank_name: string;
  account_holder_type: AccountHolderType;
  account_holder_first_name: string | null;
  account_holder_last_name: string | null;
  account_holder_business_name: string | null;
  account_holder_address: AccountHolderAddress;
} & (
  | { account_type: 'iban'; iban: { bic: string; iban_number: string } }
  | { account_type: 'us'; us: { account_number: string; routing_number: string; account_type: UsAccountType } }
  | { account_type: 'swift'; swift: { account_number: string; bic: string; routing_number?: string } }
);

/** The address as stored and shown (the spec's spelling). */
export const storedAddressOf = postalAddressOf;

/** The columns of a validated bank account (one variant's numbers; the others null). */
export function columnsOf(account: ValidNewBankAccount) {
  const none = { ibanNumber: null, bic: null, accountNumber: null, routingNumber: null, usAccountType: null };
  // The rules guarantee the details object the account type names is present.
  const numbers =
    account.accountType === 'iban'
      ? { ...none, ibanNumber: account.iban!.ibanNumber, bic: account.iban!.bic }
      : account.accountType === 'us'
        ? { ...none, accountNumber: account.us!.accountNumber, routingNumber: account.us!.routingNumber, usAccountType: account.us!.accountType }
        : { ...none, bic: account.swift!.bic, accountNumber: account.swift!.accountNumber, routingNumber: account.swift!.routingNumber ?? null };
  return {
    accountType: account.accountType,
    bankName: account.bankName,
    accountHolderType: account.accountHolderType,
    accountHolderFirstName: account.accountHolderFirstName ?? null,
    accountHolderLastName: account.accountHolderLastName ?? null,
    accountHolderBusinessName: account.accountHolderBusinessName ?? null,
    accountHolderAddress: storedAddressOf(account.accountHolderAddress),
    ...numbers,
  };
}

/** A validated bank account in the spec's shape (an off-ramp keeps its inline destination so). */
export function bankAccountDetailsOf(account: ValidNewBankAccount): BankAccountDetails {
  const common = {
    bank_name: account.bankName,
    account_holder_type: account.accountHolderType,
    account_holder_first_name: account.accountHolderFirstName ?? null,
    account_holder_last_name: account.accountHolderLastName ?? null,
    account_holder_business_name: account.accountHolderBusinessName ?? null,
    account_holder_address: storedAddressOf(account.accountHolderAddress),
  };
  // The rules guarantee the details object the account type names is present.
  if (account.accountType === 'iban') return { ...common, account_type: 'iban', iban: { bic: account.iban!.bic, iban_number: account.iban!.ibanNumber } };
  if (account.accountType === 'us') {
    const us = account.us!;
    return { ...common, account_type: 'us', us: { account_number: us.accountNumber, routing_number: us.routingNumber, account_type: us.accountType } };
  }
  const swift = account.swift!;
  return {
    ...common,
    account_type: 'swift',
    swift: { account_number: swift.accountNumber, bic: swift.bic, ...(swift.routingNumber !== undefined && { routing_number: swift.routingNumber }) },
  };
}
