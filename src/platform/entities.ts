import { customerEntities } from '../modules/customers/entities.js';
import { partnerEntities } from '../modules/partners/entities.js';
import { outboxEntities } from './outbox.js';

/** Every entity of every module, registered with MikroORM. */
export const entities = [...partnerEntities, ...outboxEntities, ...customerEntities];
