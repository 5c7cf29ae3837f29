import type { EntityManager } from '@mikro-orm/sql';
import type { Job } from '../runtime/jobs.js';
import { createHash, randomUUID } from 'node:crypto';
import type { Actor } from '../../domain/environment.js';
import { ConflictError, UnprocessableError, ValidationError, fieldError } from '../../domain/errors.js';
import { isDatabaseUnavailable } from '../db/database-errors.js';
import { type ErasedValues, blankCopies } from '../security/redaction.js';
import { isAcceptableText, refusedTextError } from '../../domain/validation.js';

/** What a use case answered: stored under the key and replayed on a repeat. */
export interface IdempotentResponse {
  status: number;
  body: unknown;
  /** The customer whose data the answer copies, if any: stored beside it, so erasure finds exactly that customer's answers. */
  customerId?: string | null;
}

/** What a face answers: the response, whether it is a replay, and (on a fresh run) the use case's own result. */
export interface IdempotentOutcome<T> extends IdempotentResponse {
  replayed: boolean;
  /** The use case's own result; absent on a replay. */
  result?: T;
}

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** A key whose first request died this long ago may be used again. */
const ABANDONED_AFTER = '2 minutes';
const RETENTION = '24 hours';

/** Method, route and body: a repeat with the same key must match all three. */
export function fingerprint(operation: string, input: unknown): string {
  return createHash('sha256').update(operation).update('\0').update(stableJson(input)).digest('hex');
}

/** Text written as is between the values stableJson visits. */
class Token {
  constructor(readonly text: string) {}
}

/**
 * JSON with object keys sorted, so key order does not change the fingerprint. Iterative: a body
 * nested thousands deep must not exhaust the stack (the HTTP layer bounds depth too; GraphQL JSON
 * arguments arrive without that bound).
 */
function stableJson(value: unknown): string {
  const out: string[] = [];
  const pending: unknown[] = [value];
  while (pending.length) {
    const item = pending.pop();
    if (item instanceof Token) out.push(item.text);
    else if (Array.isArray(item)) pending.push(new Token(']'), ...joined(item.map((v) => [v])), new Token('['));
    else if (item && typeof item === 'object') {
      const entries = Object.entries(item as Record<string, unknown>).filter(([, v]) => v !== undefined);
      entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      pending.push(new Token('}'), ...joined(entries.map(([k, v]) => [new Token(`${JSON.stringify(k)}:`), v])), new Token('{'));
    } else out.push(JSON.stringify(item) ?? 'null');
  }
  return out.join('');
}

/** Parts separated by commas, in reverse order for a stack. */
function joined(parts: unknown[][]): unknown[] {
  return parts.flatMap((part, i) => (i === 0 ? part : [new Token(','), ...part])).reverse();
}

const KEY_POINTER = '/headers/idempotency-key';
/** An RFC 8941 sf-string: printable ASCII in double quotes, `"` and `\\` escaped with a backslash. */
const SF_STRING = /^"((?:[\x20\x21\x23-\x5B\x5D-\x7E]|\\["\\])*)"$/;

/**
 * The Idempotency-Key header as the IETF draft (draft-ietf-httpapi-idempotency-key-header) writes
 * it: a structured-field string, `"8e03978e-…"`. A bare value is taken as it is, as most clients
 * send it. A header that is present but empty (or `""`) is a 400, never "no key": the client meant one.
 */
export function idempotencyKeyOfHeader(header: string | string[] | undefined, required: boolean): string | undefined {
  if (header === undefined) return checkIdempotencyKey(undefined, required);
  const value = (Array.isArray(header) ? header.join(', ') : header).trim();
  let key = value;
  if (value.startsWith('"')) {
    const quoted = SF_STRING.exec(value);
    if (!quoted) {
      throw new ValidationError(
        [fieldError(KEY_POINTER, 'invalid', 'must be a structured-field string: printable ASCII in double quotes, " and \\ escaped')],
        'The Idempotency-Key is not a valid structured-field string',
      );
    }
    key = quoted[1]!.replace(/\\(["\\])/g, '$1');
  }
  if (key === '') throw new ValidationError([fieldError(KEY_POINTER, 'empty', 'must not be empty')], 'The Idempotency-Key is empty');
  return checkIdempotencyKey(key, required);
}

export function checkIdempotencyKey(key: string | undefined, required: boolean): string | undefined {
  if (key === undefined || key === '') {
    if (!required) return undefined;
    throw new ValidationError(
      [fieldError(KEY_POINTER, 'required', 'The Idempotency-Key header is required for this request')],
      'The Idempotency-Key header is required',
      'idempotency_key_missing',
    );
  }
  if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw new ValidationError(
      [fieldError(KEY_POINTER, 'too_long', `must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`)],
      'The Idempotency-Key is too long',
    );
  }
  if (!isAcceptableText(key)) throw new ValidationError([refusedTextError(KEY_POINTER)], 'The Idempotency-Key holds refused characters');
  return key;
}

/**
 * What a face declares of a request it hands a use case: the key (none when the client sent none), the
 * fingerprint a repeat must match, and how the use case's result is kept as the answer a repeat replays.
 * The face puts it on the scope (`scope.idempotency`); the use case it calls claims the key, runs, and
 * stores the answer in its own unit of work (platform/use-cases/use-case.ts). A face never opens a transaction.
 */
export interface IdempotentRequest<T = never> {
  key: string | undefined;
  fingerprint: string;
  /** Rendered in the use case's transaction, right after its work: what the face answers now and a repeat replays. */
  answer: (result: T) => IdempotentResponse | Promise<IdempotentResponse>;
}

/** A declared request on its way through one use case: taken by the first that opens its unit of work, answered there. */
export class DeclaredRequest {
  taken = false;
  answered: IdempotentResponse | undefined;
  /** The result the answer was rendered from: the face must get this very result back, or it rendered from another. */
  answeredFrom: unknown;
  constructor(readonly request: IdempotentRequest<unknown>) {}
}

/**
 * Thrown by a use case whose key already completed: it did not run, and the face answers what was stored
 * (REST: that body with `Idempotent-Replayed: true`; GraphQL: the stored resource loaded again).
 */
export class Replayed extends Error {
  constructor(readonly answer: IdempotentResponse) {
    super('replayed: the request with this Idempotency-Key already completed');
    this.name = 'Replayed';
  }
}

/**
 * Runs `call` (a face calling one use case) with `request` declared on its scope: a fresh run answers what
 * the use case rendered and stored, a completed key what was stored the first time. A call that reached no
 * use case's unit of work is a bug of the face or the service (the key would be neither claimed nor stored).
 * `S` is the caller's `Scope` (scope.ts), named by its shape: the scope carries the declared request, so scope.ts
 * imports this file and this one does not import it back.
 */
export async function answerDeclared<T, S extends { em: EntityManager; idempotency?: DeclaredRequest }>(
  scope: S,
  request: IdempotentRequest<T>,
  call: (scope: NoInfer<S>) => Promise<T>,
): Promise<IdempotentOutcome<T>> {
  const declared = new DeclaredRequest(request as IdempotentRequest<unknown>);
  try {
    const result = await call({ ...scope, idempotency: declared });
    if (!declared.answered) throw new Error('a request declared idempotent reached no use case: its key was neither claimed nor stored');
    if (declared.answeredFrom !== result) throw new Error("a face's call must return its use case's result as is: the answer was rendered from that");
    return { ...declared.answered, replayed: false, result };
  } catch (error) {
    if (error instanceof Replayed) return { ...error.answer, replayed: true };
    throw error;
  }
}

/** A claimed key: the use case stores its answer under the claim in its transaction, or releases the key when it fails. */
export interface ClaimedKey {
  store(tx: EntityManager, answer: IdempotentResponse): Promise<void>;
  release(): Promise<void>;
}

/**
 * Claims the key in its own committed statement, so a concurrent repeat sees it in flight (409
 * `idempotency_key_in_use`); a key stored for another request is 422 `idempotency_key_reused`; a
 * completed one throws Replayed with the stored answer. A key abandoned by a request that died
 * (in flight past ABANDONED_AFTER) or past its retention is claimed afresh.
 */
export async function claimKey(em: EntityManager, actor: Actor, request: { key: string; fingerprint: string }): Promise<ClaimedKey> {
  const scope = [actor.partnerId, actor.environment, request.key];
  for (let attempt = 0; attempt < 3; attempt++) {
    const claim = randomUUID();
    const claimed = await em.execute(
      `insert into idempotency_keys (partner_id, environment, key, fingerprint, state, claim_token, locked_at, created_at)
       values (?, ?, ?, ?, 'in_progress', ?, now(), now())
       on conflict (partner_id, environment, key) do update
         set fingerprint = excluded.fingerprint, state = 'in_progress', claim_token = excluded.claim_token,
             locked_at = now(), created_at = now(), response_status = null, response_body = null
         where idempotency_keys.created_at < now() - interval '${RETENTION}'
            or (idempotency_keys.state = 'in_progress' and idempotency_keys.locked_at < now() - interval '${ABANDONED_AFTER}')
       returning key`,
      [...scope, request.fingerprint, claim],
    );
    if (claimed.length === 1) return claimedKey(em, scope, claim);

    const [stored] = await em.execute<{ fingerprint: string; state: string; response_status: number; response_body: unknown }[]>(
      'select fingerprint, state, response_status, response_body from idempotency_keys where partner_id = ? and environment = ? and key = ?',
      scope,
    );
    if (!stored) continue; // the first request failed and released the key meanwhile: try to claim it again
    if (stored.fingerprint !== request.fingerprint) {
      throw new UnprocessableError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request; use a new key for a new request');
    }
    if (stored.state === 'in_progress') {
      throw new ConflictError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed; retry later');
    }
    throw new Replayed({ status: stored.response_status, body: stored.response_body });
  }
  throw new ConflictError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed; retry later');
}

function claimedKey(em: EntityManager, scope: string[], claim: string): ClaimedKey {
  return {
    async store(tx, answer) {
      const stored = await tx.execute(
        `update idempotency_keys set state = 'completed', response_status = ?, response_body = ?::json, customer_id = ?
         where partner_id = ? and environment = ? and key = ? and claim_token = ? returning key`,
        [answer.status, JSON.stringify(answer.body ?? null), answer.customerId ?? null, ...scope, claim],
      );
      // Taken over while this request stalled: the other request owns the key; undo this one's work.
      if (stored.length === 0) throw keyTakenOver();
    },
    async release() {
      const release = () =>
        em.execute(`delete from idempotency_keys where partner_id = ? and environment = ? and key = ? and state = 'in_progress' and claim_token = ?`, [
          ...scope,
          claim,
        ]);
      // In an outage the release fails too; keep trying in the background so the client's retry with the
      // same key runs once the database is back instead of answering idempotency_key_in_use for minutes.
      await release().catch((releaseError) => {
        if (!isDatabaseUnavailable(releaseError)) throw releaseError;
        retryInBackground(release);
      });
    },
  };
}

const RELEASE_RETRY_MS = 500;
const RELEASE_RETRY_FOR_MS = 60_000;

function retryInBackground(release: () => Promise<unknown>, since = Date.now()) {
  setTimeout(() => {
    release().catch(() => {
      if (Date.now() - since < RELEASE_RETRY_FOR_MS) retryInBackground(release, since);
    });
  }, RELEASE_RETRY_MS).unref();
}

const keyTakenOver = () =>
  new ConflictError('idempotency_key_in_use', 'This request took too long and its Idempotency-Key was taken over by a retry; nothing was changed');

const PURGE_BATCH = 1000;

/** Keys are kept 24 hours; older ones are deleted in batches by the job runner. */
export const purgeExpiredIdempotencyKeys: Job = {
  name: 'purge-idempotency-keys',
  batchSize: PURGE_BATCH,
  async run(em) {
    const deleted = await em.execute(
      `delete from idempotency_keys where ctid in (
         select ctid from idempotency_keys where created_at < now() - interval '${RETENTION}' limit ${PURGE_BATCH}
       ) returning 1`,
    );
    return deleted.length;
  },
};

/**
 * Erasure, in the caller's transaction: the customer's stored answers (those naming it) are rewritten without its
 * personal data, so a replay answers without it. The key, its fingerprint and status stay: a retry still replays
 * (now redacted) instead of running the request twice.
 */
export const blankStoredResponses = (em: EntityManager, actor: Actor, customerId: string, erased: ErasedValues) =>
  blankCopies(
    em,
    {
      table: 'idempotency_keys',
      key: ['partner_id', 'environment', 'key'],
      columns: [{ name: 'response_body', type: 'json' }],
      where: `customer_id = ? and partner_id = ? and environment = ? and state = 'completed'`,
      params: [customerId, actor.partnerId, actor.environment],
    },
    erased,
  );
