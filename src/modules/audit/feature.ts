import type { Feature } from '../../feature.js';
import type { Services } from '../../services.js';
import { auditEntities } from './entities.js';
import { sealAuditLog, trimAuditLog } from './jobs.js';
import { auditRoutes } from './rest.js';

/** The audit log: every state-changing call, appended with its change; read by partners with the admin scope. */
export const auditFeature: Feature<Services> = {
  name: 'audit',
  entities: auditEntities,
  routes: auditRoutes,
  types: () => import('./graphql.js'),
  // Sealed first: the trim deletes only rows the chain has linked.
  jobs: (config) => [sealAuditLog(config.AUDIT_SEAL_DELAY_SECONDS), trimAuditLog(config.AUDIT_RETENTION_DAYS)],
};
