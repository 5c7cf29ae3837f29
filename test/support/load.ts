import { randomUUID } from 'node:crypto';

/** One request the load made: when, how long, and what came back (status 0: no answer in time). */
export interface LoadSample {
  kind: 'write' | 'read';
  startedAt: number;
  ms: number;
  status: number;
  code?: string;
}

/** A customer whose creation Ramp acknowledged (2xx), with the key it was sent under. */
export interface AcknowledgedWrite {
  id: string;
  email: string;
  idempotencyKey: string;
}

export interface Load {
  samples: LoadSample[];
  acknowledged: AcknowledgedWrite[];
  /** Writes that got no 2xx: retried later with the same key, they must create at most one customer. */
  unacknowledged: { email: string; idempotencyKey: string }[];
  stop(): Promise<void>;
}

/**
 * A steady read+write load on Ramp's REST API from `concurrency` loops: each creates a customer
 * (with an Idempotency-Key) and reads one back. `timeoutMs` bounds every request, so a hang shows
 * as status 0 instead of stalling the test.
 */
export function startLoad(baseUrl: string, key: string, options: { concurrency: number; timeoutMs: number }): Load {
  const samples: LoadSample[] = [];
  const acknowledged: AcknowledgedWrite[] = [];
  const unacknowledged: Load['unacknowledged'] = [];
  let stopped = false;

  async function send(kind: LoadSample['kind'], path: string, init: RequestInit): Promise<{ status: number; body: any }> {
    const startedAt = Date.now();
    try {
      const response = await fetch(baseUrl + path, {
        ...init,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers },
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      const body = await response.json().catch(() => null);
      samples.push({ kind, startedAt, ms: Date.now() - startedAt, status: response.status, code: body?.code });
      return { status: response.status, body };
    } catch {
      samples.push({ kind, startedAt, ms: Date.now() - startedAt, status: 0 });
      return { status: 0, body: null };
    }
  }

  async function loop() {
    let lastId: string | undefined;
    while (!stopped) {
      const email = `load-${randomUUID()}@example.com`;
      const idempotencyKey = randomUUID();
      const body = JSON.stringify({ email, type: 'individual', first_name: 'Load', last_name: 'Test' });
      const created = await send('write', '/v0/customers', { method: 'POST', body, headers: { 'idempotency-key': idempotencyKey } });
      if (created.status === 201) {
        acknowledged.push({ id: created.body.customer_id, email, idempotencyKey });
        lastId = created.body.customer_id;
      } else {
        unacknowledged.push({ email, idempotencyKey });
      }
      if (lastId) await send('read', `/v0/customers/${lastId}`, { method: 'GET' });
      if (created.status !== 201) await new Promise((r) => setTimeout(r, 100)); // a client backs off while Ramp fails fast
    }
  }

  const loops = Array.from({ length: options.concurrency }, loop);
  return {
    samples,
    acknowledged,
    unacknowledged,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}
