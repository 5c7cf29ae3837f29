import type { FastifyRequest } from 'fastify';
import type { CallOrigin } from '../security/audit.js';

/** Where a request came from, as both faces audit it: the client's address, its user agent and the request's id. */
export const originOf = (request: FastifyRequest): CallOrigin => {
  const userAgent = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof userAgent === 'string' ? userAgent : null, requestId: request.id };
};
