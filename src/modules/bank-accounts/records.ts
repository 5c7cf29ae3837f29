import { postalAddressOf } from '../../domain/address.js';
import { REDACTED, addressValues, redactedAddress } from '../../domain/redaction.js';
import type { BankAccount } from './entities.js';
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

/** The stored account as the validated details it was created from. */
export function detailsOf(account: BankAccountColumns): BankAccountDetails {
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
      return { ...common, account_type: 'iban', iban: { bic: account.bic!, iban_number: account.ibanNumber! } };
    case 'us':
      return {
        ...common,
        account_type: 'us',
        us: { account_number: account.accountNumber!, routing_number: account.routingNumber!, account_type: account.usAccountType ?? 'checking' },
      };
    case 'swift':
      return {
        ...common,
        account_type: 'swift',
        swift: { account_number: account.accountNumber!, bic: account.bic!, ...(account.routingNumber ? { routing_number: account.routingNumber } : {}) },
      };
  }
}

/** A validated bank account in the spec's shape (an off-ramp keeps its inline destination so). */
export const bankAccountDetailsOf = (account: ValidNewBankAccount): BankAccountDetails => detailsOf(columnsOf(account));

/**
 * An account number as events may keep it: all but its last four characters hidden, its length kept, so
 * `maskAccountNumber` shows exactly what it shows for the full number.
 */
export const hiddenNumber = (value: string) => '•'.repeat(Math.max(0, value.length - 4)) + value.slice(-4);

/** Bank account details with their numbers hidden (see hiddenNumber); routing numbers and BICs are public. */
export function maskedDetails(details: BankAccountDetails | null): BankAccountDetails | null {
  if (!details) return null;
  if (details.account_type === 'iban') return { ...details, iban: { ...details.iban, iban_number: hiddenNumber(details.iban.iban_number) } };
  if (details.account_type === 'us') return { ...details, us: { ...details.us, account_number: hiddenNumber(details.us.account_number) } };
  return { ...details, swift: { ...details.swift, account_number: hiddenNumber(details.swift.account_number) } };
}

/** The personal values of a bank account (holder, address lines, numbers), for finding their copies once erased. */
export function personalValuesOf(account: BankAccountColumns): string[] {
  const holder = [account.accountHolderFirstName, account.accountHolderLastName, account.accountHolderBusinessName];
  const fullName =
    account.accountHolderFirstName && account.accountHolderLastName ? `${account.accountHolderFirstName} ${account.accountHolderLastName}` : null;
  return [...holder, fullName, ...addressValues(account.accountHolderAddress), account.ibanNumber, account.accountNumber].filter((v): v is string => !!v);
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

/** The personal values of bank account details (an off-ramp's inline destination). */
export const personalValuesOfDetails = (details: BankAccountDetails): string[] =>
  personalValuesOf({
    accountHolderFirstName: details.account_holder_first_name,
    accountHolderLastName: details.account_holder_last_name,
    accountHolderBusinessName: details.account_holder_business_name,
    accountHolderAddress: details.account_holder_address,
    ibanNumber: details.account_type === 'iban' ? details.iban.iban_number : null,
    accountNumber: details.account_type === 'us' ? details.us.account_number : details.account_type === 'swift' ? details.swift.account_number : null,
  } as BankAccountColumns);
