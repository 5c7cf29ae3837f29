import type { FeatureScopes } from '../../platform/route-scopes.js';

/**
 * What each REST route (by operationId) and GraphQL root field of this module needs of the API key
 * (domain/scopes.ts). The audit log is the partner's security record: `admin` only. A route or field left out
 * stops Ramp's start.
 */
export const NEEDED_SCOPES = {
  rest: { listAuditEvents: 'admin' },
  graphql: { 'Query.auditEvents': 'admin' },
} as const satisfies FeatureScopes;
