import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { type DestinationPolicy, isAllowedAddress, lookupFor } from './destination.js';

/** What one attempt came to: the receiver's status (null when none came back), how long it took, why it failed. */
export interface AttemptOutcome {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** The start of the receiver's answer, to help a partner debug its endpoint. */
  responseExcerpt: string | null;
  /** This instance shut down mid-attempt: the delivery is handed back for another instance to retry at once. */
  interrupted?: boolean;
}

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  policy: DestinationPolicy;
  timeoutMs: number;
  signal: AbortSignal;
  agents: WebhookAgents;
}

const EXCERPT_CHARS = 1024;

/** Keep-alive connection pools of one dispatcher; each new connection resolves (and checks) the host again. */
export interface WebhookAgents {
  http: http.Agent;
  https: https.Agent;
}

export const createWebhookAgents = (): WebhookAgents => ({
  http: new http.Agent({ keepAlive: true, maxSockets: 50 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 50 }),
});

export const isSuccess = (outcome: AttemptOutcome) => outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;

/** Refuses before any connection what the policy forbids outright (a scheme, a literal private address). */
function refusal(url: URL, policy: DestinationPolicy): string | null {
  if (policy === 'public_https' && url.protocol !== 'https:') return 'destination refused: production webhooks must use https';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) && !isAllowedAddress(host, policy)) return `destination refused: ${host} is not a public address`;
  return null;
}

/**
 * POSTs one delivery. Redirects are not followed (a 3xx is a failed attempt), the whole exchange
 * is bounded by the timeout, and every address the host resolves to is checked against the policy
 * when connecting, not only at registration.
 */
export function postWebhook(request: WebhookRequest): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = new URL(request.url);
  const refused = refusal(url, request.policy);
  if (refused) return Promise.resolve({ statusCode: null, latencyMs: 0, error: refused, responseExcerpt: null });

  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<AttemptOutcome, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal.removeEventListener('abort', onAbort);
      resolve({ ...outcome, latencyMs: elapsed() });
    };
    const https_ = url.protocol === 'https:';
    const req = (https_ ? https : http).request(url, {
      method: 'POST',
      agent: https_ ? request.agents.https : request.agents.http,
      headers: { ...request.headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(request.body)) },
      lookup: lookupFor(request.policy) as never,
    });
    req.on('response', (res) => {
      let excerpt = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (excerpt.length < EXCERPT_CHARS) excerpt += chunk.slice(0, EXCERPT_CHARS - excerpt.length);
        else res.destroy(); // the rest of a long answer is not needed
      });
      const done = () => finish({ statusCode: res.statusCode ?? null, error: null, responseExcerpt: excerpt || null });
      res.on('end', done);
      res.on('close', done);
      res.on('error', done);
    });
    req.on('error', (error: NodeJS.ErrnoException) =>
      finish({ statusCode: null, error: error.code ? `${error.code}: ${error.message}` : error.message, responseExcerpt: null }),
    );
    const timer = setTimeout(() => {
      finish({ statusCode: null, error: `timeout: no complete answer within ${request.timeoutMs} ms`, responseExcerpt: null });
      req.destroy();
    }, request.timeoutMs);
    const onAbort = () => {
      finish({ statusCode: null, error: 'interrupted: the instance shut down during the attempt', responseExcerpt: null, interrupted: true });
      req.destroy();
    };
    if (request.signal.aborted) onAbort();
    else request.signal.addEventListener('abort', onAbort);
    req.end(request.body);
  });
}
