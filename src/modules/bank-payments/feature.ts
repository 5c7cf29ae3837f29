import type { Feature } from '../../feature.js';
import type { Services } from '../../services.js';
import { bankPaymentEntities } from './entities.js';

/**
 * Fiat payouts through an ISO 20022 bank: payment orders stored before their pain.001 is written, and the bank's
 * pain.002 applied once. Its jobs run with the transfers' chain jobs (transfers/chain-jobs.ts), which know the bank.
 */
export const bankPaymentsFeature: Feature<Services> = {
  name: 'bank-payments',
  entities: bankPaymentEntities,
};
