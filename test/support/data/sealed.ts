import { loadConfig } from '../../../src/config.js';
import { createDataKeys } from '../../../src/modules/customers/data-keys.js';
import { scopeTo } from '../../../src/platform/security/tenant.js';
import type { TestRamp } from '../ramp.js';

/**
 * A customer's stored profile with its sealed document and tax numbers opened (the test key is the
 * development master key), for tests that check what was stored rather than that it is sealed.
 */
export async function openedProfile(t: TestRamp, customerId: string): Promise<any> {
  const [row] = await t.sql<{ profile: any; partner_id: string; environment: 'sandbox' | 'production' }>(
    'select profile, partner_id, environment from customers where id = ?',
    [customerId],
  );
  const em = scopeTo(t.ramp.db.fork(), { partnerId: row!.partner_id, environment: row!.environment });
  const keys = createDataKeys({ current: loadConfig({ NODE_ENV: 'test' }).encryptionMasterKey });
  const profile = structuredClone(row!.profile);
  const identity = profile.identifying_information;
  if (identity?.id_document) identity.id_document.number = await keys.open(em, customerId, identity.id_document.number);
  if (identity?.tax_number !== undefined) identity.tax_number = await keys.open(em, customerId, identity.tax_number);
  return profile;
}

/**
 * The ids of the customers, in every tenant, whose email is `email` (in any case), read from the raw rows by the
 * email's digest under each tenant's digest key: rows keep no email in clear.
 */
export async function customerIdsWithEmail(t: TestRamp, email: string): Promise<string[]> {
  const keys = createDataKeys({ current: loadConfig({ NODE_ENV: 'test' }).encryptionMasterKey });
  const ids: string[] = [];
  for (const tenant of await t.sql<{ partner_id: string; environment: 'sandbox' | 'production' }>('select partner_id, environment from email_digest_keys')) {
    const em = scopeTo(t.ramp.db.fork(), { partnerId: tenant.partner_id, environment: tenant.environment });
    const digest = await keys.emailDigest(em, email);
    const rows = await t.sql<{ id: string }>('select id from customers where partner_id = ? and environment = ? and email_digest = ?', [
      tenant.partner_id,
      tenant.environment,
      digest,
    ]);
    ids.push(...rows.map((row) => row.id));
  }
  return ids;
}
