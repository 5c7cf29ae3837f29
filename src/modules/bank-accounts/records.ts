import { postalAddressOf } from '../../domain/address.js';
import { REDACTED, addressValues, redactedAddress } from '../../domain/redaction.js';
import type { BankAccount } from './entities.js';
import type { AccountHolderAddress, AccountHolderType, UsAccountType, ValidNewBankAccount } from './inputs.js';

/**
 * A bank account in REST's snake_case shape: what REST shows, what an off-ramp
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

/** The columns a bank account is stored in (an entity, or a new account's `columnsOf`). */
export type BankAccountColumns = Pick<
  BankAccount,
  | 'accountType'
  | 'bankName'
  | 'accountHolderType'
  | 'accountHolderFirstName'
  | 'accountHolderLastName'
  | 'accountHolderBusinessName'
  | 'accountHolderAddress'
  | 'ibanNumber'
  | 'bic'
  | 'accountNumber'
  | 'routingNumber'
  | 'usAccountType'
>;

/**
 * The stored account as the validated details it was created from, with `number` as its IBAN or account
 * number: the clear one (a payout, the creation answer), or the hidden one reads show (`shownDetailsOf`).
 */
export function detailsOf(account: BankAccountColumns, number: string = account.ibanNumber ?? account.accountNumber ?? ''): BankAccountDetails {
  const common = {
    bank_name: account.bankName,
    account_holder_type: account.accountHolderType,
    account_holder_first_name: account.accountHolderFirstName ?? null,
    account_holder_last_name: account.accountHolderLastName ?? null,
    account_holder_business_name: account.accountHolderBusinessName ?? null,
    account_holder_address: account.accountHolderAddress,
  };
  switch (account.accountType) {
    case 'iban':
      return { ...common, account_type: 'iban', iban: { bic: account.bic!, iban_number: number } };
    case 'us':
      return {
        ...common,
        account_type: 'us',
        us: { account_number: number, routing_number: account.routingNumber!, account_type: account.usAccountType ?? 'checking' },
      };
    case 'swift':
      return {
        ...common,
        account_type: 'swift',
        swift: { account_number: number, bic: account.bic!, ...(account.routingNumber ? { routing_number: account.routingNumber } : {}) },
      };
  }
}

/**
 * The number a read shows, never opened: the hidden one kept beside a sealed number, or the clear number of a
 * row from before encryption (whoever shows it masks it, as `maskAccountNumber` shows both alike).
 */
export const shownNumberOf = (account: Pick<BankAccount, 'ibanNumber' | 'accountNumber' | 'hiddenNumber'>): string =>
  account.hiddenNumber ?? account.ibanNumber ?? account.accountNumber ?? '';

/** The stored account as reads show it (masked by the presenter), opening nothing. */
export const shownDetailsOf = (account: BankAccount): BankAccountDetails => detailsOf(account, shownNumberOf(account));

/** A validated bank account in the spec's shape (an off-ramp keeps its inline destination so). */
export const bankAccountDetailsOf = (account: ValidNewBankAccount): BankAccountDetails => detailsOf(columnsOf(account));

/**
 * An account number as events may keep it: all but its last four characters hidden, its length kept, so
 * `maskAccountNumber` shows exactly what it shows for the full number.
 */
export const hiddenNumber = (value: string) => '•'.repeat(Math.max(0, value.length - 4)) + value.slice(-4);

/** Bank account details with their numbers hidden (see hiddenNumber); routing numbers and BICs are public. */
export function maskedDetails(details: BankAccountDetails | null): BankAccountDetails | null {
  return details && withNumber(details, hiddenNumber(numberOfDetails(details)));
}

/**
 * The personal values of a bank account (holder, address lines, its number in clear: `number`, opened when it
 * is sealed), for finding their copies once erased.
 */
export function personalValuesOf(account: BankAccountColumns, number: string | null = account.ibanNumber ?? account.accountNumber ?? null): string[] {
  const holder = [account.accountHolderFirstName, account.accountHolderLastName, account.accountHolderBusinessName];
  const fullName =
    account.accountHolderFirstName && account.accountHolderLastName ? `${account.accountHolderFirstName} ${account.accountHolderLastName}` : null;
  return [...holder, fullName, ...addressValues(account.accountHolderAddress), number].filter((v): v is string => !!v);
}

/** Bank account details as erasure leaves them: bank, type and routing codes kept; holder, address lines and numbers `[redacted]`. */
export function redactedDetails(details: BankAccountDetails): BankAccountDetails {
  const holder = {
    ...details,
    account_holder_first_name: details.account_holder_first_name && REDACTED,
    account_holder_last_name: details.account_holder_last_name && REDACTED,
    account_holder_business_name: details.account_holder_business_name && REDACTED,
    account_holder_address: redactedAddress(details.account_holder_address),
  };
  if (holder.account_type === 'iban') return { ...holder, iban: { ...holder.iban, iban_number: REDACTED } };
  if (holder.account_type === 'us') return { ...holder, us: { ...holder.us, account_number: REDACTED } };
  return { ...holder, swift: { ...holder.swift, account_number: REDACTED } };
}

/** The IBAN or account number of bank account details. */
export const numberOfDetails = (details: BankAccountDetails): string =>
  details.account_type === 'iban' ? details.iban.iban_number : details.account_type === 'us' ? details.us.account_number : details.swift.account_number;

/** Bank account details with another IBAN or account number (the clear one opened, or a hidden one). */
export function withNumber(details: BankAccountDetails, number: string): BankAccountDetails {
  if (details.account_type === 'iban') return { ...details, iban: { ...details.iban, iban_number: number } };
  if (details.account_type === 'us') return { ...details, us: { ...details.us, account_number: number } };
  return { ...details, swift: { ...details.swift, account_number: number } };
}

/** The personal values of bank account details (an off-ramp's payout account; `number` in clear when the details hide it). */
export const personalValuesOfDetails = (details: BankAccountDetails, number: string | null = numberOfDetails(details)): string[] =>
  personalValuesOf(
    {
      accountHolderFirstName: details.account_holder_first_name,
      accountHolderLastName: details.account_holder_last_name,
      accountHolderBusinessName: details.account_holder_business_name,
      accountHolderAddress: details.account_holder_address,
      ibanNumber: details.account_type === 'iban' ? details.iban.iban_number : null,
      accountNumber: details.account_type === 'us' ? details.us.account_number : details.account_type === 'swift' ? details.swift.account_number : null,
    } as BankAccountColumns,
    number,
  );
