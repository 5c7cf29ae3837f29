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

/**
 * How long an idle connection to a receiver is kept: less than the 5 s a stock Node server keeps one (nginx 75 s,
 * most load balancers 60 s), so Ramp lets it go before the receiver does. Without it Node's agent keeps idle
 * sockets forever and ignores a receiver's `Keep-Alive: timeout=` hint (it only ever lowers the agent's own timeout).
 */
export const IDLE_CONNECTION_MS = 4_000;

/**
 * `perEndpoint` is as many connections as one endpoint may have deliveries in flight (the dispatcher's share of its
 * slots): with fewer, a delivery past the socket limit would wait in the agent's queue, holding its slot, while its
 * timeout ran, and be failed for a wait that was Ramp's, not the receiver's.
 */
export const createWebhookAgents = (perEndpoint: number): WebhookAgents => ({
  http: new http.Agent({ keepAlive: true, maxSockets: perEndpoint, timeout: IDLE_CONNECTION_MS }),
  https: new https.Agent({ keepAlive: true, maxSockets: perEndpoint, timeout: IDLE_CONNECTION_MS }),
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
 * when connecting, not only at registration. A reused connection that the receiver had just closed
 * (ECONNRESET before any answer: its idle timeout and ours crossed, and the request never reached it) is
 * sent again at once on a new connection, rather than failing the attempt until the next step of the retry schedule.
 */
export async function postWebhook(request: WebhookRequest): Promise<AttemptOutcome> {
  const started = performance.now();
  const url = new URL(request.url);
  const refused = refusal(url, request.policy);
  if (refused) return { statusCode: null, latencyMs: 0, error: refused, responseExcerpt: null };
  const deadline = started + request.timeoutMs;
  const pooled = url.protocol === 'https:' ? request.agents.https : request.agents.http;
  // The retry opens a connection of its own (agent: false), so the pool cannot hand it another stale one;
  // a new connection is never a reused one, so it always comes back with an outcome.
  const outcome = (await exchange(request, url, pooled, deadline)) ?? (await exchange(request, url, false, deadline))!;
  return { ...outcome, latencyMs: Math.round(performance.now() - started) };
}

type Exchanged = Omit<AttemptOutcome, 'latencyMs'>;

/** One request and its answer, until `deadline`; null when the connection it reused was closed under it. */
function exchange(request: WebhookRequest, url: URL, agent: http.Agent | false, deadline: number): Promise<Exchanged | null> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Exchanged | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const req = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      agent,
      headers: { ...request.headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(request.body)) },
      lookup: lookupFor(request.policy) as never,
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
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
      finish(
        !answered && req.reusedSocket && error.code === 'ECONNRESET'
          ? null
          : { statusCode: null, error: error.code ? `${error.code}: ${error.message}` : error.message, responseExcerpt: null },
      ),
    );
    const timer = setTimeout(
      () => {
        finish({ statusCode: null, error: `timeout: no complete answer within ${request.timeoutMs} ms`, responseExcerpt: null });
        req.destroy();
      },
      Math.max(0, deadline - performance.now()),
    );
    const onAbort = () => {
      finish({ statusCode: null, error: 'interrupted: the instance shut down during the attempt', responseExcerpt: null, interrupted: true });
      req.destroy();
    };
    if (request.signal.aborted) onAbort();
    else request.signal.addEventListener('abort', onAbort);
    req.end(request.body);
  });
}
