import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
}

/** How the receiver answers the n-th request (0-based): a status, or 'hang' to never answer. */
export type Answer = (request: ReceivedRequest, n: number) => number | 'hang';

export interface Receiver {
  url: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

/** A real HTTP receiver on loopback, recording every request it gets. */
export async function startReceiver(answer: Answer = () => 200): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {
        // keep null
      }
      const request = { headers: req.headers, body, json };
      const n = received.push(request) - 1;
      const status = answer(request, n);
      if (status === 'hang') return;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(`answer ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls until `check` returns a truthy value (and returns it), or fails after `timeoutMs`. */
type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

export async function waitFor<T>(check: () => T | Promise<T>, timeoutMs = 10_000, what = 'condition'): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
