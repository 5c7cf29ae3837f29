import { customerEntities } from '../modules/customers/entities.js';
import { kycImportEntities } from '../modules/kyc-import/entities.js';
import { kybEntities } from '../modules/kyb/entities.js';
import { bankAccountEntities } from '../modules/bank-accounts/entities.js';
import { virtualAccountEntities } from '../modules/virtual-accounts/entities.js';
import { partnerEntities } from '../modules/partners/entities.js';
import { outboxEntities } from './outbox.js';
import { transferEntities } from '../modules/transfers/entities.js';
import { ledgerEntities } from '../modules/ledger/entities.js';
import { webhookEntities } from '../modules/webhooks/entities.js';

/** Every entity of every module, registered with MikroORM. */
export const entities = [...partnerEntities, ...outboxEntities, ...customerEntities, ...kycImportEntities, ...kybEntities, ...bankAccountEntities, ...virtualAccountEntities, ...transferEntities, ...ledgerEntities, ...webhookEntities];
