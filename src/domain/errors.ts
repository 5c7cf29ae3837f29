import type { CodeWithStatus, ErrorCode } from './error-codes.js';
import type { Network } from './money.js';

/**
 * Errors the domain expects. Each class is one kind of failure (GraphQL shows it as a typed error);
 * `code` is the stable, documented, snake_case reason, and the HTTP status is the code's
 * (error-codes.ts). A class takes only the codes of its own status, so the two cannot disagree.
 */
export interface FieldError {
  /** JSON pointer into the request body, e.g. `/email` or `/iban/bic`. */
  pointer: string;
  code: string;
  detail: string;
}

export abstract class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: the input is malformed or breaks a rule of its own fields. */
export class ValidationError extends DomainError {
  declare readonly code: CodeWithStatus<400>;
  constructor(
    readonly fieldErrors: FieldError[],
    message = 'The request is invalid',
    code: CodeWithStatus<400> = 'validation_failed',
  ) {
    super(code, message);
  }
}

/** 401: no API key, or not a valid one. */
export class UnauthenticatedError extends DomainError {
  declare readonly code: CodeWithStatus<401>;
  constructor(code: CodeWithStatus<401>, message: string) {
    super(code, message);
  }
}

/** 403: allowed somewhere, not here (a simulation in production). */
export class ForbiddenError extends DomainError {
  declare readonly code: CodeWithStatus<403>;
  constructor(code: CodeWithStatus<403>, message: string) {
    super(code, message);
  }
}

/** 404: unknown, or another partner's or environment's: the two must look the same. */
export class NotFoundError extends DomainError {
  constructor(what: string) {
    super('not_found', `${what} not found`);
  }
}

/** 409: conflicts with the current state (a duplicate, a request still in flight). */
export class ConflictError extends DomainError {
  declare readonly code: CodeWithStatus<409>;
  constructor(code: CodeWithStatus<409>, message: string) {
    super(code, message);
  }
}

/** 422: well-formed but cannot be done (quote expired or used, idempotency key reused). */
export class UnprocessableError extends DomainError {
  declare readonly code: CodeWithStatus<422>;
  constructor(code: CodeWithStatus<422>, message: string) {
    super(code, message);
  }
}

/** 429: this key (or address) used up its requests for the current window. */
export class RateLimitedError extends DomainError {
  constructor(
    /** Seconds until the window resets, as sent in `Retry-After`. */
    readonly retryAfterSeconds: number,
    limitPerMinute: number,
  ) {
    super('rate_limited', `Rate limit of ${limitPerMinute} requests per minute exceeded; retry in ${retryAfterSeconds} s`);
  }
}

/** 503: this instance is at capacity (requests in flight, or every database connection busy); the database itself is up. */
export class OverloadedError extends DomainError {
  constructor(
    /** Seconds to wait before retrying, as sent in `Retry-After`. */
    readonly retryAfterSeconds: number,
    message = 'The server is at capacity; nothing was done. Retry shortly',
  ) {
    super('overloaded', message);
  }
}

/**
 * 503: a network's chain did not answer (a timeout, a refused connection, an RPC error status). The chain's outage, never
 * the database's: Ramp's own state is fine, and a retry once the chain answers again does what this one could not.
 */
export class ChainUnavailableError extends DomainError {
  constructor(
    /** The network whose chain did not answer; null when the node serves several (the sandbox's local chain). */
    readonly network: Network | null,
    /** Seconds to wait before retrying, as sent in `Retry-After`. */
    readonly retryAfterSeconds = CHAIN_RETRY_AFTER_SECONDS,
  ) {
    super('chain_unavailable', `The ${network ?? 'sandbox'} chain is not answering right now; retry shortly`);
  }
}

/** A chain's node or provider is usually back within seconds (a restart, a rate limit window); a retry sooner only adds load. */
export const CHAIN_RETRY_AFTER_SECONDS = 5;

export const fieldError = (pointer: string, code: string, detail: string): FieldError => ({ pointer, code, detail });
