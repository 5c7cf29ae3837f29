/**
 * The floor: what P1 and P5 cost without a framework, an ORM or GraphQL. node:http and a pg Pool of
 * 10 (Ramp's default), running the statements Ramp's use cases need, the API-key hash check included.
 * Its answers are the rows as JSON: the work of presenting them is the part it leaves out.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const KEY = /^Bearer (rk_(sandbox|live)_[A-Za-z0-9]{8})[A-Za-z0-9]{32}$/;
const sha256 = (text: string) => createHash('sha256').update(text).digest();

class HttpError extends Error {
  constructor(readonly status: number) {
    super(String(status));
  }
}

/** The same check as Ramp's: the key by its prefix, then its hash compared in constant time. */
async function authenticate(db: pg.PoolClient | pg.Pool, header: string | undefined) {
  const match = KEY.exec(header ?? '');
  if (!match) throw new HttpError(401);
  const { rows } = await db.query('select id, partner_id, environment, secret_hash from api_keys where prefix = $1 and revoked_at is null', [match[1]]);
  const key = rows[0];
  const actual = sha256(header!.slice(7));
  if (!key || !timingSafeEqual(Buffer.from(key.secret_hash, 'hex'), actual)) throw new HttpError(401);
  return { partnerId: key.partner_id as string, environment: key.environment as string };
}

async function customerOf(db: pg.PoolClient | pg.Pool, actor: { partnerId: string; environment: string }, id: string) {
  const { rows } = await db.query('select * from customers where partner_id = $1 and environment = $2 and id = $3', [actor.partnerId, actor.environment, id]);
  if (!rows[0]) throw new HttpError(404);
  return rows[0];
}

async function readTransfer(req: IncomingMessage, customerId: string, transferId: string) {
  const actor = await authenticate(pool, req.headers.authorization);
  await customerOf(pool, actor, customerId);
  const { rows } = await pool.query(
    `select * from transfers where partner_id = $1 and environment = $2 and id = $3 and customer_id = $4 and direction = 'onramp'`,
    [actor.partnerId, actor.environment, transferId, customerId],
  );
  if (!rows[0]) throw new HttpError(404);
  const quote = await pool.query('select * from quotes where partner_id = $1 and environment = $2 and id = $3', [
    actor.partnerId,
    actor.environment,
    rows[0].quote_id,
  ]);
  return { status: 200, body: { ...rows[0], quote: quote.rows[0] } };
}

async function inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

const createQuote = (req: IncomingMessage, customerId: string) =>
  inTransaction(async (db) => {
    const actor = await authenticate(db, req.headers.authorization);
    await customerOf(db, actor, customerId);
    const partner = await db.query('select platform_fee_bps from partners where id = $1', [actor.partnerId]);
    const { rows } = await db.query(
      `insert into quotes (id, partner_id, environment, customer_id, direction, source_currency, source_rails, destination_currency, destination_network,
         requested_side, source_amount, destination_amount, exchange_rate, platform_fee, developer_fee, network_fee, fee_amount, developer_fee_percent,
         platform_fee_bps, expires_at, created_at)
       values ($1, $2, $3, $4, 'onramp', 'eur', 'sepa', 'usdc', 'polygon', 'source', 100, 106.38, 1.08, 0, 1, 0.5, 1.5, 1, $5, now() + interval '15 minutes', now())
       returning *`,
      [randomUUID(), actor.partnerId, actor.environment, customerId, partner.rows[0].platform_fee_bps],
    );
    return { status: 201, body: { quote_id: rows[0].id, ...rows[0] } };
  });

const createTransfer = (req: IncomingMessage, customerId: string, quoteId: string, destinationAddress: string) =>
  inTransaction(async (db) => {
    const actor = await authenticate(db, req.headers.authorization);
    await customerOf(db, actor, customerId);
    const quote = await db.query('select * from quotes where partner_id = $1 and environment = $2 and id = $3 and customer_id = $4 for update', [
      actor.partnerId,
      actor.environment,
      quoteId,
      customerId,
    ]);
    if (!quote.rows[0]) throw new HttpError(404);
    const id = randomUUID();
    const { rows } = await db.query(
      `insert into transfers (id, partner_id, environment, customer_id, quote_id, direction, status, destination_address, deposit_bank_account, deposit_message,
         deposit_expires_at, created_at, updated_at)
       values ($1, $2, $3, $4, $5, 'onramp', 'pending', $6, $7, $8, now() + interval '3 days', now(), now()) returning *`,
      [
        id,
        actor.partnerId,
        actor.environment,
        customerId,
        quoteId,
        destinationAddress,
        { iban: 'DE00', bic: 'RAMPDEFF' },
        `RAMP${randomBytes(8).toString('hex')}`,
      ],
    );
    await db.query(
      `insert into transfer_status_history (transfer_id, from_status, to_status, reason, created_at) values ($1, null, 'pending', 'transfer_created', now())`,
      [id],
    );
    await db.query('select pg_advisory_xact_lock(7314001)');
    const event = await db.query(
      `insert into events (id, type, entity_type, entity_id, partner_id, environment, payload, created_at)
       values ($1, 'onramp_transfer.created', 'onramp_transfer', $2, $3, $4, $5, now()) returning cursor::text as cursor`,
      [randomUUID(), id, actor.partnerId, actor.environment, JSON.stringify(rows[0])],
    );
    await db.query('select pg_notify($1, $2)', ['ramp_events', event.rows[0].cursor]);
    return { status: 201, body: rows[0] };
  });

async function bodyOf(req: IncomingMessage): Promise<Record<string, string>> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text ? JSON.parse(text) : {};
}

const READ = /^\/v0\/customers\/([^/]+)\/onramp-transfer\/([^/]+)$/;
const QUOTE = /^\/v0\/customers\/([^/]+)\/onramp-transfer\/quote$/;
const TRANSFER = /^\/v0\/customers\/([^/]+)\/onramp-transfer\/quote\/([^/]+)$/;

async function route(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
  const path = req.url ?? '';
  const read = req.method === 'GET' ? READ.exec(path) : null;
  if (read) return readTransfer(req, read[1]!, read[2]!);
  const quote = req.method === 'POST' ? QUOTE.exec(path) : null;
  if (quote) {
    await bodyOf(req);
    return createQuote(req, quote[1]!);
  }
  const transfer = req.method === 'POST' ? TRANSFER.exec(path) : null;
  if (transfer) return createTransfer(req, transfer[1]!, transfer[2]!, (await bodyOf(req)).destination_address!);
  throw new HttpError(404);
}

const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  route(req).then(
    ({ status, body }) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    },
    (error) => {
      res.writeHead(error instanceof HttpError ? error.status : 500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(error) }));
    },
  );
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write(`floor listening on http://127.0.0.1:${process.env.PORT}\n`));
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
