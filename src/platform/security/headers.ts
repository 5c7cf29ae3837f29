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
  // Built once: Fastify's wrapper of helmet builds (and parses the directives of) a helmet per request.
  const setHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: DIRECTIVES },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    hsts: config.isProduction ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('cache-control', 'no-store');
    setHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
  });
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
