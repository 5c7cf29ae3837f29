import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainTestRamp, openOfframp, startChainRamp } from '../support/chain/ramp.js';
import { startLocalChain, startRpcProxy } from '../support/chain/local-chain.js';
import type { ApiClient, ApiResponse } from '../support/ramp.js';
import { createCustomer, idempotencyKey } from '../support/data/transfers.js';

/** Each RPC request's bound in these tests; an answer may take this long, plus a margin for the work around it. */
const RPC_TIMEOUT_MS = 1000;
const MARGIN_MS = 1500;
const SANDBOX_NETWORKS = ['sandbox:polygon', 'sandbox:ethereum', 'sandbox:base', 'sandbox:arbitrum'];

/**
 * Ramp reaches its chain through a proxy the test cuts (every connection dropped), refuses (nothing listens) or hangs
 * (every request taken and never answered). Ramp's database stays up throughout: what fails is the chain's, and is
 * said to be, never the database's (a refused connection fails with the same ECONNREFUSED as a database's would).
 */
describe('a chain whose RPC endpoint does not answer', () => {
  let chain: Awaited<ReturnType<typeof startLocalChain>>;
  let proxy: Awaited<ReturnType<typeof startRpcProxy>>;
  let t: ChainTestRamp;
  let api: ApiClient;
  let customer: string;
  let wallets = 40_000;

  beforeAll(async () => {
    chain = await startLocalChain();
    proxy = await startRpcProxy(chain.rpcUrl);
    t = await startChainRamp({ SANDBOX_CHAIN_RPC_URL: proxy.url, CHAIN_RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS) });
    api = t.client(t.key);
    customer = await createCustomer(api);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await chain?.stop();
  });

  /** A pending off-ramp and the hash of a real deposit that pays it, sent while the chain answers. */
  async function paidOfframp() {
    const transfer = await openOfframp(api, customer);
    const usdc = t.chain('polygon').tokens.find((c) => c.token === 'usdc')!;
    const hash = await t.ramp.rails.sandboxChain!.sendFromCustomer(usdc, wallets++, transfer.quote.deposit_blockchain_address, 100_000_000n);
    return { transfer, hash };
  }

  const timed = async <T>(request: () => Promise<T>): Promise<[T, number]> => {
    const started = performance.now();
    const answer = await request();
    return [answer, performance.now() - started];
  };

  /** The chain's outage as REST says it: 503 chain_unavailable with Retry-After, in problem+json. */
  const expectChainUnavailable = (res: ApiResponse) => {
    expect([res.status, res.body.code], JSON.stringify(res.body)).toEqual([503, 'chain_unavailable']);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  };

  describe.each([
    ['cut', () => proxy.cut()],
    ['refused', () => proxy.refuse()],
    ['hung', () => proxy.hang()],
  ])('%s', (_, breakIt) => {
    let offramp: Awaited<ReturnType<typeof paidOfframp>>;
    const completeKey = idempotencyKey();
    const complete = () =>
      api.post(`/v0/customers/${customer}/offramp-transfer/${offramp.transfer.id}/complete`, { deposit_transaction_hash: offramp.hash }, completeKey);

    beforeAll(async () => {
      offramp = await paidOfframp();
      await breakIt();
    });
    afterAll(() => proxy.restore());

    it('answers the faucet 503 chain_unavailable with Retry-After, within the RPC timeout', async () => {
      const body = { network: 'polygon', token: 'usdc', address: '0x00000000000000000000000000000000000fa0e1', amount: '5.00' };
      const [res, ms] = await timed(() => api.post('/v0/sandbox/faucet', body, idempotencyKey()));
      expectChainUnavailable(res);
      expect(ms).toBeLessThan(RPC_TIMEOUT_MS + MARGIN_MS);
    });

    it('answers an off-ramp complete with a deposit hash 503 chain_unavailable, the transfer left pending', async () => {
      const [res, ms] = await timed(complete);
      expectChainUnavailable(res);
      expect(ms).toBeLessThan(RPC_TIMEOUT_MS + MARGIN_MS);
      const read = await api.get(`/v0/customers/${customer}/offramp-transfer/${offramp.transfer.id}`);
      expect([read.status, read.body.status]).toEqual([200, 'pending']);
    });

    it('answers GraphQL with CHAIN_UNAVAILABLE, HTTP 503 and Retry-After', async () => {
      const [res, ms] = await timed(() =>
        api.graphql(`mutation ($input: MintTestTokensInput!) { mintTestTokens(input: $input) { __typename } }`, {
          input: { network: 'POLYGON', token: 'USDC', address: '0x00000000000000000000000000000000000fa0e2', amount: '5.00' },
        }),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(503);
      expect(res.body.errors?.[0]?.extensions?.code).toBe('CHAIN_UNAVAILABLE');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(ms).toBeLessThan(RPC_TIMEOUT_MS + MARGIN_MS);
    });

    it('says on /readyz that the database is fine and each chain unreachable (200 degraded), within a second', async () => {
      const [res, ms] = await timed(() => api.get('/readyz'));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        status: 'degraded',
        database: expect.stringMatching(/^(pglite|postgresql)$/),
        chains: Object.fromEntries(SANDBOX_NETWORKS.map((key) => [key, 'unreachable'])),
      });
      expect(ms).toBeLessThan(1500);
    });

    it('completes the transfer once the chain answers again, when retried with the same Idempotency-Key', async () => {
      await proxy.restore();
      const ready = await api.get('/readyz');
      expect(ready.body).toMatchObject({ status: 'ready', chains: Object.fromEntries(SANDBOX_NETWORKS.map((key) => [key, 'ok'])) });
      const res = await complete();
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.headers.get('idempotent-replayed')).toBeNull();
    });
  });
});
