/**
 * Erasure's plumbing, knowing no feature: what erased personal data reads as, and how the copies of one customer's
 * data kept elsewhere (an event's payload and subject, a stored answer, a receiver's answer) are rewritten.
 *
 * Copies are found by the customer they name (a `customer_id` beside them), never by searching text for a value:
 * a search misses a value once JSON escapes it (a `"` or `\` in a name) and blanks another customer's equal one.
 * Each copy is parsed and rewritten as JSON: personal fields by their name, and any other string that is, or holds,
 * one of the customer's erased values; ids and amounts are never touched, so the books still read.
 */
import type { EntityManager } from '@mikro-orm/sql';
import { REDACTED } from '../../domain/redaction.js';

export { REDACTED };

/** Field names (lower-cased, without `_`) whose string values are personal data wherever they appear in a copy. */
const PERSONAL_FIELDS = new Set([
  'email',
  'useremail',
  'firstname',
  'lastname',
  'companyname',
  'businessname',
  'accountholderfirstname',
  'accountholderlastname',
  'accountholderbusinessname',
  'accountholdername',
  'phone',
  'phonenumber',
  'dob',
  'dateofbirth',
  'taxnumber',
  'registrationnumber',
  'documentno',
  'street',
  'streeten',
  'town',
  'townen',
]);
/** Objects that are an address: every string in them but the country is personal (the country identifies no one). */
const ADDRESS_FIELDS = new Set(['address', 'accountholderaddress']);
const COUNTRY_FIELDS = new Set(['country', 'countrycode']);
/** What the books read: ids, amounts, statuses and times are never rewritten, even when one equals an erased value. */
const KEPT_FIELD = /(^|_)(id|ids|cursor|amount|fee|fees|rate|currency|status|type|network|chain)$|(Id|Ids|Amount|At)$|_at$/;

const fieldName = (key: string) => key.toLowerCase().replaceAll('_', '');

/**
 * Whether a value is also looked for inside longer text, not only as a whole string: not when short (a
 * two-letter name would blank half a line), nor a short run of digits (a postal code inside an amount).
 */
const searchedInside = (value: string) => value.length >= 4 && !/^[0-9\s]{1,7}$/.test(value);

/** The customer's erased values, as one matcher: whole strings compare case-insensitively, text is searched for the longer ones. */
export class ErasedValues {
  private readonly whole: Set<string>;
  private readonly searched: string[];

  constructor(values: Iterable<string | null | undefined>) {
    const kept = [...values].map((v) => v?.trim().toLowerCase() ?? '').filter((v) => v && v !== REDACTED.toLowerCase());
    this.whole = new Set(kept);
    // Text that was JSON once (a receiver's answer, an error quoting one) holds a value escaped: looked for both ways.
    const escaped = kept.map((v) => JSON.stringify(v).slice(1, -1));
    this.searched = [...new Set([...kept, ...escaped])].filter(searchedInside).sort((a, b) => b.length - a.length);
  }

  /** Whether `text` is, or holds, an erased value. */
  matches(text: string): boolean {
    const folded = text.trim().toLowerCase();
    return this.whole.has(folded) || this.searched.some((v) => folded.includes(v));
  }

  /** Free text with every erased value in it (in clear or JSON-escaped) replaced. */
  blankText(text: string): string {
    let out = text;
    for (const value of this.searched) out = out.replace(new RegExp(escapeRegExp(value), 'gi'), REDACTED);
    return this.whole.has(out.trim().toLowerCase()) ? REDACTED : out;
  }

  /** A JSON value with its personal fields, and every other string that is or holds an erased value, read `[redacted]`. */
  blankJson(value: unknown, field = ''): unknown {
    const name = fieldName(field);
    if (typeof value === 'string') {
      if (KEPT_FIELD.test(field) || value === REDACTED) return value;
      return PERSONAL_FIELDS.has(name) || this.matches(value) ? REDACTED : value;
    }
    if (Array.isArray(value)) return value.map((v) => this.blankJson(v, field));
    if (value && typeof value === 'object') {
      const address = ADDRESS_FIELDS.has(name);
      const blank = (k: string, v: unknown) => (address && typeof v === 'string' && !COUNTRY_FIELDS.has(fieldName(k)) ? REDACTED : this.blankJson(v, k));
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, blank(k, v)]));
    }
    return value;
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * How a column holds a copy: `json`/`jsonb`, ours and parsed; `answer`, text someone else wrote (a receiver's
 * answer), parsed when it is JSON and otherwise replaced whole (cut short, a value in it may be cut too); `text`, a
 * sentence of ours, its erased values replaced.
 */
export type CopyColumn = { name: string; type: 'text' | 'answer' | 'json' | 'jsonb' };

/** Where one customer's copies are: a table's columns, and the condition that picks that customer's rows. */
export interface CopiesOfCustomer {
  table: string;
  /** The columns that name one row (its primary key). */
  key: readonly string[];
  columns: readonly CopyColumn[];
  /** SQL picking the customer's rows by their customer reference (and the tenant), with its parameters. */
  where: string;
  params: readonly unknown[];
}

/** One column's value rewritten for erasure. */
function rewritten(column: CopyColumn, value: unknown, erased: ErasedValues): unknown {
  if (value === null || value === undefined) return null;
  if (column.type === 'text') return erased.blankText(String(value));
  if (column.type === 'answer') {
    try {
      return JSON.stringify(erased.blankJson(JSON.parse(String(value))));
    } catch {
      return REDACTED;
    }
  }
  // A json column keeps its bytes (key order) when read back as text by the driver: parse it here.
  return JSON.stringify(erased.blankJson(typeof value === 'string' ? JSON.parse(value) : value));
}

/**
 * Rewrites every copy the condition picks (one customer's), in the caller's transaction, and returns how many rows
 * it rewrote (a scan of that customer's rows only: erasure is rare, and needs no index of personal data). Rows are locked as they are read, so a delivery finishing meanwhile writes before or after, never between.
 */
export async function blankCopies(em: EntityManager, copies: CopiesOfCustomer, erased: ErasedValues): Promise<number> {
  const rows = await em.execute<Record<string, unknown>[]>(
    `select ${[...copies.key, ...copies.columns.map((c) => c.name)].join(', ')} from ${copies.table} where ${copies.where} for update`,
    [...copies.params],
  );
  for (const row of rows) {
    const values = copies.columns.map((c) => rewritten(c, row[c.name], erased));
    const sets = copies.columns.map((c) => `${c.name} = ?${c.type === 'json' || c.type === 'jsonb' ? `::${c.type}` : ''}`).join(', ');
    const keys = copies.key.map((k) => `${k} = ?`).join(' and ');
    await em.execute(`update ${copies.table} set ${sets} where ${keys}`, [...values, ...copies.key.map((k) => row[k])]);
  }
  return rows.length;
}
