import type { Feature } from '../../platform/feature.js';
import type { Services } from '../../services.js';
import { NEEDED_SCOPES } from './scopes.js';
import { auditEntities } from './entities.js';
import { trimAuditLog } from './jobs.js';
import { auditRoutes } from './rest.js';

/** The audit log: every state-changing call, appended with its change; read by partners with the admin scope. */
export const auditFeature: Feature<Services> = {
  name: 'audit',
  scopes: NEEDED_SCOPES,
  entities: auditEntities,
  routes: auditRoutes,
  types: () => import('./graphql.js'),
  jobs: (config) => [trimAuditLog(config.AUDIT_RETENTION_DAYS)],
};
