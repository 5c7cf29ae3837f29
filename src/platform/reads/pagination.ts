import { z } from 'zod';
import { ValidationError, fieldError } from '../../domain/errors.js';
import { pageCursorCodec } from './page-cursor-codec.js';
import { sealer } from '../security/sealed.js';

/** A page request as Pothos's resolveCursorConnection hands it over: the client's cursors, as they came. */
export interface CursorPage {
  after?: string | null;
  before?: string | null;
  limit: number;
  inverted: boolean;
}

/** Where a row stands in a list ordered by (created_at, id). */
export interface Position {
  createdAt: Date;
  id: string;
}

/** A page request in keyset form: the positions its cursors named, opened (below). */
export interface KeysetPage extends Omit<CursorPage, 'after' | 'before'> {
  after?: Position | null;
  before?: Position | null;
}

/**
 * What a page cursor is bound to: the tenant it was handed to, and the list it names a place in (a
 * connection of the schema, `TransferConnection`). Every list is ordered by (created_at, id), and no filter
 * changes that order, so a place in the list holds whatever filters the next page is asked with.
 */
export interface CursorBinding {
  partnerId: string;
  environment: string;
  list: string;
}

/**
 * Cursors of keyset pages: a row's position bound to its binding, so a cursor of another list (a customers cursor
 * given to transfers), another tenant or key, or a changed or made-up one is refused as `invalid_cursor`. The position
 * is under a pad (the node's own createdAt and id, which the client sees anyway); what binds it is a MAC, a page's made
 * together (platform/reads/page-cursor-codec.ts), because a page of 100 edges makes 100 cursors and Relay clients ask for all.
 */
export interface PageCursors {
  cursorOf(binding: CursorBinding, row: Position): string;
  /** The cursors of a page's rows, made together (a page's tags cost what one does). */
  cursorsOf(binding: CursorBinding, rows: readonly Position[]): string[];
  /** The position `cursor` names; a ValidationError `invalid_cursor` on the argument at `pointer` when it is not one of this binding's. */
  positionOf(binding: CursorBinding, cursor: string, pointer: string): Position;
}

/** The contents of a page cursor: created_at in milliseconds (int64) and the id's 16 bytes. */
const MILLIS_BYTES = 8;
const POSITION_BYTES = MILLIS_BYTES + 16;

/** A row's position as a cursor holds it: the int64 of its milliseconds, then its id's 16 bytes. */
function contentsOf(row: Position): Buffer {
  const contents = Buffer.allocUnsafe(POSITION_BYTES);
  // The int64 as two words: the same bytes as writeBigInt64BE for any time after 1970, without a BigInt per edge.
  const millis = row.createdAt.getTime();
  contents.writeUInt32BE(Math.floor(millis / 2 ** 32), 0);
  contents.writeUInt32BE(millis % 2 ** 32, 4);
  contents.write(row.id.replaceAll('-', ''), MILLIS_BYTES, 'hex');
  return contents;
}

export function pageCursors(key: Buffer): PageCursors {
  const codec = pageCursorCodec(key, POSITION_BYTES);
  // Cursors handed out before the codec above, sealed per edge (AES-SIV-like): still taken back, so an upgrade never
  // breaks a client's paging. Only a cursor the new codec refuses pays for this.
  const earlier = sealer(key, 'ramp page cursor');
  const contextOf = (b: CursorBinding) => `${b.partnerId}/${b.environment}/${b.list}/`;
  return {
    cursorOf(binding, row) {
      return codec.seal(contextOf(binding), contentsOf(row));
    },
    cursorsOf(binding, rows) {
      return codec.sealMany(contextOf(binding), rows.map(contentsOf));
    },
    positionOf(binding, cursor, pointer) {
      const context = contextOf(binding);
      const contents = codec.open(context, cursor) ?? earlier.open(context, cursor, POSITION_BYTES);
      if (!contents) throw new ValidationError([fieldError(pointer, 'invalid_cursor', 'is not a cursor this connection returned')]);
      const hex = contents.toString('hex', MILLIS_BYTES);
      const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
      return { createdAt: new Date(Number(contents.readBigInt64BE())), id };
    },
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
