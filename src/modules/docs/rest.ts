import type { FastifyInstance } from 'fastify';
import { Marked } from 'marked';
import { readFile } from 'node:fs/promises';

const README = new URL('../../../README.md', import.meta.url);

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

/**
 * The REST documentation is the README (how to run, every endpoint, error codes, sandbox flows),
 * rendered once per start; problem+json `type` links point into its error table.
 */
export async function docsRoutes(app: FastifyInstance) {
  const html = await withHeadingIds.parse(await readFile(README, 'utf8'));
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ramp API</title>
<style>body{font:15px/1.55 system-ui,sans-serif;max-width:980px;margin:2rem auto;padding:0 1rem}code,pre{background:#f4f4f4}
pre{padding:.75rem;overflow:auto}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.25rem .5rem}</style>
</head><body>${html}</body></html>`;
  app.get('/docs', async (_, reply) => reply.type('text/html; charset=utf-8').send(page));
  app.get('/docs/errors', async (_, reply) => reply.redirect('/docs#error-codes'));
}
