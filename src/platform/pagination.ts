import { z } from 'zod';
import { ValidationError, fieldError } from '../domain/errors.js';
import { isUuid } from '../domain/identifiers/uuid.js';

/** A page request in keyset form, as Pothos's resolveCursorConnection hands it over. */
export interface KeysetPage {
  after?: string | null;
  before?: string | null;
  limit: number;
  inverted: boolean;
}

interface Positioned {
  createdAt: Date;
  id: string;
}

/** Opaque cursor of a row ordered by (created_at, id). */
export const cursorOf = (row: Positioned) => Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');

/** The position a cursor of ours names; a forged one is a 400 on the argument at `pointer`. */
export function decodeCursor(cursor: string, pointer: string): { createdAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(at ?? '');
  const year = createdAt.getUTCFullYear();
  // A forged cursor must be refused here, not reach PostgreSQL as a bad uuid or an out-of-range timestamp.
  if (!id || !isUuid(id) || Number.isNaN(year) || year < 1970 || year > 9999) {
    throw new ValidationError([fieldError(pointer, 'invalid_cursor', 'is not a cursor this API returned')]);
  }
  return { createdAt, id };
}

/**
 * MikroORM filter and order for one page: rows after `after` and before `before`, oldest first
 * (or newest first when the client pages backwards), for the lists read as entities. The typed reads
 * of the modules' query files take the same page through `keyset` (platform/queries.ts).
 */
export function keysetQuery(page: KeysetPage) {
  const conditions: object[] = [];
  if (page.after) {
    const c = decodeCursor(page.after, '/after');
    conditions.push({ $or: [{ createdAt: { $gt: c.createdAt } }, { createdAt: c.createdAt, id: { $gt: c.id } }] });
  }
  if (page.before) {
    const c = decodeCursor(page.before, '/before');
    conditions.push({ $or: [{ createdAt: { $lt: c.createdAt } }, { createdAt: c.createdAt, id: { $lt: c.id } }] });
  }
  const direction = page.inverted ? ('desc' as const) : ('asc' as const);
  return {
    where: conditions.length ? { $and: conditions } : {},
    orderBy: { createdAt: direction, id: direction },
    limit: page.limit,
  };
}

/** Most records a REST list skips; deeper than this, filter instead of paging. */
export const MAX_SKIP = 10_000;
const WHOLE_NUMBER = z.string().refine((v) => /^-?[0-9]+$/.test(v), { message: 'must be a whole number', params: { code: 'invalid_type' }, abort: true });
// Bounds first and final: past 2^53 a number is only too big, not also "not an integer". The pipe's output is what
// the OpenAPI document shows (`type: integer` with its bounds).
const bounded = (min: number, max: number) => z.number().min(min, { abort: true }).max(max, { abort: true }).int();

/**
 * A whole number in a query string, `min`–`max`. Text that is no whole number is `invalid_type` ("must be a whole
 * number"), as the OpenAPI document's `type: integer` says and as a JSON body's number field answers; a number out of
 * bounds is `too_small`/`too_big`. (A pattern check reported `invalid_regex`, which told a client nothing.)
 */
export const wholeNumberParameter = (min: number, max: number) => WHOLE_NUMBER.transform(Number).pipe(bounded(min, max));

const wholeNumber = (min: number, max: number, fallback: number) =>
  WHOLE_NUMBER.optional()
    .transform((v) => (v === undefined ? fallback : Number(v)))
    .pipe(bounded(min, max));

/** `limit` 1–100 (default 20) and `skip` 0–10000 (default 0) of every REST list; anything else is a 400. */
export const OffsetPageQuery = z.object({
  limit: wholeNumber(1, 100, 20),
  skip: wholeNumber(0, MAX_SKIP, 0),
});
/** A page of a REST list by offset: `limit` items after the first `skip`. */
export type OffsetPage = z.output<typeof OffsetPageQuery>;
