import { Marked, type Tokens } from 'marked';
import { readFile } from 'node:fs/promises';
import { ERROR_CODES } from '../../domain/error-codes.js';

/**
 * The partner guide: docs/api/ in the repository (and in dist/ after `npm run build`). Its README.md
 * opens the guide and lists the pages in reading order; /docs serves them as one page, in that order.
 */
export const GUIDE_DIR = new URL('../../../docs/api/', import.meta.url);
export const GUIDE_INDEX = 'README.md';

/** GitHub's heading anchors, so a link that works on GitHub (`errors.md#error-codes`) works on /docs too. */
export const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');

/** The pages of the index's numbered contents list, in its order: `1. [Errors](errors.md) — …`, once each. */
export function pagesOf(index: string): string[] {
  const pages = [...index.matchAll(/^\d+\. \[[^\]]+\]\(([a-z0-9-]+\.md)\)/gm)].map((m) => m[1]!);
  return [...new Set(pages)];
}

/** Codes whose rows in the error table get their code as anchor: a problem's `type` is `/docs#<code>`. */
const KNOWN_CODES = new Set<string>([...ERROR_CODES, 'bad_request']);
function withCodeAnchors(html: string): string {
  const anchored = new Set<string>();
  return html.replace(/<tr>\s*<td><code>([a-z_]+)<\/code><\/td>/g, (row, code: string) => {
    if (!KNOWN_CODES.has(code) || anchored.has(code)) return row;
    anchored.add(code);
    return `<tr id="${code}"><td><code>${code}</code></td>`;
  });
}

/**
 * Anchors of the page /docs served before the guide was split into topics (the README's headings), kept as aliases
 * of the sections that now say the same, so a link saved then still lands.
 */
export const PREVIOUS_ANCHORS: Record<string, string> = {
  'kyc-links-post-v0customerscustomer_idkycs': 'kyc-links',
  'post-authimportkyc': 'import-by-share-token-authimportkyc',
  'kyc-by-share-token-on-update-put-v0customerscustomer_id': 'kyc-by-share-token-on-update',
  'business-kyb-import-v1partnerskycbusiness': 'business-kyb-import',
  'hostile-input': 'input-rules',
  'limits-slow-consumers-and-scale': 'limits-and-slow-consumers',
  'not-shown-by-the-spec--our-choices': 'beyond-the-partner-apis-ramps-choices',
  'failure-behaviour': 'retrying-after-a-failure',
  'api-keys-npm-run-keys': 'keys',
  'openapi-contract': 'ramp-partner-guide',
};

function withPreviousAnchors(html: string): string {
  let out = html;
  for (const [previous, current] of Object.entries(PREVIOUS_ANCHORS)) {
    out = out.replace(new RegExp(`(<h[1-6] id="${current}">)`), `<a id="${previous}"></a>$1`);
  }
  return out;
}

/**
 * Renders the guide as one HTML fragment. Each page's headings move one level down under the index's
 * title; a link to another page of the guide (`errors.md#error-codes`, `customers.md`) becomes a link
 * within the page (`#error-codes`, the id of that page's title).
 */
export interface RenderedGuide {
  html: string;
  /** Each page's title and the anchor of its heading, in reading order: the navigation. */
  pages: { title: string; anchor: string }[];
}

export async function renderGuide(dir: URL = GUIDE_DIR): Promise<RenderedGuide> {
  const read = (name: string) => readFile(new URL(name, dir), 'utf8');
  const index = await read(GUIDE_INDEX);
  const pages = pagesOf(index);
  const sources = await Promise.all(pages.map(read));
  const titles = pages.map((page, i) => /^# (.+)$/m.exec(sources[i]!)?.[1] ?? page);
  const titleOf = new Map(pages.map((page, i) => [page, slug(titles[i]!)]));

  const toAnchor = (href: string) => {
    const match = /^([a-z0-9-]+\.md)(#.*)?$/.exec(href);
    if (!match || !titleOf.has(match[1]!)) return href;
    return match[2] ?? `#${titleOf.get(match[1]!)}`;
  };
  const render = (source: string, shift: number) =>
    new Marked({
      walkTokens(token) {
        if (token.type === 'link') (token as Tokens.Link).href = toAnchor((token as Tokens.Link).href);
      },
      renderer: {
        heading({ tokens, depth, text }) {
          const level = Math.min(depth + shift, 6);
          return `<h${level} id="${slug(text)}">${this.parser.parseInline(tokens)}</h${level}>\n`;
        },
      },
    }).parse(source);

  const html = [await render(index, 0), ...(await Promise.all(sources.map((source) => render(source, 1))))].join('\n');
  return { html: withPreviousAnchors(withCodeAnchors(html)), pages: titles.map((title) => ({ title: inline(title), anchor: slug(title) })) };
}

/** A page title's Markdown (`code`, emphasis) as inline HTML, for the navigation. */
const inline = (markdown: string) => new Marked().parseInline(markdown) as string;

/**
 * The page around the guide. Code blocks wrap (never cut off on the right) and carry a copy button; wide tables scroll
 * within themselves, and code in a table cell never breaks inside a word (an error code reads whole, the table scrolls).
 * The page list stays at the top as one reads.
 */
export const GUIDE_STYLE = `body{font:15px/1.55 system-ui,sans-serif;max-width:980px;margin:0 auto 2rem;padding:0 1rem;overflow-wrap:break-word}
code,pre{background:#f4f4f4}pre{position:relative;padding:.75rem;white-space:pre-wrap;overflow-wrap:anywhere;overflow-x:auto}
table{border-collapse:collapse;display:block;max-width:100%;overflow-x:auto}td,th{border:1px solid #ddd;padding:.25rem .5rem;vertical-align:top}
td code{white-space:nowrap;overflow-wrap:normal}tr:target,h2:target,h3:target,h4:target{background:#fff3b0}
nav.pages{position:sticky;top:0;background:#fff;border-bottom:1px solid #ddd;padding:.5rem 0;font-size:14px;line-height:1.8;z-index:1}
nav.pages a{margin-right:.9rem;white-space:nowrap}h2,h3,h4{scroll-margin-top:5.5rem}
button.copy{position:absolute;top:.3rem;right:.3rem;font:12px system-ui,sans-serif;padding:.1rem .5rem;cursor:pointer}`;

/** The copy buttons: one on every code block, copying the block's text as written. Served as /docs/guide.js. */
export const GUIDE_SCRIPT = `for (const pre of document.querySelectorAll('pre')) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'copy';
  button.textContent = 'Copy';
  button.addEventListener('click', async () => {
    const text = (pre.querySelector('code') ?? pre).textContent;
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
    setTimeout(() => (button.textContent = 'Copy'), 1500);
  });
  pre.prepend(button);
}
`;

export function guidePage({ html, pages }: RenderedGuide): string {
  const nav = pages.map((page) => `<a href="#${page.anchor}">${page.title}</a>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ramp partner guide</title><style>${GUIDE_STYLE}</style><script src="/docs/guide.js" defer></script>
</head><body><nav class="pages" aria-label="Pages"><a href="#ramp-partner-guide"><strong>Guide</strong></a>${nav}</nav>
<p><strong>REST reference:</strong> <a href="/docs/api">/docs/api</a> (OpenAPI 3.1: <a href="/openapi.json">/openapi.json</a>) · <strong>GraphQL:</strong> <a href="/graphql">/graphql</a></p>
${html}</body></html>`;
}
