import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { constants } from 'node:zlib';

/**
 * `reply.compress(body)` for Ramp's pages and their files (the guide, the API reference, the console, GraphiQL):
 * brotli or gzip, as the browser accepts, and `Vary: Accept-Encoding`. Not global: API answers stay as they are
 * (they are small, and clients measure them), and streamed answers (incremental GraphQL, server-sent events) must
 * leave part by part, which a compressor holding its window would delay. Brotli at quality 5 compresses GraphiQL's
 * 9 MB page in tens of milliseconds; the default (11) takes seconds.
 */
export async function registerCompression(app: FastifyInstance) {
  await app.register(compress, {
    global: false,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } },
  });
}
