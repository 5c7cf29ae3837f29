import { ibanCountry, ibanProblem, isSepaIban, normalizeIban } from '../../../domain/identifiers/bank.js';
import type { PaymentRails } from '../../../domain/money.js';
import type { Problem } from '../../../domain/validation.js';
import type { BankAccountType } from '../../bank-accounts/inputs.js';

/** Which bank account variants each payout rail can pay into. */
export const ACCOUNT_TYPES_OF_RAILS: Record<PaymentRails, readonly BankAccountType[]> = {
  ach: ['us'],
  wire: ['us'],
  sepa: ['iban'],
  uaefts: ['iban'],
  swift: ['iban', 'swift'],
};

/**
 * Why these rails cannot pay into the account, and which of its fields is at fault, or null.
 * Domestic rails reach only their own banking area: SEPA credits IBANs of SEPA countries, the UAE
 * funds transfer system IBANs of the UAE. An IBAN that is not valid is left to its own error.
 */
export function payoutProblem(
  rails: PaymentRails,
  account: { accountType: BankAccountType; ibanNumber?: string | undefined },
): (Problem & { field: 'accountType' | 'ibanNumber' }) | null {
  if (!ACCOUNT_TYPES_OF_RAILS[rails].includes(account.accountType)) {
    const detail = `${rails} pays into ${ACCOUNT_TYPES_OF_RAILS[rails].join(' or ')} accounts, not ${account.accountType}`;
    return { field: 'accountType', code: 'account_type_not_supported', detail };
  }
  if (account.accountType !== 'iban' || account.ibanNumber === undefined) return null;
  const iban = normalizeIban(account.ibanNumber);
  if (ibanProblem(iban)) return null;
  const unreachable = (detail: string) => ({ field: 'ibanNumber' as const, code: 'account_not_reachable_by_rails', detail });
  if (rails === 'sepa' && !isSepaIban(iban)) return unreachable(`sepa pays into IBANs of SEPA countries, and ${ibanCountry(iban)} is not one`);
  if (rails === 'uaefts' && ibanCountry(iban) !== 'AE') return unreachable(`uaefts pays into UAE (AE) IBANs, not ${ibanCountry(iban)} ones`);
  return null;
}
