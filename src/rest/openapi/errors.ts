import { type ErrorCode, STATUS_OF_CODE } from '../../domain/error-codes.js';
import { BAD_REQUEST } from '../http-errors.js';
import type { RouteContract } from './contract.js';

/**
 * The status the document declares each code at: the domain's table (domain/error-codes.ts), which
 * the REST error mapper reads too, and Fastify's generic refusal of a body, at 400.
 */
export const STATUS_OF_ANSWERED_CODE: Readonly<Record<AnsweredCode, number>> = { ...STATUS_OF_CODE, [BAD_REQUEST]: 400 };

/** Every code a REST answer can carry: ours, and Fastify's generic `bad_request`. */
export type AnsweredCode = ErrorCode | typeof BAD_REQUEST;

/**
 * Every code a route can answer: its own, and those every route gives — a bad URL or query, a bad
 * key, a key without the route's scope or used from an address it may not be, a rate limit, an outage (the database's or a chain's), a shed load (admission
 * control), and the body's parsing (Fastify reads a body sent to any route, even
 * one that takes none); the idempotency store's; an id that matches nothing.
 */
export function codesOf(contract: RouteContract, { hasParams }: { hasParams: boolean }): AnsweredCode[] {
  const codes = new Set<AnsweredCode>([
    'malformed_url',
    'validation_failed',
    'malformed_json',
    'body_too_deep',
    'bad_request',
    'payload_too_large',
    'unsupported_media_type',
    'rate_limited',
    'internal_error',
    'database_unavailable',
    // Declared on every route as the database's outage is: which routes reach a chain changes as rails are connected.
    'chain_unavailable',
    'overloaded',
    ...(contract.errors ?? []),
  ]);
  // A key's scope and IP allowlist are checked wherever a key is (rest/server.ts, route-scopes.ts).
  if (!contract.public) for (const code of ['unauthenticated', 'insufficient_scope', 'ip_not_allowed'] as const) codes.add(code);
  if (hasParams) codes.add('not_found');
  if (contract.idempotencyKey) {
    codes.add('idempotency_key_in_use');
    codes.add('idempotency_key_reused');
    if (contract.idempotencyKey === 'required') codes.add('idempotency_key_missing');
  }
  if (contract.sandboxOnly) codes.add('sandbox_only');
  return [...codes];
}
