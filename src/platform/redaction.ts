/**
 * Erasure's plumbing, knowing no feature: what erased personal data reads as, and how a copy of it
 * kept elsewhere (an event's payload, a stored response, a receiver's answer) is found and blanked.
 */
import type { EntityManager } from '@mikro-orm/sql';
import { REDACTED } from '../domain/redaction.js';

export { REDACTED };

/**
 * Whether a value is also looked for inside longer text, not only as a whole string: not when short (a
 * two-letter name would blank half a line), nor a short run of digits (a postal code inside an amount).
 */
const searchedInside = (value: string) => value.length >= 4 && !/^[0-9\s]{1,7}$/.test(value);

/** The erased values, as one matcher: whole strings compare case-insensitively, text is searched for the longer ones. */
export class ErasedValues {
  private readonly whole: Set<string>;
  private readonly searched: string[];

  constructor(values: Iterable<string | null | undefined>) {
    const kept = [...values].map((v) => v?.trim().toLowerCase() ?? '').filter((v) => v && v !== REDACTED.toLowerCase());
    this.whole = new Set(kept);
    this.searched = [...this.whole].filter(searchedInside).sort((a, b) => b.length - a.length);
  }

  get size(): number {
    return this.whole.size;
  }

  /** LIKE patterns (case folded) that find a row whose text holds any erased value. */
  likePatterns(): string[] {
    return [...this.whole].map((v) => `%${v.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }

  /** Whether `text` is, or holds, an erased value. */
  matches(text: string): boolean {
    const folded = text.trim().toLowerCase();
    return this.whole.has(folded) || this.searched.some((v) => folded.includes(v));
  }

  /** Free text with every erased value in it replaced. */
  blankText(text: string): string {
    let out = text;
    for (const value of this.searched) out = out.replace(new RegExp(escapeRegExp(value), 'gi'), REDACTED);
    return this.whole.has(out.trim().toLowerCase()) ? REDACTED : out;
  }

  /** A JSON value with every string that is, or holds, an erased value replaced by `[redacted]` (keys kept). */
  blankJson(value: unknown): unknown {
    if (typeof value === 'string') return this.matches(value) ? REDACTED : value;
    if (Array.isArray(value)) return value.map((v) => this.blankJson(v));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.blankJson(v)]));
    }
    return value;
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where erased values may have been copied: a table's columns (text, json or jsonb), the rows a condition narrows to. */
export interface CopiesOfPersonalData {
  table: string;
  /** The columns that name one row (its primary key). */
  key: readonly string[];
  columns: readonly { name: string; type: 'text' | 'json' | 'jsonb' }[];
  /** SQL narrowing the rows (the tenant, at least), with its parameters. */
  where: string;
  params: readonly unknown[];
}

/**
 * Blanks every copy of an erased value in these columns, in the caller's transaction: finds the rows whose
 * text holds one (a scan of the narrowed rows: erasure is rare, and needs no index of personal data), then
 * rewrites each column value through `blankJson` / `blankText`. Returns how many rows changed.
 */
export async function blankCopies(em: EntityManager, copies: CopiesOfPersonalData, erased: ErasedValues): Promise<number> {
  if (!erased.size) return 0;
  const patterns = erased.likePatterns();
  const holds = copies.columns.flatMap((c) => patterns.map(() => `lower(${c.name}::text) like ?`)).join(' or ');
  const rows = await em.execute<Record<string, unknown>[]>(
    `select ${[...copies.key, ...copies.columns.map((c) => c.name)].join(', ')} from ${copies.table} where (${copies.where}) and (${holds}) for update`,
    [...copies.params, ...copies.columns.flatMap(() => patterns)],
  );
  for (const row of rows) {
    const values = copies.columns.map((c) => {
      const value = row[c.name];
      if (value === null || value === undefined) return null;
      if (c.type === 'text') return erased.blankText(String(value));
      // A json column keeps its bytes (key order) when read back as text by the driver: parse it here.
      return JSON.stringify(erased.blankJson(typeof value === 'string' ? JSON.parse(value) : value));
    });
    const sets = copies.columns.map((c) => `${c.name} = ?${c.type === 'text' ? '' : `::${c.type}`}`).join(', ');
    const keys = copies.key.map((k) => `${k} = ?`).join(' and ');
    await em.execute(`update ${copies.table} set ${sets} where ${keys}`, [...values, ...copies.key.map((k) => row[k])]);
  }
  return rows.length;
}
