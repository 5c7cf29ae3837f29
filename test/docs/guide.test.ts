import { readdirSync, readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/domain/error-codes.js';
import { GUIDE_DIR, GUIDE_INDEX, GUIDE_STYLE, PREVIOUS_ANCHORS, pagesOf } from '../../src/modules/docs/guide.js';
import { startRamp, type TestRamp } from '../support/ramp.js';

// /docs is the partner guide, docs/api/ rendered as one page: every page, every error code's anchor, links that
// land, nothing meant for Ramp's own engineers, and code that never runs off the right edge.
let t: TestRamp;
let html: string;
beforeAll(async () => {
  t = await startRamp();
  html = await (await fetch(`${t.url}/docs`)).text();
});
afterAll(() => t.close());

const ids = () => [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!);
const index = readFileSync(new URL(GUIDE_INDEX, GUIDE_DIR), 'utf8');

describe('the partner guide at /docs', () => {
  it('serves every page of docs/api, in the order of its index, each once', () => {
    const files = readdirSync(GUIDE_DIR).filter((name) => name.endsWith('.md') && name !== GUIDE_INDEX);
    expect(pagesOf(index).toSorted()).toEqual(files.toSorted());
    const titles = pagesOf(index).map((page) => /^# (.+)$/m.exec(readFileSync(new URL(page, GUIDE_DIR), 'utf8'))![1]!);
    const positions = titles.map((title) => html.indexOf(`>${title.replace(/`([^`]+)`/g, '<code>$1</code>')}</h2>`));
    expect(positions.every((position) => position > 0)).toBe(true);
    expect(positions).toEqual(positions.toSorted((a, b) => a - b));
    expect(pagesOf(index)[0]).toBe('walkthrough.md');
  });

  it('anchors every error code a problem type can point to: /docs#<code>', () => {
    const anchored = new Set(ids());
    expect([...ERROR_CODES, 'bad_request'].filter((code) => !anchored.has(code))).toEqual([]);
  });

  it('keeps the anchors of the page it replaced, each just before the section that now says the same', () => {
    for (const [previous, current] of Object.entries(PREVIOUS_ANCHORS)) expect(html).toMatch(new RegExp(`<a id="${previous}"></a><h[1-6] id="${current}">`));
    for (const kept of ['quick-start', 'errors', 'error-codes', 'idempotency', 'customers', 'pricing', 'statuses', 'event-cursors', 'sandbox-settlement']) {
      expect(ids()).toContain(kept);
    }
  });

  it('gives every heading and code row its own id, and every link within the page lands on one', () => {
    const all = ids();
    expect(all.filter((id, i) => all.indexOf(id) !== i)).toEqual([]);
    const targets = [...html.matchAll(/href="#([^"]*)"/g)].map((m) => m[1]!);
    expect(targets.length).toBeGreaterThan(30);
    expect(targets.filter((target) => !all.includes(target))).toEqual([]);
  });

  it('links nowhere but within the page, to pages Ramp serves, or to absolute URLs', () => {
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!);
    const elsewhere = hrefs.filter((href) => !/^(#|https?:\/\/|\/(docs\/api|openapi\.json|graphql|console)$)/.test(href));
    expect(elsewhere).toEqual([]);
  });

  it('says nothing of files outside the repository, of Ramp’s own code and tests, or of benchmark runs', () => {
    const text = html.replace(/<[^>]+>/g, '');
    for (const pattern of [
      /§/,
      /DESIGN/,
      /shared\/spec/,
      /\bthe spec\b/i,
      /\bissue \d+/i,
      /\bsrc\//,
      /\btest\/\w/,
      /npm run bench/,
      /req\/s/,
      /Project layout/,
    ]) {
      expect(text).not.toMatch(pattern);
    }
  });

  it('wraps code blocks and lets wide tables scroll, so nothing is cut off on the right', () => {
    expect(html).toContain(GUIDE_STYLE);
    expect(GUIDE_STYLE).toMatch(/pre\{[^}]*white-space:pre-wrap/);
    expect(GUIDE_STYLE).toMatch(/table\{[^}]*overflow-x:auto/);
  });

  it('never breaks code inside a table cell mid-word (an error code reads whole; the table scrolls instead)', () => {
    expect(GUIDE_STYLE).toMatch(/td code\{[^}]*white-space:nowrap/);
    expect(GUIDE_STYLE).not.toMatch(/td code\{[^}]*overflow-wrap:anywhere/);
  });

  it('lists every page in a navigation bar, each linking to its title', () => {
    const nav = /<nav class="pages"[^>]*>([\s\S]*?)<\/nav>/.exec(html)![1]!;
    const links = [...nav.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]!);
    expect(links).toHaveLength(pagesOf(index).length + 1);
    for (const anchor of links) expect(ids()).toContain(anchor);
  });

  it('gives every code block a copy button, by a script of its own origin that the page policy allows', async () => {
    const page = await fetch(`${t.url}/docs`);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(html).toContain('<script src="/docs/guide.js" defer></script>');
    const script = await fetch(`${t.url}/docs/guide.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toContain('navigator.clipboard.writeText');
  });
});

describe('Ramp as a site', () => {
  it('sends a browser opening / to the guide, and a client asking for JSON to where everything is', async () => {
    const browser = await request(`${t.url}/`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(browser.statusCode).toBe(302);
    expect(browser.headers.location).toBe('/docs');
    await browser.body.dump();
    const client = await request(`${t.url}/`, { headers: { accept: 'application/json' } });
    expect(await client.body.json()).toEqual({
      guide: '/docs',
      api_reference: '/docs/api',
      openapi: '/openapi.json',
      graphql: '/graphql',
      console: '/console',
    });
  });

  const assets: [string, Record<string, string>][] = [
    ['/docs', {}],
    ['/docs/api/swagger-ui-bundle.js', {}],
    ['/docs/api/swagger-ui.css', {}],
    ['/openapi.json', {}],
    ['/console/app.js', {}],
    ['/graphql', { accept: 'text/html' }],
  ];
  it.each(assets)('compresses %s with brotli or gzip, as the browser accepts, to the same bytes', async (path, headers) => {
    const plain = await request(`${t.url}${path}`, { headers });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const identity = Buffer.from(await plain.body.arrayBuffer());
    for (const [accepted, encoding, decode] of [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      const res = await request(`${t.url}${path}`, { headers: { ...headers, 'accept-encoding': accepted } });
      expect(res.headers['content-encoding'], `${path} ${accepted}`).toBe(encoding);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      const body = Buffer.from(await res.body.arrayBuffer());
      expect(body.length).toBeLessThan(identity.length / 2);
      expect(decode(body).equals(identity)).toBe(true);
    }
  });
});

describe('GET /favicon.ico', () => {
  it("answers Ramp's icon, an ICO holding a 32 × 32 PNG, without a key (browsers ask for it on every page)", async () => {
    const res = await fetch(`${t.url}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/x-icon');
    const body = Buffer.from(await res.arrayBuffer());
    expect([...body.subarray(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]); // reserved, type icon, one image
    const png = body.subarray(body.readUInt32LE(18));
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([32, 32]);
  });
});
