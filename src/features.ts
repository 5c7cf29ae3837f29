import { auditFeature } from './modules/audit/feature.js';
import { bankAccountsFeature } from './modules/bank-accounts/feature.js';
import { bankPaymentsFeature } from './modules/bank-payments/feature.js';
import { consoleFeature } from './modules/console/feature.js';
import { customersFeature } from './modules/customers/feature.js';
import { custodyFeature } from './modules/custody/feature.js';
import { docsFeature } from './modules/docs/feature.js';
import { erasureFeature } from './modules/erasure/feature.js';
import { eventsFeature } from './modules/events/feature.js';
import { kybFeature } from './modules/kyb/feature.js';
import { kycImportFeature } from './modules/kyc-import/feature.js';
import { ledgerFeature } from './modules/ledger/feature.js';
import { networksFeature } from './modules/networks/feature.js';
import { partnersFeature } from './modules/partners/feature.js';
import { transfersFeature } from './modules/transfers/feature.js';
import { virtualAccountsFeature } from './modules/virtual-accounts/feature.js';
import { webhooksFeature } from './modules/webhooks/feature.js';
import type { EntityDefinitions, Feature } from './feature.js';
import { outboxEntities } from './platform/messaging/outbox.js';
import type { Services } from './services.js';

/** Every feature of Ramp, in the order their routes register (docs first, as before). */
export const features: readonly Feature<Services>[] = [
  docsFeature,
  customersFeature,
  kycImportFeature,
  kybFeature,
  bankAccountsFeature,
  virtualAccountsFeature,
  transfersFeature,
  custodyFeature,
  bankPaymentsFeature,
  partnersFeature,
  webhooksFeature,
  eventsFeature,
  ledgerFeature,
  networksFeature,
  erasureFeature,
  auditFeature,
  consoleFeature,
];

/** Every entity MikroORM must know: the outbox's and each feature's. */
export const entities: EntityDefinitions = [...outboxEntities, ...features.flatMap((feature) => feature.entities ?? [])];
