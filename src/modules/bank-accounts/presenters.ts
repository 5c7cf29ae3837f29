import { maskAccountNumber } from '../../domain/identifiers/bank.js';
import type { BankAccount } from './entities.js';
import type { BankAccountDetails } from './records.js';

/** Full numbers appear only in the creation response; every other read, event and log masks them. */
export interface Disclosure {
  masked: boolean;
}

/** The stored account as the validated details it was created from. */
export function detailsOf(account: BankAccount): BankAccountDetails {
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

/**
 * A bank account in the spec's shape (§2.2): the same object an off-ramp transfer embeds as
 * `destination_bank_account`. Only the variant named by `account_type` is present.
 */
export function presentBankAccountDetails(details: BankAccountDetails, { masked }: Disclosure) {
  const number = (value: string) => (masked ? maskAccountNumber(value) : value);
  const common = {
    bank_name: details.bank_name,
    account_holder_type: details.account_holder_type,
    account_holder_first_name: details.account_holder_first_name,
    account_holder_last_name: details.account_holder_last_name,
    account_holder_business_name: details.account_holder_business_name,
    account_holder_address: details.account_holder_address,
    account_type: details.account_type,
  };
  switch (details.account_type) {
    case 'iban':
      return { ...common, iban: { bic: details.iban.bic, iban_number: number(details.iban.iban_number) } };
    case 'us':
      return { ...common, us: { ...details.us, account_number: number(details.us.account_number) } };
    case 'swift':
      return { ...common, swift: { ...details.swift, account_number: number(details.swift.account_number) } };
  }
}
export type BankAccountView = ReturnType<typeof presentBankAccountDetails>;

/** An external account as REST shows it; also the payload of `external_account.created` (masked). */
export function presentBankAccount(account: BankAccount, disclosure: Disclosure) {
  return {
    id: account.id,
    external_account_id: account.id,
    customer_id: account.customerId,
    created_at: account.createdAt.toISOString(),
    ...presentBankAccountDetails(detailsOf(account), disclosure),
  };
}
export type ExternalAccountView = ReturnType<typeof presentBankAccount>;
