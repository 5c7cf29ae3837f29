import { createServer, type Server } from 'node:http';

/** A loopback webhook receiver: answers 204 at once and counts deliveries by their `webhook-id`. */
export interface Receiver {
  url: string;
  /** Distinct webhook ids received. */
  readonly unique: number;
  /** Deliveries of an id already received. */
  readonly duplicates: number;
  /** When the last new id arrived (performance.now()). */
  readonly lastArrival: number;
  reset(): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const seen = new Set<string>();
  let duplicates = 0;
  let lastArrival = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? '');
      if (seen.has(id)) duplicates++;
      else {
        seen.add(id);
        lastArrival = performance.now();
      }
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    get unique() {
      return seen.size;
    },
    get duplicates() {
      return duplicates;
    },
    get lastArrival() {
      return lastArrival;
    },
    reset() {
      seen.clear();
      duplicates = 0;
      lastArrival = 0;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
