import type { FastifyInstance } from 'fastify';
import { Marked } from 'marked';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ERROR_CODES } from '../../domain/error-codes.js';
import { apiReferenceContentSecurityPolicy } from '../../platform/security-headers.js';

const README = new URL('../../../README.md', import.meta.url);
/** Swagger UI's prebuilt files, served from the installed package: the reference works offline. */
const SWAGGER_UI = (createRequire(import.meta.url)('swagger-ui-dist') as { getAbsoluteFSPath(): string }).getAbsoluteFSPath();

/** GitHub's heading anchors, so the README's contents links (and /docs/errors) work here too. */
const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
const withHeadingIds = new Marked({
  renderer: {
    heading({ tokens, depth, text }) {
      return `<h${depth} id="${slug(text)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
    },
  },
});

/** The rows of the error table get their code as anchor: a problem's `type` is `/docs#<code>`. */
const KNOWN_CODES = new Set<string>([...ERROR_CODES, 'method_not_allowed', 'bad_request']);
function withCodeAnchors(html: string): string {
  const anchored = new Set<string>();
  return html.replace(/<tr>\s*<td><code>([a-z_]+)<\/code><\/td>/g, (row, code: string) => {
    if (!KNOWN_CODES.has(code) || anchored.has(code)) return row;
    anchored.add(code);
    return `<tr id="${code}"><td><code>${code}</code></td>`;
  });
}

/** The reference page: Swagger UI over GET /openapi.json, its script and styles from our own origin. */
const REFERENCE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ramp API reference</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/api/swagger-ui.css"></head>
<body><div id="swagger-ui"></div><script src="/docs/api/swagger-ui-bundle.js"></script><script src="/docs/api/start.js"></script></body></html>`;
const START = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, persistAuthorization: false });\n`;

/**
 * The REST documentation is the README (how to run, every endpoint, error codes, sandbox flows),
 * rendered once per start; problem+json `type` links point into its error table. /docs/api is the
 * reference generated from the code (openapi.json), for integrators and their tools.
 */
export async function docsRoutes(app: FastifyInstance) {
  const html = withCodeAnchors(await withHeadingIds.parse(await readFile(README, 'utf8')));
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ramp API</title>
<style>body{font:15px/1.55 system-ui,sans-serif;max-width:980px;margin:2rem auto;padding:0 1rem}code,pre{background:#f4f4f4}
pre{padding:.75rem;overflow:auto}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.25rem .5rem}tr:target{background:#fff3b0}</style>
</head><body><p><strong>REST reference:</strong> <a href="/docs/api">/docs/api</a> (OpenAPI 3.1: <a href="/openapi.json">/openapi.json</a>)</p>
${html}</body></html>`;
  app.get('/docs', async (_, reply) => reply.type('text/html; charset=utf-8').send(page));
  app.get('/docs/errors', async (_, reply) => reply.redirect('/docs#error-codes'));

  const [bundle, css] = await Promise.all([readFile(join(SWAGGER_UI, 'swagger-ui-bundle.js')), readFile(join(SWAGGER_UI, 'swagger-ui.css'))]);
  app.get('/docs/api', async (_, reply) =>
    reply.type('text/html; charset=utf-8').header('content-security-policy', apiReferenceContentSecurityPolicy).send(REFERENCE),
  );
  app.get('/docs/api/swagger-ui-bundle.js', async (_, reply) => reply.type('text/javascript; charset=utf-8').send(bundle));
  app.get('/docs/api/swagger-ui.css', async (_, reply) => reply.type('text/css; charset=utf-8').send(css));
  app.get('/docs/api/start.js', async (_, reply) => reply.type('text/javascript; charset=utf-8').send(START));
}
