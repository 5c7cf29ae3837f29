import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import type { Config } from '../../config.js';

/**
 * Our HTML pages (the sandbox KYC page) use inline styles and no scripts; JSON needs nothing. Pages with scripts
 * (the guide, the reference, the console, GraphiQL) set a policy of their own.
 * Forms post back to us; no page may be framed (clickjacking the KYC decision buttons).
 */
const DIRECTIVES = {
  defaultSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  imgSrc: ["'self'", 'data:'],
  styleSrc: ["'self'", "'unsafe-inline'"],
  upgradeInsecureRequests: null,
};

/**
 * Security headers on every answer, errors and 404s included: they are set on request, before any
 * hook can fail. Responses carry full IBANs and account numbers, so nothing may be cached on the
 * way (`no-store`). HSTS only in production: outside it Ramp usually runs on plain http://localhost.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config) {
  const headers = {
    'cache-control': 'no-store',
    ...helmetHeaders({
      contentSecurityPolicy: { useDefaults: false, directives: DIRECTIVES },
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'no-referrer' },
      hsts: config.isProduction ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    }),
  };
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/**
 * The headers helmet sets with these options, worked out once. Every one is the same on every answer (no directive is a
 * function of the request), and helmet only sets or removes headers, so running its dozen middlewares on each request
 * (a setHeader each, every name and value checked again) cost a read a thirtieth of its CPU for the same lines.
 */
function helmetHeaders(options: Parameters<typeof helmet>[0]): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  let done = false;
  helmet(options)({} as never, response as never, (error?: unknown) => {
    failure = error;
    done = true;
  });
  if (!done || failure) throw new Error('helmet did not set its headers at once', { cause: failure });
  return headers;
}

/**
 * GraphiQL (bundled, no CDN) is one inline script that starts Monaco's editor workers from blob: URLs
 * and queries /graphql. The script is allowed by its hash rather than by 'unsafe-inline', so an
 * injected script still cannot run; Monaco adds styles at run time, hence inline styles.
 */
export function graphiqlContentSecurityPolicy(html: string): string {
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => `'sha256-${createHash('sha256').update(match[1]!).digest('base64')}'`);
  return [
    "default-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    `script-src ${scripts.join(' ') || "'none'"}`,
    'worker-src blob:',
    "connect-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
  ].join('; ');
}

/**
 * The sandbox console (/console): our own script and stylesheet files only, no inline code and no
 * CDN. It talks to /graphql over fetch and graphql-ws; 'self' covers ws: and wss: of this origin.
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
].join('; ');

/** The partner guide (/docs): its inline styles, and one script of our own origin (the code blocks' copy buttons). */
export const guideContentSecurityPolicy = [
  "default-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
].join('; ');

/**
 * The API reference (/docs/api, Swagger UI): its script and styles are files of our own origin, so
 * no inline script runs; it reads /openapi.json and "try it out" calls this origin only. Swagger UI
 * sets styles at run time and draws icons from data: URLs.
 */
export const apiReferenceContentSecurityPolicy = [
  "default-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "script-src 'self'",
  "connect-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
].join('; ');
