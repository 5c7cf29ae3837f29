import { loadConfig } from '../../src/config.js';
import { createDataKeys } from '../../src/modules/customers/data-keys.js';
import { scopeTo } from '../../src/platform/tenant.js';
import type { TestRamp } from './ramp.js';

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
