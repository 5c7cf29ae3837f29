import type { FastifyError } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { DomainError, type FieldError, ValidationError } from '../domain/errors.js';

/** An error as the HTTP layer answers it, before it is put into one of the two wire shapes. */
export interface HttpProblem {
  status: number;
  code: string;
  title: string;
  detail: string;
  errors: FieldError[];
}

const STATUS_OF_KIND: Record<string, [number, string]> = {
  validation: [400, 'Bad Request'],
  unauthenticated: [401, 'Unauthorized'],
  forbidden: [403, 'Forbidden'],
  not_found: [404, 'Not Found'],
  conflict: [409, 'Conflict'],
  unprocessable: [422, 'Unprocessable Content'],
  rate_limited: [429, 'Too Many Requests'],
};

// Fastify's own rejections of a request body, with our stable codes.
const FASTIFY_ERRORS: Record<string, [number, string, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported_media_type', 'Send the body as application/json'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'payload_too_large', 'The request body is too large'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'malformed_json', 'The body is empty but Content-Type says application/json'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'malformed_json', 'The body is not valid JSON'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'bad_request', 'Content-Length does not match the body'],
};

export function toProblem(error: unknown): HttpProblem {
  if (error instanceof DomainError) {
    const [status, title] = STATUS_OF_KIND[error.kind] ?? [400, 'Bad Request'];
    return { status, title, code: error.code, detail: error.message, errors: error instanceof ValidationError ? error.fieldErrors : [] };
  }
  const fastifyError = error as Partial<FastifyError> & { status?: number };
  const known = fastifyError.code ? FASTIFY_ERRORS[fastifyError.code] : undefined;
  if (known) return { status: known[0], code: known[1], title: STATUS_CODES[known[0]]!, detail: known[2], errors: [] };
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return { status: 400, code: 'malformed_json', title: 'Bad Request', detail: 'The body is not valid JSON', errors: [] };
  }
  if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return { status: fastifyError.statusCode, code: 'bad_request', title: STATUS_CODES[fastifyError.statusCode] ?? 'Bad Request', detail: fastifyError.message ?? 'Bad request', errors: [] };
  }
  return { status: 500, code: 'internal_error', title: 'Internal Server Error', detail: 'An unexpected error occurred; quote the request_id to support', errors: [] };
}

/** RFC 9457 problem details, for /v0 and /auth. */
export function problemJson(problem: HttpProblem, requestId: string) {
  return {
    type: `/docs/errors#${problem.code}`,
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
    code: problem.code,
    ...(problem.errors.length ? { errors: problem.errors } : {}),
    request_id: requestId,
  };
}

// Encryptus's codes for /v1 (DESIGN §3); the ones the spec does not name are ours, documented.
function encryptusCode(problem: HttpProblem): string {
  if (problem.code === 'duplicate' || problem.status === 409) return 'EN-STATE-004';
  switch (problem.status) {
    case 400: return 'EN-DATA-009';
    case 401: return 'EN-AUTH-001';
    case 403: return 'EN-AUTH-003';
    case 404: return 'EN-DATA-004';
    case 413: return 'EN-DATA-013';
    case 415: return 'EN-DATA-015';
    case 422: return 'EN-STATE-022';
    case 429: return 'EN-RATE-429';
    default: return 'EN-SYS-500';
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
      data: { error: problem.code, detail: problem.detail, errors: problem.errors, request_id: requestId },
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
