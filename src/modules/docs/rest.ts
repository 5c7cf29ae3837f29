import type { FastifyInstance } from 'fastify';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { apiReferenceContentSecurityPolicy, guideContentSecurityPolicy } from '../../platform/security/headers.js';
import { FAVICON } from './favicon.js';
import { GUIDE_SCRIPT, guidePage, renderGuide } from './guide.js';

/** Swagger UI's prebuilt files, served from the installed package: the reference works offline. */
const SWAGGER_UI = (createRequire(import.meta.url)('swagger-ui-dist') as { getAbsoluteFSPath(): string }).getAbsoluteFSPath();

/** The reference page: Swagger UI over GET /openapi.json, its script and styles from our own origin. */
const REFERENCE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ramp API reference</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/api/swagger-ui.css"></head>
<body><div id="swagger-ui"></div><script src="/docs/api/swagger-ui-bundle.js"></script><script src="/docs/api/start.js"></script></body></html>`;
const START = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, persistAuthorization: false });\n`;

/** Where a client that asked for `/` without wanting a page finds everything. */
const INDEX = { guide: '/docs', api_reference: '/docs/api', openapi: '/openapi.json', graphql: '/graphql', console: '/console' };

/**
 * /docs is the partner guide (docs/api/: the first hour, every endpoint, error codes, sandbox flows),
 * rendered once per start; problem+json `type` links point into its error table. /docs/api is the
 * reference generated from the code (openapi.json), for integrators and their tools. Pages and their files
 * leave compressed when the browser accepts it (platform/http/compression.ts).
 */
export async function docsRoutes(app: FastifyInstance) {
  const page = guidePage(await renderGuide());
  // A browser opening Ramp's address lands in the guide; a client asking for JSON gets the addresses instead.
  app.get('/', async (request, reply) =>
    request.headers.accept?.includes('text/html') ? reply.redirect('/docs') : reply.type('application/json; charset=utf-8').send(INDEX),
  );
  app.get('/docs', async (_, reply) => reply.type('text/html; charset=utf-8').header('content-security-policy', guideContentSecurityPolicy).compress(page));
  app.get('/docs/guide.js', async (_, reply) => reply.type('text/javascript; charset=utf-8').send(GUIDE_SCRIPT));
  app.get('/docs/errors', async (_, reply) => reply.redirect('/docs#error-codes'));

  const [bundle, css] = await Promise.all([readFile(join(SWAGGER_UI, 'swagger-ui-bundle.js')), readFile(join(SWAGGER_UI, 'swagger-ui.css'))]);
  app.get('/docs/api', async (_, reply) =>
    reply.type('text/html; charset=utf-8').header('content-security-policy', apiReferenceContentSecurityPolicy).send(REFERENCE),
  );
  app.get('/docs/api/swagger-ui-bundle.js', async (_, reply) => reply.type('text/javascript; charset=utf-8').compress(bundle));
  app.get('/docs/api/swagger-ui.css', async (_, reply) => reply.type('text/css; charset=utf-8').compress(css));
  // A day in caches: it changes with a release at most.
  app.get('/favicon.ico', async (_, reply) => reply.type('image/x-icon').header('cache-control', 'public, max-age=86400').send(FAVICON));
  app.get('/docs/api/start.js', async (_, reply) => reply.type('text/javascript; charset=utf-8').send(START));
}
