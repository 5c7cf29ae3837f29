/**
 * What the best plain service (best.ts) does for a read, shared with its framework yardsticks (best-fastify.ts):
 * the API key checked once and kept in memory (its hash compared in constant time on every request, as Ramp
 * does), and the customer, the transfer and its quote from ONE named prepared statement.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const KEY = /^Bearer (rk_(sandbox|live)_[A-Za-z0-9]{8})[A-Za-z0-9]{32}$/;
const sha256 = (text: string) => createHash('sha256').update(text).digest();

export interface Actor {
  partnerId: string;
  environment: string;
  secretHash: Buffer;
}
const keys = new Map<string, Actor>();

export async function authenticate(header: string | undefined): Promise<Actor | null> {
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

/** The transfer with its quote, the caller's and its customer's (any of the caller's with `customerId` null); null when unknown. */
export async function readTransfer(actor: Actor, customerId: string | null, transferId: string): Promise<object | null> {
  if (customerId === null) {
    const { rows } = await pool.query({ ...BY_ID, values: [actor.partnerId, actor.environment, transferId] });
    return rows[0]?.transfer ?? null;
  }
  const { rows } = await pool.query({ ...READ, values: [actor.partnerId, actor.environment, customerId, transferId] });
  if (!rows[0]?.transfer) return null;
  return { ...rows[0].transfer, quote: rows[0].quote };
}

/** GraphQL's transfer(id): the caller's transfer by its id. */
const BY_ID = {
  name: 'best_transfer_by_id',
  text: `select to_jsonb(t) as transfer from transfers t where t.id = $3 and t.partner_id = $1 and t.environment = $2`,
};

export const endPool = () => pool.end();
