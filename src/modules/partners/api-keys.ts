import type { EntityManager } from '@mikro-orm/sql';
import { randomUUID } from 'node:crypto';
import type { Environment } from '../../domain/environment.js';
import { NotFoundError } from '../../domain/errors.js';
import { isUuid } from '../../domain/identifiers/uuid.js';
import type { KeyScope } from '../../domain/scopes.js';
import { parseInput } from '../../domain/validation.js';
import { type ApiKeyStore, KEY_REVOKED_CHANNEL, LAST_USED_RESOLUTION_MS, mintApiKey } from '../../platform/security/auth.js';
import { auditAdministration } from '../../platform/security/audit.js';
import { unitOfWork } from '../../platform/db/unit-of-work.js';
import { API_KEY_ACTIONS } from '../audit/actions.js';
import { ApiKey, Partner } from './entities.js';
import { ApiKeyGrant } from './inputs.js';

/**
 * Partners' API keys: issued and revoked by the CLI, the first start and the partner's own admin
 * keys (service.ts), and looked up by authentication (platform/security/auth.ts) through `apiKeyStore`.
 */

/** Who manages keys outside an API call: the keys CLI, or Ramp itself (the demo partner's first key). */
type KeyAdministrator = 'cli' | 'system';

/**
 * Adds an API key with these scopes (every one when none is named) and allowlist (anywhere when empty), with its
 * audit row in the same transaction; the clear key is returned here and never again.
 */
export async function createApiKey(
  em: EntityManager,
  partner: Partner,
  environment: Environment,
  grant: ApiKeyGrant = {},
  by: KeyAdministrator = 'cli',
): Promise<{ key: string; apiKey: ApiKey }> {
  const { scopes, allowedIps } = parseInput(ApiKeyGrant, grant);
  const minted = mintApiKey(environment);
  return unitOfWork(em, async (tx) => {
    const apiKey = tx.create(ApiKey, {
      id: randomUUID(),
      partner,
      environment,
      prefix: minted.prefix,
      secretHash: minted.secretHash,
      createdAt: new Date(),
      ...(scopes && { scopes }),
      ...(allowedIps && { allowedIps }),
    });
    await tx.flush();
    await auditAdministration(tx, { partnerId: partner.id, environment, action: API_KEY_ACTIONS.create, entity: { type: 'api_key', id: apiKey.id }, by });
    return { key: minted.key, apiKey };
  });
}

/** Adds an API key; the clear key is returned here and never again. */
export async function issueApiKey(
  em: EntityManager,
  partner: Partner,
  environment: Environment,
  grant: ApiKeyGrant = {},
  by: KeyAdministrator = 'cli',
): Promise<string> {
  return (await createApiKey(em, partner, environment, grant, by)).key;
}

/** What the operator sees of a key (`npm run keys -- list`): never its secret or hash. */
export interface ApiKeySummary {
  id: string;
  prefix: string;
  partnerName: string;
  environment: Environment;
  createdAt: Date;
  /** To the minute (LAST_USED_RESOLUTION_MS); null when the key never authenticated. */
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  scopes: readonly KeyScope[];
  /** Empty: the key may be used from anywhere. */
  allowedIps: readonly string[];
}

const summaryOf = (key: ApiKey): ApiKeySummary => ({
  id: key.id,
  prefix: key.prefix,
  partnerName: key.partner.name,
  environment: key.environment,
  createdAt: key.createdAt,
  lastUsedAt: key.lastUsedAt ?? null,
  revokedAt: key.revokedAt ?? null,
  scopes: key.scopes as KeyScope[],
  allowedIps: key.allowedIps,
});

/** Every key, or one partner's (404 when no partner has that name), by partner then age; revoked ones included. */
export async function listApiKeys(em: EntityManager, filter: { partner?: string } = {}): Promise<ApiKeySummary[]> {
  if (filter.partner !== undefined && !(await em.findOne(Partner, { name: filter.partner }))) throw new NotFoundError('Partner');
  const keys = await em.find(ApiKey, filter.partner === undefined ? {} : { partner: { name: filter.partner } }, {
    populate: ['partner'],
    orderBy: { partner: { name: 'asc' }, createdAt: 'asc', id: 'asc' },
  });
  return keys.map(summaryOf);
}

/**
 * Revokes the key with this prefix or id (404 when none has it). Every instance drops the key from
 * the verified keys it keeps (platform/security/auth.ts) when the notification sent by this transaction's
 * commit reaches it, so REST and GraphQL refuse it within moments everywhere; open subscriptions
 * are closed by their instance's watch (graphql/guards/key-watch.ts). Revoking twice keeps the first time.
 */
export async function revokeApiKey(
  em: EntityManager,
  prefixOrId: string,
  /** The tenant whose key it must be (a partner revoking its own keys); another's answers 404. */
  owner?: { partnerId: string; environment: Environment },
  by: KeyAdministrator = 'cli',
): Promise<{ key: ApiKeySummary; alreadyRevoked: boolean }> {
  const which = isUuid(prefixOrId) ? { id: prefixOrId.toLowerCase() } : { prefix: prefixOrId };
  const where = owner ? { ...which, partner: owner.partnerId, environment: owner.environment } : which;
  return unitOfWork(em, async (tx) => {
    // Conditional, so two revocations racing leave the first one's time.
    const revoked = await tx.nativeUpdate(ApiKey, { ...where, revokedAt: null }, { revokedAt: new Date() });
    const key = await tx.findOne(ApiKey, where, { populate: ['partner'], refresh: true });
    if (!key) throw new NotFoundError('API key');
    if (revoked > 0) await tx.execute('select pg_notify(?, ?)', [KEY_REVOKED_CHANNEL, key.id]);
    const change = { partnerId: key.partner.id, environment: key.environment, action: API_KEY_ACTIONS.revoke, by };
    await auditAdministration(tx, { ...change, entity: { type: 'api_key', id: key.id } });
    return { key: summaryOf(key), alreadyRevoked: revoked === 0 };
  });
}

/** The keys as authentication needs them (platform/security/auth.ts); only unrevoked keys are found. */
export const apiKeyStore: ApiKeyStore = {
  async find(em, prefix) {
    const found = await em.findOne(ApiKey, { prefix, revokedAt: null });
    return (
      found && {
        id: found.id,
        partnerId: found.partner.id,
        environment: found.environment,
        secretHash: found.secretHash,
        lastUsedAt: found.lastUsedAt ?? null,
        scopes: found.scopes as KeyScope[],
        allowedIps: found.allowedIps,
      }
    );
  },

  async markUsed(em, id) {
    // Conditional on the stored time, so instances racing on one busy key write it once a minute between them.
    await em.execute('update api_keys set last_used_at = now() where id = ? and (last_used_at is null or last_used_at <= now() - make_interval(secs => ?))', [
      id,
      LAST_USED_RESOLUTION_MS / 1000,
    ]);
  },

  async activeAmong(em, ids) {
    if (!ids.length) return new Set();
    const active = await em.find(ApiKey, { id: { $in: [...ids] }, revokedAt: null }, { fields: ['id'] });
    return new Set(active.map((key) => key.id));
  },
};

/** An unrevoked key as the work it started later runs: its public prefix and what it may do now. */
export interface ActiveKey {
  id: string;
  prefix: string;
  scopes: ReadonlySet<KeyScope>;
}

/**
 * The key with this id as it is now, or null when it is revoked or unknown: what a webhook's subscription query runs
 * with at each delivery, so a key narrowed or revoked since it registered the webhook reads no more through it.
 */
export async function activeKey(em: EntityManager, id: string): Promise<ActiveKey | null> {
  const key = isUuid(id) ? await em.findOne(ApiKey, { id: id.toLowerCase(), revokedAt: null }, { fields: ['id', 'prefix', 'scopes'] }) : null;
  return key && { id: key.id, prefix: key.prefix, scopes: new Set(key.scopes as KeyScope[]) };
}
