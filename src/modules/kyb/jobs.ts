import type { EntityManager } from '@mikro-orm/sql';
import type { Environment } from '../../domain/environment.js';
import type { Job } from '../../platform/runtime/jobs.js';
import { REDACTED } from '../../domain/redaction.js';
import { isSealed } from '../../platform/security/sealing.js';
import { scopeTo } from '../../platform/security/tenant.js';
import type { DataKeys } from '../customers/data-keys.js';

const BATCH = 100;

interface ClearRepresentative {
  id: string;
  customer_id: string;
  partner_id: string;
  environment: Environment;
  first_name: string;
  last_name: string;
  dob: string;
  document_no: string;
}

/**
 * Seals the names, birth dates and document numbers of directors recorded before encryption at rest, and gives
 * their documents the keyed digest the uniqueness compares. SKIP LOCKED batches: instances share the work.
 */
async function sealClearRepresentatives(em: EntityManager, dataKeys: DataKeys): Promise<number> {
  return em.transactional(async (tx) => {
    const rows = await tx.execute<ClearRepresentative[]>(
      `select id, customer_id, partner_id, environment, first_name, last_name, dob, document_no from business_legal_representatives
       where first_name not like 'v1:%' or last_name not like 'v1:%' or dob not like 'v1:%' or document_no not like 'v1:%' or document_digest is null
       limit ? for update skip locked`,
      [BATCH],
    );
    for (const row of rows) {
      scopeTo(tx, { partnerId: row.partner_id, environment: row.environment });
      const open = async (stored: string) => (isSealed(stored) ? await dataKeys.open(tx, row.customer_id, stored) : stored);
      const seal = async (stored: string) => (isSealed(stored) ? stored : dataKeys.seal(tx, row.customer_id, stored));
      const documentNo = await open(row.document_no);
      if (documentNo === null) continue;
      await tx.execute('update business_legal_representatives set first_name = ?, last_name = ?, dob = ?, document_no = ?, document_digest = ? where id = ?', [
        await seal(row.first_name),
        await seal(row.last_name),
        await seal(row.dob),
        await seal(row.document_no),
        await dataKeys.digest(tx, row.customer_id, documentNo),
        row.id,
      ]);
    }
    return rows.length;
  });
}

/** The profile's personal columns (PROFILE_PERSONAL, in SQL): what a profile from before encryption holds in clear. */
const PROFILE_COLUMNS = ['company_name', 'registration_number', 'email', 'street', 'street_en', 'town', 'town_en', 'state'] as const;
type ClearProfile = { customer_id: string; partner_id: string; environment: Environment } & Record<(typeof PROFILE_COLUMNS)[number], string | null>;

/** Whether a stored profile value still needs sealing: set, in clear, and not already erased. */
const inClear = (value: string | null): value is string => !!value && !isSealed(value) && value !== REDACTED;

/** Seals the company data of business profiles recorded before encryption at rest (SKIP LOCKED batches, as above). */
async function sealClearProfiles(em: EntityManager, dataKeys: DataKeys): Promise<number> {
  return em.transactional(async (tx) => {
    const clear = PROFILE_COLUMNS.map((c) => `(${c} not like 'v1:%' and ${c} <> '${REDACTED}' and ${c} <> '')`).join(' or ');
    const rows = await tx.execute<ClearProfile[]>(
      `select customer_id, partner_id, environment, ${PROFILE_COLUMNS.join(', ')} from business_profiles where ${clear} limit ? for update skip locked`,
      [BATCH],
    );
    for (const row of rows) {
      scopeTo(tx, { partnerId: row.partner_id, environment: row.environment });
      const sealed = await Promise.all(PROFILE_COLUMNS.map(async (c) => (inClear(row[c]) ? dataKeys.seal(tx, row.customer_id, row[c]) : row[c])));
      await tx.execute(`update business_profiles set ${PROFILE_COLUMNS.map((c) => `${c} = ?`).join(', ')} where customer_id = ?`, [...sealed, row.customer_id]);
    }
    return rows.length;
  });
}

export const kybKeyJobs = (dataKeys: DataKeys): Job[] => [
  { name: 'seal-clear-directors', batchSize: BATCH, run: (em) => sealClearRepresentatives(em, dataKeys) },
  { name: 'seal-clear-business-profiles', batchSize: BATCH, run: (em) => sealClearProfiles(em, dataKeys) },
];
