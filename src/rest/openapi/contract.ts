import type { z } from 'zod';
import type { ErrorCode } from '../../domain/error-codes.js';
import type { KeyScope } from '../../domain/scopes.js';

/**
 * What a REST route promises, declared beside the route (`app.post(path, { config: { contract } }, …)`)
 * and gathered by document.ts into the OpenAPI document: the same zod schemas that parse the
 * request, and the schemas of every answer. Errors are named by code; their status and wire shape
 * (problem+json under /v0, the Encryptus envelope under /v1 and /auth) follow from the code and the path.
 */
export interface RouteContract {
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** Answered without an API key. */
  public?: boolean;
  /**
   * What the route needs of the API key, checked before its body is read or anything runs. Every route that takes a
   * key declares it, or Ramp does not start (route-scopes.ts).
   */
  scope?: KeyScope;
  /** POSTs go through the idempotency store; `required` answers 400 idempotency_key_missing without the header. */
  idempotencyKey?: 'required' | 'optional';
  /** The spec's path parameters, described. */
  params?: Record<string, string>;
  query?: z.ZodType;
  body?: z.ZodType;
  /** An absent body is read as `{}`. */
  bodyOptional?: boolean;
  /** Successful answers by status; no `body` for a 204; `alternatives`: the same answer in other media types, by `Accept`. */
  responses: Record<number, { description: string; body?: z.ZodType; contentType?: string; alternatives?: Record<string, z.ZodType> }>;
  /** Codes this route can fail with beyond those of every route (see openapi-errors.ts). */
  errors?: readonly ErrorCode[];
  /** Sandbox only: answers 403 sandbox_only with a production key. */
  sandboxOnly?: boolean;
  /**
   * What a key without the `read` scope gets of a successful answer with a body: the fields kept, as dotted paths
   * into it (`customer_id`, `data.id`: the ids of what changed, and an envelope's own fields), every other dropped; or
   * `'whole'` where the route's own scope reads what it answers (a webhook endpoint to `webhooks`). Every route that
   * changes something with a key and answers a body declares it, or Ramp does not start: a write-only key could
   * otherwise read a customer's data through the answer of a change.
   */
  withoutRead?: readonly string[] | 'whole';
  /** Example request body, shown in the reference. */
  example?: unknown;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    contract?: RouteContract;
  }
}

/** Typed identity: lets a rest.ts declare its contracts with checking and completion. */
export const contract = (c: RouteContract): { config: { contract: RouteContract } } => ({ config: { contract: c } });
