import { maskAccountNumber } from '../../domain/identifiers/bank.js';
import type { BankAccount } from './entities.js';
import { type BankAccountDetails, shownDetailsOf } from './records.js';

/** Full numbers appear only in the creation response; every other read, event and log masks them. */
export interface Disclosure {
  masked: boolean;
}

/**
 * A bank account in the REST shape: the same object an off-ramp transfer embeds as
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

/**
 * An external account as REST shows it; also the payload of `external_account.created`. Numbers masked from what
 * the row keeps in clear (nothing is opened), or shown in full when `clear` (the creation answer's own details) is given.
 */
export function presentBankAccount(account: BankAccount, clear?: BankAccountDetails) {
  return {
    id: account.id,
    external_account_id: account.id,
    customer_id: account.customerId,
    created_at: account.createdAt.toISOString(),
    ...presentBankAccountDetails(clear ?? shownDetailsOf(account), { masked: !clear }),
  };
}
export type ExternalAccountView = ReturnType<typeof presentBankAccount>;
