import type { FastifyInstance } from 'fastify';
import { NotFoundError, ValidationError } from '../domain/errors.js';
import { isUuid } from '../domain/identifiers/uuid.js';
import { MAX_JSON_DEPTH, jsonNestingDepth, refusedTextIn } from '../domain/validation.js';
import { shapeOf } from './http-errors.js';
import { routePath } from '../platform/http/route-path.js';

const tooDeep = () => new ValidationError([], `The body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`, 'body_too_deep');

const refuseText = (value: unknown) => {
  const errors = refusedTextIn(value);
  if (errors.length) throw new ValidationError(errors);
};

/**
 * Request bodies are JSON, bounded in depth before they are parsed, and every text in a REST
 * request (body, query, path) is checked once here for refused characters, so no input schema can
 * forget it; a path id that is not a UUID names nothing (404), before any query could choke on it.
 * GraphQL checks its own arguments and variables (graphql/guards/limits.ts), to answer in its shape.
 */
export function registerRequestInput(app: FastifyInstance) {
  // JSON only: Fastify's built-in text/plain parser would hand a string to the validators (415 is clearer).
  app.removeContentTypeParser('text/plain');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    // A POST without a body (cancel, simulate) may still say Content-Type: application/json.
    if (text === '') return done(null, undefined);
    if (jsonNestingDepth(text) > MAX_JSON_DEPTH) return done(tooDeep());
    // biome-ignore lint/nursery/noFloatingPromises: the default JSON parser answers through the callback; its type merely allows a promise
    parseJson(request, text, (error, parsed) => {
      if (error) return done(error);
      try {
        if (shapeOf(request.url) !== 'graphql') refuseText(parsed);
        done(null, parsed);
      } catch (refused) {
        done(refused as Error);
      }
    });
  });
  app.addHook('preValidation', async (request) => {
    if (shapeOf(request.url) === 'graphql') return;
    // `*` is the not-found handler's catch-all, the path itself: that answers route_not_found.
    const ids = Object.fromEntries(Object.entries((request.params ?? {}) as Record<string, string>).filter(([name]) => name !== '*'));
    refuseText(ids);
    refuseText(request.query);
    // The sandbox pages answer their own (HTML) not-found page.
    if (shapeOf(request.url) !== 'problem' || routePath(request.url).startsWith('/v0/')) {
      // Every path parameter of Ramp is a resource id, and every id is a UUID.
      if (Object.values(ids).some((id) => !isUuid(id))) throw new NotFoundError('Resource');
    }
  });
}
