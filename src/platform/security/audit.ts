import type { EntityManager, EventSubscriber, FlushEventArgs, TransactionEventArgs } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { Actor, Environment } from '../../domain/environment.js';
import type { Logger } from 'pino';
import { failureLevel } from '../db/database-errors.js';

/**
 * The audit log's write path (decision 019). A state-changing call is an AuditCall the face makes (the REST route or
 * GraphQL mutation field, with the action its table names, and where the request came from) and hands to the use case
 * on its Scope; `useCase` opens the unit of work with it, and the first transaction of the call that changes something
 * (a flush with changes, an outbox event, a key issued or revoked) appends the call's row just before it commits, so
 * the row commits or rolls back with the change. A call that changed nothing inside a transaction (an idempotent
 * replay) and every refusal are recorded once the answer is decided (before it is sent), in a statement of their own.
 */
export type AuditOutcome = 'succeeded' | 'refused';
/** Who made the call: an API key, the keys CLI, or Ramp itself (the demo partner's first key). */
export type AuditActorType = 'api_key' | 'cli' | 'system';

export interface AuditEntity {
  type: string;
  id: string;
}

export interface AuditRow {
  partnerId: string;
  environment: Environment;
  action: string;
  outcome: AuditOutcome;
  code?: string | null;
  replayed?: boolean;
  entity?: AuditEntity | null;
  actorType: AuditActorType;
  apiKeyId?: string | null;
  apiKeyPrefix?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  requestId?: string | null;
}

/**
 * Refusals of a request's shape, whatever it asked for (decision 019): a body or arguments Ramp refuses to read, a
 * GraphQL document that is not a trusted one, or over a limit (tokens, depth, breadth, complexity, aliases, cost), or
 * sent on the wrong face. GraphQL's codes are written as the audit log writes every code, in snake case.
 */
export const REQUEST_SHAPE_REFUSALS: ReadonlySet<string> = new Set([
  'validation_failed',
  'bad_request',
  'malformed_json',
  'malformed_url',
  'body_too_deep',
  'unsupported_media_type',
  'payload_too_large',
  'persisted_query_only',
  'persisted_query_id_required',
  'persisted_query_not_in_list',
  'query_too_long',
  'query_depth',
  'query_breadth',
  'query_complexity',
  'query_aliases',
  'max_cost_exceeded',
  'throttled',
  'graphql_parse_failed',
  'graphql_validation_failed',
  'bad_user_input',
  'subscriptions_only',
  'subscriptions_require_websocket',
  'too_many_subscriptions',
]);

/** Refusals audited on reads too: a key used where it may not be (an IP allowlist, a missing scope), or a request Ramp refuses to read. */
export const REFUSALS_AUDITED_ON_READS: ReadonlySet<string> = new Set(['insufficient_scope', 'ip_not_allowed', ...REQUEST_SHAPE_REFUSALS]);

/**
 * Answers about Ramp's capacity, not the key's authority: the instance shed the request (`overloaded`), or the database
 * could not be reached. Never recorded: nothing was refused to the key, and the row would need the database at the
 * moment it is saturated or down, holding up an answer whose point is to be quick (decision 019).
 */
const CAPACITY_ANSWERS: ReadonlySet<string> = new Set(['overloaded', 'database_unavailable']);
export const isCapacityAnswer = (code: string | undefined): boolean => code !== undefined && CAPACITY_ANSWERS.has(code);

/** Where a call came from, as the HTTP layer saw it. */
export interface CallOrigin {
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
}

/** One state-changing call being audited. */
export interface AuditCall extends CallOrigin {
  actor: Actor;
  action: string;
  /** What the change was about: an outbox event's subject beats the first entity flushed. */
  entity?: AuditEntity & { fromEvent: boolean };
  replayed: boolean;
  /** A change was made in the open top-level transaction. */
  touched: boolean;
  /** The row is written in the open transaction, not yet committed. */
  pending: boolean;
  /** The row is committed: nothing more is written for this call. */
  recorded: boolean;
  /** The call has answered: work it left running is no longer its own. */
  closed: boolean;
}

export function newAuditCall(actor: Actor, action: string, origin: CallOrigin): AuditCall {
  return { ...origin, actor, action, replayed: false, touched: false, pending: false, recorded: false, closed: false };
}

/**
 * The call each open unit of work's transaction runs for, keyed by the transaction itself: `useCase` binds its scope's
 * call to the transaction it opens, and what runs in that transaction (the ORM's flush, the outbox, the key store) finds
 * the call there. Nothing is read from the request's async context: work on another transaction is never the call's.
 */
const callsOfTransactions = new WeakMap<object, AuditCall>();

const transactionOf = (em: EntityManager): object | undefined => (em.getTransactionContext() as object | null | undefined) ?? undefined;

/** The open call `em`'s transaction was opened for, if any. */
function callOfTransaction(em: EntityManager): AuditCall | undefined {
  const transaction = transactionOf(em);
  const call = transaction && callsOfTransactions.get(transaction);
  return call && !call.closed && !call.recorded ? call : undefined;
}

/** The write path tells the call of its transaction what changed (platform/messaging/outbox.ts: the event's subject). */
export function noteAuditedChange(em: EntityManager, entity?: AuditEntity): void {
  const call = callOfTransaction(em);
  if (!call) return;
  call.touched = true;
  if (entity && !call.entity?.fromEvent) call.entity = { ...entity, fromEvent: true };
}

/**
 * Runs `work` in a unit of work's transaction `tx` for `call` (platform/use-cases/use-case.ts): once `work` is done, the ORM's
 * pending changes are flushed and, if the transaction changed something, the call's row is appended in it, so it
 * commits or rolls back with the change. Only the first transaction of a call that changes something writes its row.
 */
export async function auditedWork<T>(tx: EntityManager, call: AuditCall | undefined, work: () => Promise<T>): Promise<T> {
  const transaction = transactionOf(tx);
  if (!call || call.closed || call.recorded || !transaction) return work();
  call.touched = false;
  callsOfTransactions.set(transaction, call);
  try {
    const result = await work();
    await tx.flush();
    if (call.touched && !call.closed) {
      await appendAuditRow(tx, rowOfCall(call, 'succeeded'));
      call.pending = true;
    }
    return result;
  } finally {
    callsOfTransactions.delete(transaction);
  }
}

/** The unit of work of `call` ended: a row written in a committed transaction is the call's record. */
export function auditedWorkEnded(call: AuditCall | undefined, committed: boolean): void {
  if (!call?.pending) return;
  call.pending = false;
  if (committed) call.recorded = true;
}

const INSERT = `insert into audit_events (id, partner_id, environment, action, outcome, code, replayed, entity_type, entity_id,
  actor_type, api_key_id, api_key_prefix, ip, user_agent, request_id, occurred_at)
  values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now())`;

const paramsOf = (row: AuditRow) => [
  randomUUID(),
  row.partnerId,
  row.environment,
  row.action,
  row.outcome,
  row.code ?? null,
  row.replayed ?? false,
  row.entity?.type ?? null,
  row.entity?.id ?? null,
  row.actorType,
  row.apiKeyId ?? null,
  row.apiKeyPrefix ?? null,
  row.ip?.slice(0, 100) ?? null,
  row.userAgent?.slice(0, 500) ?? null,
  row.requestId ?? null,
];

/** Appends a row on `em` (in its transaction when it has one). */
export async function appendAuditRow(em: EntityManager, row: AuditRow): Promise<void> {
  await em.getConnection('write').execute(INSERT, paramsOf(row), 'run', em.getTransactionContext());
}

/** Where a row that could not be written is told: never in the answer, which is decided already. */
export type LostRowLog = Pick<Logger, 'warn' | 'error'>;

/**
 * A row that could not be written after the answer was decided: the change (if any) is committed or not already, so
 * the loss is logged loudly (an error) rather than failing the answer; during an outage it fails as the request did,
 * a warning, as every outage is.
 */
export function auditRowLost(log: LostRowLog, error: unknown): void {
  log[failureLevel(error)]({ err: error }, 'audit row not written');
}

/**
 * A refusal of a key outside any state-changing call (an address its allowlist leaves out, over GraphQL): written in a
 * statement of its own; a row that cannot be written never changes the answer, which is a refusal already.
 */
export async function auditRefusal(em: EntityManager, actor: Actor, action: string, code: string, origin: CallOrigin, log: LostRowLog): Promise<void> {
  await appendAuditRow(em, rowOfCall(newAuditCall(actor, action, origin), 'refused', code)).catch((error) => auditRowLost(log, error));
}

/** The row of a call, with its outcome. */
export function rowOfCall(call: AuditCall, outcome: AuditOutcome, code?: string): AuditRow {
  return {
    partnerId: call.actor.partnerId,
    environment: call.actor.environment,
    action: call.action,
    outcome,
    code: code ?? null,
    replayed: outcome === 'succeeded' && call.replayed,
    entity: call.entity && { type: call.entity.type, id: call.entity.id },
    actorType: 'api_key',
    apiKeyId: call.actor.apiKeyId,
    apiKeyPrefix: call.actor.apiKeyPrefix,
    ip: call.ip,
    userAgent: call.userAgent,
    requestId: call.requestId,
  };
}

/**
 * Ends a call once its answer is decided: a refusal, or a success whose change wrote no row in its
 * transaction (a replay, a call that found nothing to change), is written now in a statement of its own.
 * An answer about capacity (isCapacityAnswer) writes nothing.
 */
export async function finishAuditCall(em: EntityManager, call: AuditCall, refusedWith?: string): Promise<void> {
  call.closed = true;
  if (isCapacityAnswer(refusedWith)) return;
  if (refusedWith !== undefined) await appendAuditRow(em, rowOfCall(call, 'refused', refusedWith));
  else if (!call.recorded) await appendAuditRow(em, rowOfCall(call, 'succeeded'));
}

const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/**
 * The calls of savepoints being opened, by the fork that opens them: a savepoint is a transaction object of its own,
 * so it is bound to the call of the transaction it is nested in as it starts (the fork is the same object in both events).
 */
const callsOfOpeningSavepoints = new WeakMap<object, AuditCall>();

/**
 * Tells the call of the flushing transaction what changed: the first entity flushed, unless an event named one. A
 * savepoint opened inside a call's transaction (`em.transactional` nested in a use case's work) belongs to that call.
 */
export const auditSubscriber: EventSubscriber = {
  beforeTransactionStart({ em, transaction }: TransactionEventArgs) {
    const call = transaction ? callsOfTransactions.get(transaction as object) : undefined;
    if (call) callsOfOpeningSavepoints.set(em, call);
  },
  afterTransactionStart({ em, transaction }: TransactionEventArgs) {
    const call = callsOfOpeningSavepoints.get(em);
    if (!call || !transaction) return;
    callsOfOpeningSavepoints.delete(em);
    callsOfTransactions.set(transaction as object, call);
  },
  onFlush({ em, uow }: FlushEventArgs) {
    const call = callOfTransaction(em);
    const [first] = uow.getChangeSets();
    if (!call || !first) return;
    call.touched = true;
    const id = (first.entity as { id?: unknown }).id;
    if (!call.entity && typeof id === 'string') call.entity = { type: snake(first.meta.className), id, fromEvent: false };
  },
};

/** A change made outside any API call: the keys CLI, or Ramp itself. */
export interface AdministrativeChange {
  partnerId: string;
  environment: Environment;
  action: string;
  entity: AuditEntity;
  by: Exclude<AuditActorType, 'api_key'>;
}

/**
 * Records a change of the key store in `em`'s transaction. In the unit of work of an API call (a mutation that
 * manages keys through the same functions) the call's own row, which its unit of work writes, names the key; outside
 * one, a row of the actor the caller names (`cli`, or `system` for Ramp's own) with no key, address or request.
 */
export async function auditAdministration(em: EntityManager, change: AdministrativeChange): Promise<void> {
  const call = callOfTransaction(em);
  if (call) {
    // The call's own row, written by its unit of work as it ends, names the key.
    call.touched = true;
    call.entity = { ...change.entity, fromEvent: true };
    return;
  }
  const { entity, by, ...rest } = change;
  await appendAuditRow(em, { ...rest, outcome: 'succeeded', entity, actorType: by });
}
