import { LEDGER_ACCOUNTS, type LedgerAccount, MOVEMENTS } from '../../domain/ledger.js';
import { FIAT_CURRENCIES, TOKENS, formatAmount } from '../../domain/money.js';
import { domainEnum } from '../../graphql/types/enums.js';
import { builder } from '../../graphql/builder.js';
import type { LedgerEntryRow } from './queries.js';

/** What money is counted in: a fiat currency or a stablecoin (quotes, fees and postings name either). */
export const AssetEnum = domainEnum('Asset', [...FIAT_CURRENCIES, ...TOKENS], {
  description: 'A fiat currency (ISO 4217) or a stablecoin: what an amount is counted in',
  describe: {
    usd: 'US dollar (2 decimals)',
    eur: 'Euro (2 decimals)',
    aed: 'UAE dirham (2 decimals)',
    usdc: 'USD Coin (6 decimals)',
    usdt: 'Tether USD (6 decimals)',
  },
});

const ACCOUNT_MEANINGS: Record<LedgerAccount, string> = {
  customer_funds: 'Liability: money held for customers (deposited, not yet paid out or returned)',
  bank: "Asset: fiat in Ramp's bank accounts",
  wallet: "Asset: tokens in Ramp's wallets",
  conversion: "Ramp's FX position: what conversions took in one asset and gave out in another",
  platform_fees: 'Revenue: the platform fee the partner configured',
  developer_fees: "Payable to the partner: the quote's developerFeePercent",
  network_fees: 'Revenue that pays for the on-chain leg',
};
const LedgerAccountEnum = domainEnum('LedgerAccount', LEDGER_ACCOUNTS, {
  description: "An account of Ramp's double-entry ledger",
  describe: ACCOUNT_MEANINGS,
});
const MovementEnum = domainEnum('LedgerMovement', MOVEMENTS, {
  description: 'Why money moved: one ledger transaction per movement per transfer',
  describe: {
    deposit: "The customer's deposit arrived and is held for them",
    fees: 'The fees taken out of the deposit (platform, developer, network)',
    conversion: 'The held amount converted from the source to the destination asset',
    payout: 'The converted amount paid out to the customer',
    refund: 'The held deposit sent back to the customer',
    excess_return: 'What a customer paid in beyond the deposit amount, sent straight back',
    deposit_reversal: 'A credited chain deposit whose block a reorganisation took off the chain: the opposite of what it left held',
  },
});

/** One line of the double-entry ledger: debit positive, credit negative. */
export const PostingRef = builder.objectRef<LedgerEntryRow>('Posting').implement({
  description: 'A ledger entry of a transfer. Debits are positive, credits negative; each movement sums to zero per currency.',
  fields: (t) => ({
    movement: t.field({ type: MovementEnum, description: 'Which movement of the transfer this entry belongs to', resolve: (e) => e.movement }),
    account: t.field({ type: LedgerAccountEnum, description: 'The ledger account posted to', resolve: (e) => e.account }),
    currency: t.field({ type: AssetEnum, description: 'The asset the amount is in', resolve: (e) => e.currency }),
    amount: t.field({
      type: 'Decimal',
      description: "Debit positive, credit negative, at the asset's scale",
      resolve: (e) => formatAmount(e.amount, e.currency),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the entry was posted' }),
  }),
});
