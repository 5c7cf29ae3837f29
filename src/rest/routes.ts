import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Actor, assertSandbox } from '../domain/environment.js';
import { type FieldError, UnauthenticatedError, ValidationError } from '../domain/errors.js';
import { type PointerRenames, renamedPointer } from '../domain/validation.js';
import { answerDeclared, fingerprint, idempotencyKeyOfHeader, type IdempotentResponse } from '../platform/use-cases/idempotency.js';
import type { OffsetPage } from '../platform/reads/pagination.js';
import { snakeCaseOf } from './bodies.js';
import { isUuid } from '../domain/identifiers/uuid.js';
import { type Scope, scopeFor } from '../platform/use-cases/scope.js';
import type { EntityManager } from '@mikro-orm/sql';
import type { RequestEntityManager } from '../platform/db/request-em.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** This request's own EntityManager, forked when first used (platform/db/request-em.ts). */
    readonly requestEm: RequestEntityManager;
    /** This request's own EntityManager fork: reading it forks it. */
    readonly em: EntityManager;
    /** Set for every authenticated route. */
    actor: Actor | null;
  }
}

export function requestScope(request: FastifyRequest): Scope {
  if (!request.actor) throw new UnauthenticatedError('unauthenticated', 'An API key is required');
  // A state-changing route's audit call (rest/audit.ts) goes to the use case with the scope.
  return scopeFor(request.requestEm, request.actor, request.auditCall);
}

/**
 * Answers a POST through the idempotency store. The route declares the request (its key, its
 * fingerprint: method, route, params and body) and how the use case's result is answered; `run`
 * calls the use case, which claims, runs and stores in its own unit of work (platform/use-cases/use-case.ts).
 * A repeat with the same Idempotency-Key answers the stored response with `Idempotent-Replayed: true`.
 */
export async function replyIdempotently<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  options: { required: boolean; sandboxOnly?: boolean },
  call: { run: (scope: Scope) => Promise<T>; answer: (result: T) => IdempotentResponse | Promise<IdempotentResponse> },
): Promise<FastifyReply> {
  const scope = requestScope(request);
  // Refused first with a production key: before the key, the body or anything outside is read.
  if (options.sandboxOnly) assertSandbox(scope.actor);
  const key = idempotencyKeyOfHeader(request.headers['idempotency-key'], options.required);
  const operation = `${request.method} ${request.routeOptions.url} ${JSON.stringify(request.params)}`;
  const outcome = await answerDeclared(
    scope,
    {
      key,
      fingerprint: fingerprint(operation, request.body ?? null),
      answer: async (result: T) => {
        const response = await call.answer(result);
        return { ...response, customerId: response.customerId ?? customerOfAnswer(request.params, response.body) };
      },
    },
    call.run,
  );
  if (outcome.replayed) reply.header('Idempotent-Replayed', 'true');
  return reply.code(outcome.status).send(outcome.body);
}

/**
 * The customer a stored answer copies data of: the route's `customer_id`, else the one the answer names (the
 * partner API's `customer_id`, or the Encryptus envelope's `data.customer_id` / `data.customerId`). Only ids: a
 * route answering for a customer it does not name says so itself (`customerId` of its response).
 */
export function customerOfAnswer(params: unknown, body: unknown): string | null {
  const named = (value: unknown, key: string) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined);
  const data = named(body, 'data');
  const candidates = [named(params, 'customer_id'), named(body, 'customer_id'), named(data, 'customer_id'), named(data, 'customerId')];
  return candidates.find((c): c is string => typeof c === 'string' && isUuid(c)) ?? null;
}

/**
 * A domain pointer (into a use case's camelCase input) as a pointer into the spec's snake_case
 * body: the longest prefix in `renamed` is replaced (where the body nests what the domain
 * flattens, e.g. `/taxNumber` → `/identifying_information/tax_number`), every other segment is
 * snake-cased.
 */
export function restPointerOf(pointer: string, renamed: PointerRenames = {}): string {
  const [prefix, rest] = renamedPointer(pointer, renamed);
  return prefix + rest.split('/').map(snakeCaseOf).join('/');
}

/** Runs a use case for a REST route, its ValidationError's pointers mapped into the body (see restPointerOf). */
export async function withRestPointers<T>(work: Promise<T>, renamed: PointerRenames = {}): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw error instanceof ValidationError ? new ValidationError(restFieldErrors(error.fieldErrors, renamed), error.message, error.code) : error;
  }
}

/** Domain field errors with their pointers mapped into the snake_case body. */
export const restFieldErrors = (errors: readonly FieldError[], renamed: PointerRenames = {}): FieldError[] =>
  errors.map((e) => ({ ...e, pointer: restPointerOf(e.pointer, renamed) }));

/**
 * One page of a REST list with `has_more`: one row more than asked is read, so whether the list
 * goes on is known without counting.
 */
export async function pageOf<T, V>(page: OffsetPage, read: (page: OffsetPage) => Promise<T[]>, present: (item: T) => V) {
  const rows = await read({ limit: page.limit + 1, skip: page.skip });
  return { items: rows.slice(0, page.limit).map(present), has_more: rows.length > page.limit };
}
