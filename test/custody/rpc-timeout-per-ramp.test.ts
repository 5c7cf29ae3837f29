import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxAddress } from '../../src/domain/identifiers/chain.js';
import { type ChainTestRamp, openOfframp, startChainRamp } from '../support/chain/ramp.js';
import { startLocalChain, startRpcProxy } from '../support/chain/local-chain.js';
import { createCustomer, idempotencyKey } from '../support/data/transfers.js';

/** The two Ramps' bounds: far enough apart that one answering after the other's bound cannot pass for its own. */
const SHORT_MS = 1000;
const LONG_MS = 6000;
/** The work around the RPC call (a request, its transaction, a loaded machine): well short of the gap between the bounds. */
const MARGIN_MS = 2500;

/**
 * Two Ramps in one process, each with its own CHAIN_RPC_TIMEOUT_MS, before one hung node (a loopback server that takes
 * every request and never answers): each gives up after its own bound, as its configuration says, whichever started last.
 */
describe('two Ramps in one process, each with its own RPC timeout', () => {
  let chain: Awaited<ReturnType<typeof startLocalChain>>;
  let proxy: Awaited<ReturnType<typeof startRpcProxy>>;
  let short: ChainTestRamp;
  let long: ChainTestRamp;

  beforeAll(async () => {
    chain = await startLocalChain();
    proxy = await startRpcProxy(chain.rpcUrl);
    // The short one first: a bound kept for the whole process would be the last Ramp's.
    short = await startChainRamp({ SANDBOX_CHAIN_RPC_URL: proxy.url, CHAIN_RPC_TIMEOUT_MS: String(SHORT_MS) });
    long = await startChainRamp({ SANDBOX_CHAIN_RPC_URL: proxy.url, CHAIN_RPC_TIMEOUT_MS: String(LONG_MS) });
  }, 120_000);
  afterAll(async () => {
    await short?.close();
    await long?.close();
    await proxy?.close();
    await chain?.stop();
  });

  const timed = async <T>(request: () => Promise<T>): Promise<[T, number]> => {
    const started = performance.now();
    const answer = await request();
    return [answer, performance.now() - started];
  };

  it('answers the faucet 503 chain_unavailable after each Ramp its own bound', { timeout: 30_000 }, async () => {
    proxy.hang();
    try {
      const faucet = (t: ChainTestRamp, seed: string) =>
        timed(() =>
          t
            .client(t.key)
            .post('/v0/sandbox/faucet', { network: 'polygon', token: 'usdc', address: sandboxAddress('polygon', seed), amount: '5.00' }, idempotencyKey()),
        );
      const [[fast, fastMs], [slow, slowMs]] = await Promise.all([faucet(short, 'short'), faucet(long, 'long')]);
      for (const res of [fast, slow]) expect([res.status, res.body.code], JSON.stringify(res.body)).toEqual([503, 'chain_unavailable']);
      expect(fastMs).toBeGreaterThanOrEqual(SHORT_MS - 50);
      expect(fastMs).toBeLessThan(SHORT_MS + MARGIN_MS);
      expect(slowMs).toBeGreaterThanOrEqual(LONG_MS - 50);
      expect(slowMs).toBeLessThan(LONG_MS + MARGIN_MS);
    } finally {
      await proxy.restore();
    }
  });

  it("bounds the sandbox's own tools (a customer's simulated deposit) by the Ramp's own timeout", { timeout: 30_000 }, async () => {
    const api = short.client(short.key);
    const customer = await createCustomer(api);
    const transfer = await openOfframp(api, customer);
    proxy.hang();
    try {
      // The customer's payment is sent after the step commits, and the answer waits for it: here for the short bound.
      const [res, ms] = await timed(() =>
        api.post(`/v0/customers/${customer}/offramp-transfer/simulate`, { action: 'crypto_deposit', transfer_id: transfer.id }),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(ms).toBeLessThan(SHORT_MS + MARGIN_MS);
    } finally {
      await proxy.restore();
    }
  });
});
