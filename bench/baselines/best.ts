/**
 * The best plain service for P1: what a hand-written server that knew only this one read would do. The API key is
 * checked once and kept in memory (its hash compared in constant time on every request, as Ramp does), and the
 * customer, the transfer and its quote come back from ONE named prepared statement. It shows where the limit is
 * on this machine; the floor (floor.ts) is what the same use case costs with Ramp's statements.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { authenticate, endPool, readTransfer } from './best-read.js';

const PATH = /^\/v0\/customers\/([0-9a-f-]{36})\/onramp-transfer\/([0-9a-f-]{36})$/;

async function answer(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
  const path = req.method === 'GET' ? PATH.exec(req.url ?? '') : null;
  if (!path) return { status: 404, body: { error: 'not_found' } };
  const actor = await authenticate(req.headers.authorization);
  if (!actor) return { status: 401, body: { error: 'unauthorized' } };
  const found = await readTransfer(actor, path[1]!, path[2]!);
  return found ? { status: 200, body: found } : { status: 404, body: { error: 'not_found' } };
}

const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  answer(req).then(
    ({ status, body }) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
    (error) => res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(error) })),
  );
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write(`best listening on http://127.0.0.1:${process.env.PORT}\n`));
process.on('SIGTERM', () => server.close(() => void endPool().then(() => process.exit(0))));
