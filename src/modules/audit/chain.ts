import type { EntityManager } from '@mikro-orm/sql';
import { createHash } from 'node:crypto';

/**
 * The audit log's hash chain, verified from outside the database: every link is recomputed here from the rows, with
 * the encoding the sealing function (`audit_seal`, migration 20261128100000) hashes. A row's text is each field as
 * `<bytes>:<value>` (`-` for null), comma separated, its time in microseconds since the epoch; its link's hash is
 * sha256(previous hash || `<position>,<occurred_at µs>,<row digest hex>`), the first link's previous hash 32 zero bytes.
 */
export type ChainFindingKind = 'missing_link' | 'broken_link' | 'link_changed' | 'missing_row' | 'row_changed' | 'unlinked_row';

export interface ChainFinding {
  kind: ChainFindingKind;
  partnerId: string;
  environment: string;
  /** The link's position in its chain; null for a row no link names. */
  position: number | null;
  auditEventId: string | null;
  detail: string;
}

/** The newest link of one partner's chain in one environment: what an operator records to catch a rewrite later. */
export interface ChainHead {
  partnerId: string;
  environment: string;
  position: number;
  hash: string;
}

/** A head recorded earlier: the chain must still have that hash at that position. */
export type ExpectedHead = ChainHead;

export interface ChainReport {
  links: number;
  heads: ChainHead[];
  findings: ChainFinding[];
}

export interface VerifyOptions {
  /** Rows older than this and not linked are findings: the sealing job should have linked them. */
  graceSeconds: number;
  expected?: readonly ExpectedHead[];
}

const PAGE = 2000;
const GENESIS = '00'.repeat(32);
const MICROS = (column: string) => `((extract(epoch from ${column}) * 1000000)::bigint)::text`;

interface LinkRow {
  partner_id: string;
  environment: string;
  position: string;
  link_micros: string;
  row_digest: string;
  previous_hash: string;
  hash: string;
  audit_event_id: string;
  trimmed: boolean;
  /** The row's fields, in the encoding's order, as text; null when the row is gone. */
  fields: (string | null)[] | null;
}

const ROW_FIELDS = [
  'e.id::text',
  'e.partner_id::text',
  'e.environment',
  'e.action',
  'e.outcome',
  'e.code',
  'e.replayed::text',
  'e.entity_type',
  'e.entity_id',
  'e.actor_type',
  'e.api_key_id::text',
  'e.api_key_prefix',
  'e.ip',
  'e.user_agent',
  'e.request_id',
  MICROS('e.occurred_at'),
];

/** Where the row's time is among its fields: the link repeats it, and the two must agree. */
const TIME_FIELD = ROW_FIELDS.length - 1;

/**
 * Each link with its row, when the row is still there. A missing row counts as trimmed only when older than what a trim
 * took and than the floor no trim goes below: the state row is the owner's to move.
 */
const LINKS = `select c.partner_id::text as partner_id, c.environment, c.position::text as position, ${MICROS('c.occurred_at')} as link_micros,
    encode(c.row_digest, 'hex') as row_digest, encode(c.previous_hash, 'hex') as previous_hash, encode(c.hash, 'hex') as hash,
    c.audit_event_id::text as audit_event_id,
    c.occurred_at < least((select trimmed_before from audit_log_state), now() - interval '30 days') as trimmed,
    case when e.id is null then null else array[${ROW_FIELDS.join(', ')}] end as fields
  from audit_chain c left join audit_events e on e.id = c.audit_event_id
  where (c.partner_id, c.environment, c.position) > (?::uuid, ?, ?::bigint)
  order by c.partner_id, c.environment, c.position limit ${PAGE}`;

const UNLINKED = `select e.id::text as id, e.partner_id::text as partner_id, e.environment, e.occurred_at::text as occurred_at from audit_events e
  where e.occurred_at < now() - make_interval(secs => ?) and not exists (select 1 from audit_chain c where c.audit_event_id = e.id)
  order by e.occurred_at, e.id limit 1000`;

const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest('hex');
const field = (value: string | null) => (value === null ? '-' : `${Buffer.byteLength(value)}:${value}`);

/** sha256 of a row's canonical text, hex. */
export const rowDigest = (fields: readonly (string | null)[]) => sha256(Buffer.from(fields.map(field).join(','), 'utf8'));

/** A link's hash, hex, from the previous one and what the link commits to. */
export const linkHash = (previousHash: string, position: number, micros: string, digest: string) =>
  sha256(Buffer.from(previousHash, 'hex'), Buffer.from(`${position},${micros},${digest}`, 'utf8'));

/** Walks every chain link by link, then looks for rows the chain should have linked and has not. */
export async function verifyAuditChain(em: EntityManager, options: VerifyOptions): Promise<ChainReport> {
  const findings: ChainFinding[] = [];
  const heads: ChainHead[] = [];
  const expected = new Map((options.expected ?? []).map((head) => [`${head.partnerId}/${head.environment}/${head.position}`, head.hash]));
  let links = 0;
  let head: ChainHead | null = null;
  let after: [string, string, string] = ['00000000-0000-0000-0000-000000000000', '', '0'];
  for (;;) {
    const page = await em.execute<LinkRow[]>(LINKS, after);
    for (const link of page) {
      links++;
      if (!head || head.partnerId !== link.partner_id || head.environment !== link.environment) {
        if (head) heads.push(head);
        head = { partnerId: link.partner_id, environment: link.environment, position: 0, hash: GENESIS };
      }
      findings.push(...checkLink(link, head));
      const position = Number(link.position);
      const recorded = expected.get(`${link.partner_id}/${link.environment}/${position}`);
      if (recorded !== undefined && recorded !== link.hash) {
        findings.push(finding('link_changed', link, `the chain was rewritten: position ${position} was recorded as ${recorded}, it is now ${link.hash}`));
      }
      expected.delete(`${link.partner_id}/${link.environment}/${position}`);
      head = { ...head, position, hash: link.hash };
    }
    if (page.length < PAGE) break;
    const last = page.at(-1)!;
    after = [last.partner_id, last.environment, last.position];
  }
  if (head) heads.push(head);
  for (const [where, hash] of expected) {
    const [partnerId = '', environment = '', position = '0'] = where.split('/');
    findings.push({
      kind: 'missing_link',
      partnerId,
      environment,
      position: Number(position),
      auditEventId: null,
      detail: `the recorded head ${hash} is no longer in the chain`,
    });
  }
  const unlinked = await em.execute<{ id: string; partner_id: string; environment: string; occurred_at: string }[]>(UNLINKED, [options.graceSeconds]);
  for (const row of unlinked) {
    findings.push({
      kind: 'unlinked_row',
      partnerId: row.partner_id,
      environment: row.environment,
      position: null,
      auditEventId: row.id,
      detail: `a row of ${row.occurred_at} is old enough to be linked and is not: inserted behind the chain's back, or the sealing job is not running`,
    });
  }
  return { links, heads, findings };
}

const finding = (kind: ChainFindingKind, link: LinkRow, detail: string): ChainFinding => ({
  kind,
  partnerId: link.partner_id,
  environment: link.environment,
  position: Number(link.position),
  auditEventId: link.audit_event_id,
  detail,
});

/** What is wrong with one link, given the link before it in its chain. */
function checkLink(link: LinkRow, previous: ChainHead): ChainFinding[] {
  const found: ChainFinding[] = [];
  const position = Number(link.position);
  if (position !== previous.position + 1) {
    found.push(finding('missing_link', link, `positions ${previous.position + 1} to ${position - 1} are missing`));
  }
  if (link.previous_hash !== previous.hash) {
    found.push(finding('broken_link', link, `it names ${link.previous_hash} as the previous hash, the previous link's is ${previous.hash}`));
  }
  if (linkHash(link.previous_hash, position, link.link_micros, link.row_digest) !== link.hash) {
    found.push(finding('link_changed', link, 'its hash is not the hash of what it links'));
  }
  if (link.fields === null) {
    if (!link.trimmed) found.push(finding('missing_row', link, 'its row is gone and was younger than anything the retention trimmed'));
  } else if (rowDigest(link.fields) !== link.row_digest || link.fields[TIME_FIELD] !== link.link_micros) {
    found.push(finding('row_changed', link, 'its row is not the row it linked'));
  }
  return found;
}
