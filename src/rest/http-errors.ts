import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { type ErrorCode, STATUS_OF_CODE } from '../domain/error-codes.js';
import { DomainError, type FieldError, ValidationError } from '../domain/errors.js';
import { isDatabaseUnavailable, isPoolSaturated } from '../platform/db/database-errors.js';
import { routePath } from '../platform/http/route-path.js';

/** An error as the HTTP layer answers it, before it is put into one of the two wire shapes. */
export interface HttpProblem {
  status: number;
  code: string;
  title: string;
  detail: string;
  errors: FieldError[];
  /** Members a problem adds beside the standard ones (RFC 9457 §3.2), e.g. the `customer_id` a duplicate names. */
  extensions?: Record<string, string>;
}

/** Adds RFC 9457 extension members to the problem an error becomes. */
export const withProblemExtensions = <E extends Error>(error: E, extensions: Record<string, string>): E =>
  Object.assign(error, { problemExtensions: extensions });

/** The reason phrase of a status; 422's as RFC 9110 names it (Node still says "Unprocessable Entity"). */
export const titleOf = (status: number) => (status === 422 ? 'Unprocessable Content' : (STATUS_CODES[status] ?? 'Error'));

/** A problem with one of our codes: its status is the code's (domain/error-codes.ts), never decided here. */
export const problemOfCode = (code: ErrorCode, detail: string, errors: FieldError[] = []): HttpProblem => {
  const status = STATUS_OF_CODE[code];
  return { status, code, title: titleOf(status), detail, errors };
};

/**
 * Fastify's generic 4xx (a framework refusal with no code of ours): its status is Fastify's, and
 * OpenAPI declares it at 400, the one status Fastify gives it for a body it cannot read.
 */
export const BAD_REQUEST = 'bad_request' as const;

// Fastify's own rejections of a request body, with our stable codes.
const FASTIFY_ERRORS: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'Send the body as application/json'],
  FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 'The request body is too large'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['malformed_json', 'The body is empty but Content-Type says application/json'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['malformed_json', 'The body is not valid JSON'],
  // The router's (frameworkErrors): the URL itself is never echoed back.
  FST_ERR_BAD_URL: ['malformed_url', 'The path is not valid percent-encoded UTF-8'],
  FST_ERR_MAX_PARAM_LENGTH: ['not_found', 'No resource has an id that long'],
};

export function toProblem(error: unknown): HttpProblem {
  if (isPoolSaturated(error)) return problemOfCode('overloaded', 'The server is at capacity; nothing was changed. Retry shortly');
  if (isDatabaseUnavailable(error)) {
    return problemOfCode(
      'database_unavailable',
      'The database cannot be reached right now; nothing was changed unless a retry with the same Idempotency-Key says otherwise. Retry shortly',
    );
  }
  if (error instanceof DomainError) {
    const extensions = (error as { problemExtensions?: Record<string, string> }).problemExtensions;
    return { ...problemOfCode(error.code, error.message, error instanceof ValidationError ? error.fieldErrors : []), ...(extensions ? { extensions } : {}) };
  }
  const fastifyError = error as Partial<FastifyError> & { status?: number };
  const known = fastifyError.code ? FASTIFY_ERRORS[fastifyError.code] : undefined;
  if (known) return problemOfCode(...known);
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') return badRequest(400, 'Content-Length does not match the body');
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) return problemOfCode('malformed_json', 'The body is not valid JSON');
  if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return badRequest(fastifyError.statusCode, fastifyError.message ?? 'Bad request');
  }
  return problemOfCode('internal_error', 'An unexpected error occurred; quote the request_id to support');
}

const badRequest = (status: number, detail: string): HttpProblem => ({ status, code: BAD_REQUEST, title: titleOf(status), detail, errors: [] });

declare module 'fastify' {
  interface FastifyInstance {
    /** PUBLIC_URL when configured: the base of problem `type` links. */
    publicUrl: string | undefined;
  }
}

const HOST = /^[A-Za-z0-9.-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$/;

/**
 * Where a problem's `type` points: the code's anchor in this deployment's /docs (its error table has
 * one per code). PUBLIC_URL when set, else the address the client reached (a well-formed Host only).
 */
export function docsBaseOf(request: FastifyRequest): string {
  if (request.server.publicUrl) return request.server.publicUrl.replace(/\/+$/, '');
  const host = request.host;
  return `${request.protocol}://${HOST.test(host) ? host : 'localhost'}`;
}

/** RFC 9457 problem details, for /v0. `type` is absolute: `<base>/docs#<code>`. */
export function problemJson(problem: HttpProblem, requestId: string, docsBase = 'http://localhost') {
  return {
    type: `${docsBase}/docs#${problem.code}`,
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
    code: problem.code,
    ...(problem.errors.length ? { errors: problem.errors } : {}),
    ...problem.extensions,
    request_id: requestId,
  };
}

// Encryptus's codes for /v1 and /auth; the ones the contract does not name are ours, documented.
function encryptusCode(problem: HttpProblem): string {
  if (problem.code === 'duplicate' || problem.status === 409) return 'EN-STATE-004';
  switch (problem.status) {
    case 400:
      return 'EN-DATA-009';
    case 401:
      return 'EN-AUTH-001';
    case 403:
      return 'EN-AUTH-003';
    case 404:
      return 'EN-DATA-004';
    case 413:
      return 'EN-DATA-013';
    case 415:
      return 'EN-DATA-015';
    case 422:
      return 'EN-STATE-022';
    case 429:
      return 'EN-RATE-429';
    case 503:
      return 'EN-SYS-503';
    // Other client errors follow the pattern of 404, 413 and 415: EN-DATA-0xx (408 → EN-DATA-008).
    default:
      return problem.status < 500 ? `EN-DATA-${String(problem.status - 400).padStart(3, '0')}` : 'EN-SYS-500';
  }
}

/** The Encryptus envelope, for /v1. Duplicates answer 400, as Encryptus does. */
export function encryptusEnvelope(problem: HttpProblem, requestId: string) {
  const status = problem.status === 409 ? 400 : problem.status;
  return {
    status,
    body: {
      success: false,
      status,
      code: encryptusCode(problem),
      message: status === 400 ? 'Bad Request' : problem.title,
      data: { error: problem.code, detail: problem.detail, errors: problem.errors, ...problem.extensions, request_id: requestId },
    },
  };
}

export const encryptusSuccess = (status: number, message: string, data: unknown) => ({
  success: true,
  status,
  code: 'EN-SUCCESS-001',
  message,
  data,
});

/**
 * The three answer shapes, by path prefix. Duplicate slashes are folded first, as the router
 * folds them (`//v1/partners/accountInfo` is `/v1/partners/accountInfo`).
 */
export type ErrorShape = 'problem' | 'encryptus' | 'graphql';

export function shapeOf(url: string): ErrorShape {
  const path = routePath(url);
  if (path.startsWith('/v1/') || path.startsWith('/auth/')) return 'encryptus';
  if (path === '/graphql' || path.startsWith('/graphql/')) return 'graphql';
  return 'problem';
}

/** GraphQL over HTTP: a request the server could not read still gets `{ errors }`, with a code. */
export function graphqlErrors(problem: HttpProblem, requestId: string) {
  const code = problem.code.toUpperCase();
  return { errors: [{ message: problem.detail, extensions: { code, requestId, ...(problem.errors.length ? { fieldErrors: problem.errors } : {}) } }] };
}

/** Sends a problem in the shape of the request's prefix. */
export function replyWithProblem(request: FastifyRequest, reply: FastifyReply, problem: HttpProblem) {
  // The audit log records a refusal with its code (rest/audit.ts).
  request.refusalCode = problem.code;
  const shape = shapeOf(request.url);
  if (shape === 'encryptus') {
    const envelope = encryptusEnvelope(problem, request.id);
    return reply.code(envelope.status).type('application/json').send(envelope.body);
  }
  if (shape === 'graphql') return reply.code(problem.status).type('application/json').send(graphqlErrors(problem, request.id));
  return reply
    .code(problem.status)
    .type('application/problem+json')
    .send(problemJson(problem, request.id, docsBaseOf(request)));
}

/**
 * A method Node's parser does not know (`FOO`): 501, as HTTP answers a method the server does not implement at all (405 is a
 * known method that the path does not take). The method is named back only when it is a plain token of a few letters.
 */
function unknownMethod(packet: string): HttpProblem {
  const method = /^([A-Za-z][A-Za-z0-9_-]{0,19}) /.exec(packet)?.[1];
  return problemOfCode('method_not_implemented', `${method ?? 'The method'} is not a method this API answers; see /docs/api for each path's methods`);
}

/**
 * Node's HTTP parser refused the request (a control character in a header, headers over 16 KiB):
 * Fastify never sees it, so the answer is written to the socket here, in the shape of the path
 * when the request line could be read.
 */
export function answerClientError(error: Error & { code?: string; rawPacket?: unknown }, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return void socket.destroy();
  const packet = Buffer.isBuffer(error.rawPacket) ? error.rawPacket.toString('latin1') : '';
  const problem =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? problemOfCode('headers_too_large', 'The request headers are larger than 16 KiB')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? problemOfCode('request_timeout', 'The request took too long to arrive')
        : error.code === 'HPE_INVALID_METHOD'
          ? unknownMethod(packet)
          : problemOfCode('malformed_request', 'The request is not valid HTTP (a header holds a refused character?)');
  const { status } = problem;
  const requestId = randomUUID();
  const target = /^[A-Z]+ (\S+)/.exec(packet)?.[1] ?? '/'; // the packet may end inside a long URL
  const shape = shapeOf(target);
  const [type, body] =
    shape === 'encryptus'
      ? ['application/json', encryptusEnvelope(problem, requestId).body]
      : shape === 'graphql'
        ? ['application/json', graphqlErrors(problem, requestId)]
        : ['application/problem+json', problemJson(problem, requestId)];
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${problem.title}\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(text)}\r\n` +
      `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${text}`,
  );
}
