import type { EntityManager } from '@mikro-orm/sql';
import { randomUUID } from 'node:crypto';
import type { Environment } from '../../domain/environment.js';
import { mintApiKey } from '../../platform/auth.js';
import { ApiKey, Partner } from './entities.js';

export const DEMO_PARTNER_NAME = 'Demo Partner';

/** Finds the partner by name or creates it. */
export async function ensurePartner(em: EntityManager, name: string): Promise<{ partner: Partner; created: boolean }> {
  const existing = await em.findOne(Partner, { name });
  if (existing) return { partner: existing, created: false };
  const partner = em.create(Partner, {
    id: randomUUID(),
    name,
    clientId: `client_${randomUUID().replace(/-/g, '').slice(0, 16)}`,
    grantServices: ['QUOTESANDORDERS'],
    platformFeeBps: 0,
  });
  await em.flush();
  return { partner, created: true };
}

/** Adds an API key; the clear key is returned here and never again. */
export async function issueApiKey(em: EntityManager, partner: Partner, environment: Environment): Promise<string> {
  const minted = mintApiKey(environment);
  em.create(ApiKey, { id: randomUUID(), partner, environment, prefix: minted.prefix, secretHash: minted.secretHash });
  await em.flush();
  return minted.key;
}

/** On an empty database, creates the demo partner and returns its new sandbox key. */
export async function bootstrapDemoPartner(em: EntityManager): Promise<string | null> {
  return em.transactional(async (tx) => {
    if ((await tx.count(Partner, {})) > 0) return null;
    const { partner } = await ensurePartner(tx, DEMO_PARTNER_NAME);
    partner.email = 'demo@partner.example';
    partner.location = 'Sandbox';
    return issueApiKey(tx, partner, 'sandbox');
  });
}
