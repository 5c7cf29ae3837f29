import { type DocumentNode, type ExecutionResult, GraphQLError, type GraphQLSchema, execute, parse, validate } from 'graphql';
import { randomUUID } from 'node:crypto';
import type { Actor, Environment } from '../../domain/environment.js';
import type { KeyScope } from '../../domain/scopes.js';
import { DomainError, ValidationError } from '../../domain/errors.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { screamingSnake } from '../../graphql/types/enums.js';
import type { Database } from '../../platform/db/database.js';
import { RequestEntityManager } from '../../platform/db/request-em.js';
import { isDatabaseUnavailable } from '../../platform/db/database-errors.js';
import type { Logger } from '../../platform/observability/logging.js';
import type { Services } from '../../services.js';
import { eventCursors } from '../events/cursors.js';
import { pageCursors } from '../../platform/reads/pagination.js';
import type { PartnerEvent } from '../events/service.js';

/** The event of a claimed delivery, with its tenant and outbox position (sealed into `cursor` only if the query asks). */
export interface DeliveredEvent extends Omit<PartnerEvent, 'cursor'> {
  partnerId: string;
  environment: Environment;
  position: string;
}

/** A delivery's body, or why it could not be made (the attempt then fails and is retried on schedule). */
export type RenderedBody = { body: string } | { error: string };

/**
 * The key that registered an endpoint, with its scopes as they are now: `revoked` when it was revoked since, null
 * for an endpoint registered before keys were recorded.
 */
export type RegisteringKey = { id: string; prefix: string; scopes: ReadonlySet<KeyScope> } | 'revoked' | null;

/** Runs an endpoint's subscription query, as the key that registered it, for one event: the body its delivery carries. */
export type RenderQueryBody = (query: string, registeredBy: RegisteringKey, event: DeliveredEvent) => Promise<RenderedBody>;

/** Parsed queries by text: an endpoint's deliveries parse and validate its query once per instance. */
const PARSED_MAX = 1000;

/**
 * A resolver's error as the body shows it, as a GraphQL response over HTTP would: a domain error by its
 * code (and field errors), graphql's own as it is; null for any other failure.
 */
function bodyError(error: GraphQLError): object | null {
  const original = error.originalError;
  if (original instanceof DomainError) {
    const fieldErrors =
      original instanceof ValidationError ? original.fieldErrors.map((e) => ({ path: e.pointer, code: e.code, message: e.detail })) : undefined;
    const extensions = { code: screamingSnake(original.code), ...(fieldErrors && { fieldErrors }) };
    return { message: original.message, locations: error.locations, path: error.path, extensions };
  }
  if (!original || original instanceof GraphQLError) return error.toJSON();
  return null;
}

/**
 * Each delivery of an endpoint with a subscription query carries that query's result for the event,
 * exactly what a graphql-ws client with the same query receives: `{"data": {"events": {…}}}` (and
 * `errors` when a field failed). It runs as the endpoint's partner and environment, with the event as
 * the subscription's root value, so `subject` is read from the event alone (no SQL); relations a query
 * selects load as they are now. The schema comes from the app's wiring (this module does not build it).
 */
export function queryBodies(deps: { schema: GraphQLSchema; db: Database; services: Services; cursorKey: Buffer; logger: Logger }): RenderQueryBody {
  const cursors = eventCursors(deps.cursorKey);
  const pages = pageCursors(deps.cursorKey);
  const parsed = new Map<string, DocumentNode | string>();

  /** Checked at registration; checked again here once, in case the schema changed since (a deployment). */
  function documentOf(query: string): DocumentNode | string {
    let document = parsed.get(query);
    if (document === undefined) {
      try {
        const candidate = parse(query);
        const invalid = validate(deps.schema, candidate);
        document = invalid.length ? `the subscription query no longer matches the schema: ${invalid[0]!.message}` : candidate;
      } catch (error) {
        document = `the subscription query no longer parses: ${(error as Error).message}`;
      }
      if (parsed.size >= PARSED_MAX) parsed.delete(parsed.keys().next().value!);
      parsed.set(query, document);
    }
    return document;
  }

  /**
   * Who the query runs as: the key that registered the endpoint, with its scopes as they are now, or a refusal when
   * it was revoked or may no longer read (the attempt fails, and the body never leaves); an endpoint registered
   * before keys were recorded runs with every scope.
   */
  function actorOf({ partnerId, environment }: DeliveredEvent, key: RegisteringKey): Actor | string {
    if (key === null) return { partnerId, environment, apiKeyId: 'webhook', apiKeyPrefix: 'webhook' };
    if (key === 'revoked') return 'the API key that registered this webhook was revoked: its subscription query no longer runs (register the webhook again)';
    if (!key.scopes.has('read')) return 'the API key that registered this webhook no longer has the `read` scope its subscription query needs';
    return { partnerId, environment, apiKeyId: key.id, apiKeyPrefix: key.prefix, scopes: key.scopes };
  }

  return async (query, registeredBy, delivered) => {
    const document = documentOf(query);
    if (typeof document === 'string') return { error: document };
    const actor = actorOf(delivered, registeredBy);
    if (typeof actor === 'string') return { error: actor };
    const { partnerId, environment, position, ...event } = delivered;
    const root: PartnerEvent = {
      ...event,
      // Sealed only when selected: most queries ask for the subject, not the cursor.
      get cursor() {
        return cursors.seal({ partnerId, environment }, position);
      },
    };
    const context: GraphQLContext = {
      requestEm: RequestEntityManager.of(deps.db),
      actor,
      requestId: randomUUID(),
      services: deps.services,
      pageCursors: pages,
      log: deps.logger,
    };
    const result = (await execute({ schema: deps.schema, document, rootValue: root, contextValue: context })) as ExecutionResult;
    const errors = (result.errors ?? []).map((error) => ({ error, shown: bodyError(error) }));
    const failed = errors.find((e) => e.shown === null)?.error.originalError;
    if (failed) {
      const unavailable = isDatabaseUnavailable(failed);
      deps.logger[unavailable ? 'warn' : 'error']({ err: failed, eventId: event.id }, 'webhook subscription query failed; the attempt is retried');
      return { error: unavailable ? 'the database was unavailable while running the subscription query' : 'the subscription query failed (internal error)' };
    }
    return { body: JSON.stringify(errors.length ? { data: result.data, errors: errors.map((e) => e.shown) } : { data: result.data }) };
  };
}
