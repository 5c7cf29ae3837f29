import type { FiatCurrency, PaymentRails } from '../../domain/money.js';
import { isValidIban } from '../../domain/identifiers/bank.js';
import type { CollectionAccount, InProcessBank } from '../port.js';

const BENEFICIARY = 'Ramp Sandbox Collections Ltd';

/**
 * Ramp's sandbox collection accounts. IBAN rails (SEPA, UAEFTS, SWIFT) get an IBAN account;
 * US domestic rails (ACH, wire) get a routing and account number, as US banks have no IBAN.
 */
const COLLECTION_ACCOUNTS: Record<FiatCurrency, Partial<Record<PaymentRails, CollectionAccount>>> = {
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

function iban(bankName: string, bankAddress: string, bic: string, ibanNumber: string): CollectionAccount {
  return { bankName, bankAddress, beneficiaryName: BENEFICIARY, accountType: 'iban', iban: { bic, ibanNumber } };
}
function us(bankName: string, bankAddress: string, routingNumber: string, accountNumber: string): CollectionAccount {
  return { bankName, bankAddress, beneficiaryName: BENEFICIARY, accountType: 'us', us: { accountNumber, routingNumber } };
}

/** The sandbox's collection account for a currency over its rails (made up: production is never handed one). */
export function sandboxCollectionAccount(currency: FiatCurrency, rails: PaymentRails): CollectionAccount {
  const account = COLLECTION_ACCOUNTS[currency][rails];
  if (!account) throw new Error(`no collection account for ${currency} over ${rails}`);
  return account;
}

/** Whether the sandbox has a collection account for a currency over one of its rails (it has one for each). */
export const sandboxServes = (currency: FiatCurrency, rails: PaymentRails) => COLLECTION_ACCOUNTS[currency][rails] !== undefined;

/**
 * The sandbox's in-process bank: the sandbox's fiat leg unless SANDBOX_BANK=iso20022 puts the ISO 20022 adapter
 * (rails/bank/iso20022/) in its place. Its collection accounts are made up, so production is never handed them.
 */
export const sandboxBank: InProcessBank = {
  kind: 'in_process',
  mode: 'simulated',
  serves: sandboxServes,
  collectionAccount: sandboxCollectionAccount,
  // The sandbox's virtual accounts get numbers it makes up (virtual-accounts/issuance.ts).
  virtualAccounts: null,
  /** Sends nothing, but refuses what a real bank could not pay to: a hidden or still sealed number. */
  async payOut(payout) {
    const full = payout.accountType === 'iban' ? isValidIban(payout.accountNumber) : /^[0-9A-Z]{4,34}$/i.test(payout.accountNumber);
    if (!full) throw new Error(`the sandbox bank pays out to a full account number only (transfer ${payout.transferId})`);
  },
};
