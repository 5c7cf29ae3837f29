import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountXpub } from '../../src/rails/evm/hd.js';
import { SANDBOX_MNEMONIC } from '../../src/rails/evm/sandbox-chain.js';
import { type ChainTestRamp, startChainRamp } from '../support/chain/ramp.js';
import { type TestRamp, startRamp } from '../support/ramp.js';

/** Anvil's third development account: a treasury key that guards nothing but test tokens. */
const TREASURY_KEY = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';

describe("production's networks: live where configured, not_connected elsewhere", () => {
  let chain: ChainTestRamp;
  let t: TestRamp;
  let usdc: string;
  beforeAll(async () => {
    // A chain to configure production against: the sandbox chain of another Ramp stands in for a provider's.
    chain = await startChainRamp();
    usdc = chain.chain('polygon').tokens.find((c) => c.token === 'usdc')!.contractAddress;
    const keyFile = join(mkdtempSync(join(tmpdir(), 'ramp-treasury-')), 'polygon.key');
    writeFileSync(keyFile, TREASURY_KEY, { mode: 0o600 });
    t = await startRamp({
      SANDBOX_CHAIN: 'simulated',
      CHAIN_POLL_INTERVAL_MS: '0',
      EVM_POLYGON_RPC_URLS: chain.rpcUrl,
      EVM_POLYGON_CHAIN_ID: '31337',
      EVM_POLYGON_USDC_ADDRESS: usdc,
      EVM_POLYGON_CONFIRMATIONS: '5',
      EVM_POLYGON_XPUB: accountXpub(SANDBOX_MNEMONIC, 7),
      EVM_POLYGON_TREASURY_KEY_FILE: keyFile,
    });
  });
  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  it('lists a configured network live for a production key, without its RPC URL, and the others not_connected', async () => {
    const res = await t.client(await t.keyFor('Live Partner', 'production')).get('/v0/networks');
    expect(res.status).toBe(200);
    const [polygon, ...others] = res.body.items;
    expect(polygon).toEqual({
      network: 'polygon',
      rails: 'live',
      chain_id: 31337,
      rpc_url: null,
      required_confirmations: 5,
      tokens: [{ token: 'usdc', contract_address: usdc, decimals: 6 }],
      offered_tokens: ['usdc', 'usdt'],
    });
    expect(others.map((n: { network: string; rails: string }) => `${n.network}:${n.rails}`)).toEqual([
      'ethereum:not_connected',
      'solana:not_connected',
      'base:not_connected',
      'tron:not_connected',
      'arbitrum:not_connected',
    ]);
  });

  it("shows the sandbox's own networks to a sandbox key of the same deployment (simulated here), and LIVE in GraphQL for production", async () => {
    const sandbox = await t.client(t.key).get('/v0/networks');
    expect(new Set(sandbox.body.items.map((n: { rails: string }) => n.rails))).toEqual(new Set(['simulated']));
    const graphql = await t.client(await t.keyFor('Live Partner', 'production')).graphql('{ networks { network rails chainId rpcUrl } }');
    expect(graphql.body.data.networks[0]).toEqual({ network: 'POLYGON', rails: 'LIVE', chainId: 31337, rpcUrl: null });
  });
});
