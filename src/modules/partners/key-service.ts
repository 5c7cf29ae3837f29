import { SCOPES, type KeyScope, requireScope } from '../../domain/scopes.js';
import { useCase } from '../../platform/use-cases/use-case.js';
import { ForbiddenError, NotFoundError } from '../../domain/errors.js';
import { parseInput } from '../../domain/validation.js';
import { rangeWithin } from '../../platform/security/client-address.js';
import { isUuid } from '../../domain/identifiers/uuid.js';
import type { KeysetPage } from '../../platform/reads/pagination.js';
import type { Scope } from '../../platform/use-cases/scope.js';
import { createApiKey, revokeApiKey } from './api-keys.js';
import { ApiKey, Partner } from './entities.js';
import { ApiKeyGrant, type ApiKeyGrantParsed } from './inputs.js';
import { type ApiKeyRow, apiKeyPage } from './queries.js';

/**
 * A partner's own API keys in the caller's environment, managed with a key that has the `admin`
 * scope (the CLI manages every partner's). Keys are not tenant-filtered rows (authentication reads
 * them before any tenant is known), so every read here names the caller's partner and environment.
 */
export interface ApiKeyService {
  /** One page of the caller's keys, oldest first, revoked ones included. */
  page(scope: Scope, page: KeysetPage): Promise<ApiKeyRow[]>;
  count(scope: Scope): Promise<number>;
  load(scope: Scope, ids: readonly string[]): Promise<ApiKey[]>;
  /** A new key of the caller's partner and environment; the clear key is in the result and nowhere else, ever. */
  create(scope: Scope, grant: ApiKeyGrant): Promise<{ key: string; apiKey: ApiKey }>;
  /** Revokes one of the caller's keys, through the same path as the CLI (every instance drops it at once); 404 for another's. */
  revoke(scope: Scope, id: string): Promise<ApiKey>;
}

const ownedBy = ({ actor }: Scope) => ({ partner: actor.partnerId, environment: actor.environment });

/**
 * A key makes only keys it could stand in for: scopes among its own, and, when it is locked to addresses, an
 * allowlist inside its own (an empty list is anywhere, so it is outside any list). Otherwise an admin key locked to
 * one office could mint an every-scope key usable from anywhere. 403 `scope_escalation`, naming what is beyond it.
 */
function refuseEscalation(wanted: ApiKeyGrantParsed, own: { scopes: readonly KeyScope[]; allowedIps: readonly string[] }) {
  const scopes = wanted.scopes ?? SCOPES;
  const beyond = scopes.filter((scope) => !own.scopes.includes(scope));
  if (beyond.length) {
    const named = beyond.map((scope) => `\`${scope}\``).join(', ');
    throw new ForbiddenError('scope_escalation', `This API key can create keys only with scopes it has itself; it lacks ${named}`);
  }
  if (!own.allowedIps.length) return;
  const allowedIps = wanted.allowedIps ?? [];
  const outside = allowedIps.length ? allowedIps.filter((range) => !rangeWithin(range, own.allowedIps)) : ['anywhere (an empty allowlist)'];
  if (outside.length) {
    throw new ForbiddenError(
      'scope_escalation',
      `This API key is locked to ${own.allowedIps.join(', ')}, so the keys it creates must be too; outside it: ${outside.join(', ')}`,
    );
  }
}

export function createApiKeyService(): ApiKeyService {
  const admin = (scope: Scope) => requireScope(scope.actor, 'admin');
  return {
    page(scope, page) {
      admin(scope);
      return apiKeyPage(scope, page);
    },
    count(scope) {
      admin(scope);
      return scope.em.count(ApiKey, ownedBy(scope));
    },
    load(scope, ids) {
      admin(scope);
      return scope.em.find(ApiKey, { ...ownedBy(scope), id: { $in: ids.filter(isUuid) } });
    },
    async create(scope, grant) {
      admin(scope);
      const wanted = parseInput(ApiKeyGrant, grant);
      return useCase(scope, async (tx) => {
        const partner = await tx.findOne(Partner, { id: scope.actor.partnerId });
        if (!partner) throw new NotFoundError('Partner');
        const own = isUuid(scope.actor.apiKeyId) ? await tx.findOne(ApiKey, { ...ownedBy(scope), id: scope.actor.apiKeyId }) : null;
        refuseEscalation(wanted, { scopes: own ? (own.scopes as KeyScope[]) : [...SCOPES], allowedIps: own?.allowedIps ?? [] });
        return createApiKey(tx, partner, scope.actor.environment, grant);
      });
    },
    async revoke(scope, id) {
      admin(scope);
      if (!isUuid(id)) throw new NotFoundError('API key');
      await useCase(scope, (em) => revokeApiKey(em, id, { partnerId: scope.actor.partnerId, environment: scope.actor.environment }));
      const key = await scope.em.findOne(ApiKey, { ...ownedBy(scope), id: id.toLowerCase() }, { refresh: true });
      if (!key) throw new NotFoundError('API key');
      return key;
    },
  };
}
