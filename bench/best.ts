/**
 * The best plain service for P1: what a hand-written server that knew only this one read would do. The API key is
 * checked once and kept in memory (its hash compared in constant time on every request, as Ramp does), and the
 * customer, the transfer and its quote come back from ONE named prepared statement. It shows where the limit is
 * on this machine; the floor (floor.ts) is what the same use case costs with Ramp's statements.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const KEY = /^Bearer (rk_(sandbox|live)_[A-Za-z0-9]{8})[A-Za-z0-9]{32}$/;
const sha256 = (text: string) => createHash('sha256').update(text).digest();

interface Actor {
  partnerId: string;
  environment: string;
  secretHash: Buffer;
}
const keys = new Map<string, Actor>();

async function authenticate(header: string | undefined): Promise<Actor | null> {
  const match = KEY.exec(header ?? '');
  if (!match) return null;
  let key = keys.get(match[1]!);
  if (!key) {
    const { rows } = await pool.query('select partner_id, environment, secret_hash from api_keys where prefix = $1 and revoked_at is null', [match[1]]);
    if (!rows[0]) return null;
    key = { partnerId: rows[0].partner_id, environment: rows[0].environment, secretHash: Buffer.from(rows[0].secret_hash, 'hex') };
    keys.set(match[1]!, key);
  }
  return timingSafeEqual(key.secretHash, sha256(header!.slice(7))) ? key : null;
}

// The customer row always comes back (so an unknown customer is told apart from an unknown transfer); the
// transfer and its quote are joined by their keys within the caller's tenant.
const READ = {
  name: 'best_transfer_read',
  text: `select c.id as customer_id, to_jsonb(t) as transfer, to_jsonb(q) as quote
           from customers c
           left join transfers t on t.id = $4 and t.customer_id = c.id and t.direction = 'onramp'
           left join quotes q on q.id = t.quote_id
          where c.id = $3 and c.partner_id = $1 and c.environment = $2`,
};

const PATH = /^\/v0\/customers\/([0-9a-f-]{36})\/onramp-transfer\/([0-9a-f-]{36})$/;

async function answer(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
  const path = req.method === 'GET' ? PATH.exec(req.url ?? '') : null;
  if (!path) return { status: 404, body: { error: 'not_found' } };
  const actor = await authenticate(req.headers.authorization);
  if (!actor) return { status: 401, body: { error: 'unauthorized' } };
  const { rows } = await pool.query({ ...READ, values: [actor.partnerId, actor.environment, path[1], path[2]] });
  if (!rows[0]?.transfer) return { status: 404, body: { error: 'not_found' } };
  return { status: 200, body: { ...rows[0].transfer, quote: rows[0].quote } };
}

const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  answer(req).then(
    ({ status, body }) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
    (error) => res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(error) })),
  );
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write(`best listening on http://127.0.0.1:${process.env.PORT}\n`));
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
