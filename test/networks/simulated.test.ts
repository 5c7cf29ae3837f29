import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestRamp, startRamp } from '../support/ramp.js';
import { wallet } from '../support/data/transfers.js';

const MINT = `mutation ($input: MintTestTokensInput!) { mintTestTokens(input: $input) {
  __typename ... on Error { code message } ... on MintTestTokensPayload { mint { transactionHash } } } }`;

describe('networks without a chain (SANDBOX_CHAIN=simulated), and production keys', () => {
  let t: TestRamp;
  let production: string;
  beforeAll(async () => {
    t = await startRamp();
    production = await t.keyFor('Live Partner', 'production');
  });
  afterAll(() => t?.close());

  it('lists all six networks simulated', async () => {
    const res = await t.client(t.key).get('/v0/sandbox/networks');
    expect(res.status).toBe(200);
    expect(res.body.items.map((n: { network: string; rails: string }) => `${n.network}:${n.rails}`)).toEqual([
      'polygon:simulated',
      'ethereum:simulated',
      'solana:simulated',
      'base:simulated',
      'tron:simulated',
      'arbitrum:simulated',
    ]);
    for (const n of res.body.items) expect(n).toMatchObject({ chain_id: null, rpc_url: null, required_confirmations: null, tokens: [] });
    const graphql = await t.client(t.key).graphql('{ networks { network rails } }');
    expect(new Set(graphql.body.data.networks.map((n: { rails: string }) => n.rails))).toEqual(new Set(['SIMULATED']));
  });

  it('refuses the faucet on every network (422 network_not_live): there is no chain to mint on', async () => {
    const res = await t.client(t.key).post('/v0/sandbox/faucet', { network: 'polygon', token: 'usdc', address: wallet(), amount: '5' });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('network_not_live');
  });

  it('answers 403 sandbox_only to a production key on the sandbox routes, in REST and GraphQL', async () => {
    const live = t.client(production);
    const networks = await live.get('/v0/sandbox/networks');
    expect(networks.status).toBe(403);
    expect(networks.body.code).toBe('sandbox_only');
    const faucet = await live.post('/v0/sandbox/faucet', { network: 'polygon', token: 'usdc', address: wallet(), amount: '5' });
    expect(faucet.status).toBe(403);
    expect(faucet.body.code).toBe('sandbox_only');
    const mint = await live.graphql(MINT, { input: { network: 'POLYGON', token: 'USDC', address: wallet(), amount: '5' } });
    expect(mint.body.data.mintTestTokens).toMatchObject({ __typename: 'ForbiddenError', code: 'SANDBOX_ONLY' });
  });

  it("lists production's networks for a production key: not_connected where none is configured", async () => {
    const res = await t.client(production).get('/v0/networks');
    expect(res.status).toBe(200);
    expect(new Set(res.body.items.map((n: { rails: string }) => n.rails))).toEqual(new Set(['not_connected']));
    const graphql = await t.client(production).graphql('{ networks { network rails } }');
    expect(graphql.body.data.networks).toHaveLength(6);
    expect(new Set(graphql.body.data.networks.map((n: { rails: string }) => n.rails))).toEqual(new Set(['NOT_CONNECTED']));
  });
});
