import { sandboxAbaRouting, sandboxBic, sandboxIban, sandboxUsAccountNumber } from '../../domain/identifiers/bank.js';
import type { FiatCurrency, PaymentRails } from '../../domain/money.js';
import type { CollectionAccount } from '../../rails/port.js';

/**
 * Which virtual accounts open at once and what their deposit instructions are. USD over ACH and
 * wire and EUR over SEPA are issued immediately; AED and USD over SWIFT wait for the banking
 * partner (in the sandbox: the simulate action). Numbers come from the sandbox generators, so
 * they pass the same validators as partners' own accounts.
 */

export interface VirtualAccountRequest {
  currency: FiatCurrency;
  /** `swift` or absent (the currency's domestic rails). */
  rails: 'swift' | null;
}

export const issuedAtOnce = ({ currency, rails }: VirtualAccountRequest) => rails === null && (currency === 'usd' || currency === 'eur');

interface CommonInstructions {
  currency: FiatCurrency;
  payment_rails: PaymentRails[];
  bank_name: string;
  bank_address: string;
  account_holder_name: string;
}
export type DepositInstructions = CommonInstructions &
  (
    | { us: { routing_number: string; account_number: string } }
    | { iban: { bic: string; iban_number: string } }
    | { swift: { bic: string; account_number: string; routing_number: string } }
  );

/** One sandbox bank per currency: its BIC and routing number are fixed, account numbers are per account. */
const SANDBOX_BANKS = {
  usd: { name: 'Ramp Sandbox Bank, N.A.', address: '1 Sandbox Plaza, New York, NY 10004, US', country: 'US' },
  eur: { name: 'Ramp Sandbox Bank AG', address: 'Sandboxstraße 1, 10117 Berlin, DE', country: 'DE' },
  aed: { name: 'Ramp Sandbox Bank PJSC', address: 'Sandbox Tower, Sheikh Zayed Road, Dubai, AE', country: 'AE' },
} as const;

const bankBic = (currency: FiatCurrency) => sandboxBic(SANDBOX_BANKS[currency].country, `ramp-sandbox-bank-${currency}`);
const USD_ROUTING = sandboxAbaRouting('ramp-sandbox-bank-usd');

/**
 * Deposit instructions of a virtual account, derived from its id (so they never depend on
 * when they are computed) and addressed to the customer.
 */
export function depositInstructionsFor(request: VirtualAccountRequest, accountId: string, holderName: string): DepositInstructions {
  const bank = SANDBOX_BANKS[request.currency];
  const common = { currency: request.currency, bank_name: bank.name, bank_address: bank.address, account_holder_name: holderName };
  if (request.currency === 'usd' && request.rails === 'swift') {
    const swift = { bic: bankBic('usd'), account_number: sandboxUsAccountNumber(accountId), routing_number: USD_ROUTING };
    return { ...common, payment_rails: ['swift'], swift };
  }
  if (request.currency === 'usd') {
    return { ...common, payment_rails: ['ach', 'wire'], us: { routing_number: USD_ROUTING, account_number: sandboxUsAccountNumber(accountId) } };
  }
  const iban = { bic: bankBic(request.currency), iban_number: sandboxIban(request.currency === 'eur' ? 'DE' : 'AE', accountId) };
  return { ...common, payment_rails: request.currency === 'eur' ? ['sepa'] : ['uaefts'], iban };
}

/** Deposit instructions at an account the bank issued (its IBAN, or its US account at Ramp's routing number). */
export function instructionsAt(request: VirtualAccountRequest, issued: CollectionAccount, holderName: string): DepositInstructions {
  const common = { currency: request.currency, bank_name: issued.bankName, bank_address: issued.bankAddress, account_holder_name: holderName };
  if (issued.iban) return { ...common, payment_rails: ['sepa'], iban: { bic: issued.iban.bic, iban_number: issued.iban.ibanNumber } };
  if (!issued.us) throw new Error('a virtual account the bank issued has an IBAN or a US account number');
  return { ...common, payment_rails: ['ach', 'wire'], us: { routing_number: issued.us.routingNumber, account_number: issued.us.accountNumber } };
}

/** The number a deposit is addressed to: unique across all virtual accounts. */
export function depositAccountNumber(instructions: DepositInstructions): string {
  if ('iban' in instructions) return instructions.iban.iban_number;
  if ('us' in instructions) return instructions.us.account_number;
  return instructions.swift.account_number;
}
