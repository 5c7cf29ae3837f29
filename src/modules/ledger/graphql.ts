import { LEDGER_ACCOUNTS, MOVEMENTS } from '../../domain/ledger.js';
import { formatAmount } from '../../domain/money.js';
import { builder } from '../../graphql/builder.js';
import type { LedgerEntry } from './entities.js';

const LedgerAccountEnum = builder.enumType('LedgerAccount', { values: LEDGER_ACCOUNTS });
const MovementEnum = builder.enumType('LedgerMovement', { values: MOVEMENTS });

/** One line of the double-entry ledger: debit positive, credit negative. */
export const PostingRef = builder.objectRef<LedgerEntry>('Posting').implement({
  description: 'A ledger entry of a transfer. Debits are positive, credits negative; each movement sums to zero per currency.',
  fields: (t) => ({
    movement: t.field({ type: MovementEnum, resolve: (e) => e.movement }),
    account: t.field({ type: LedgerAccountEnum, resolve: (e) => e.account }),
    currency: t.exposeString('currency'),
    amount: t.field({ type: 'Decimal', resolve: (e) => formatAmount(e.amount, e.currency) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});
