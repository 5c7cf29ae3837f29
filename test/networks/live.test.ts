import { parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainTestRamp, startChainRamp } from '../support/chain/ramp.js';
import { idempotencyKey, wallet } from '../support/data/transfers.js';

const MINT = `mutation ($input: MintTestTokensInput!) { mintTestTokens(input: $input) {
  __typename ... on Error { code message } ... on ValidationError { fieldErrors { path code } }
  ... on MintTestTokensPayload { mint { network token address amount transactionHash } } } }`;

describe('networks and the faucet on the sandbox’s local chain (SANDBOX_CHAIN=local)', () => {
  let t: ChainTestRamp;
  beforeAll(async () => {
    t = await startChainRamp();
  });
  afterAll(() => t?.close());

  it('lists the four EVM networks live on the local chain, each with its own contracts of the tokens it offers, and solana and tron simulated', async () => {
    const res = await t.client(t.key).get('/v0/sandbox/networks');
    expect(res.status).toBe(200);
    const byNetwork = Object.fromEntries(res.body.items.map((n: { network: string }) => [n.network, n]));
    expect(Object.keys(byNetwork)).toEqual(['polygon', 'ethereum', 'solana', 'base', 'tron', 'arbitrum']);
    const contracts = new Set<string>();
    for (const network of ['polygon', 'ethereum', 'base', 'arbitrum'] as const) {
      const n = byNetwork[network];
      expect(n).toMatchObject({ rails: 'live', chain_id: 31337, rpc_url: t.rpcUrl, required_confirmations: 3 });
      // Tether issues no USDT on Base: the sandbox chain has a contract, the listing shows only what Ramp quotes there.
      const offered = network === 'base' ? ['usdc'] : ['usdc', 'usdt'];
      expect(n.offered_tokens).toEqual(offered);
      expect(n.tokens.map((c: { token: string }) => c.token).sort()).toEqual(offered);
      for (const c of n.tokens) {
        expect(c.decimals).toBe(6);
        expect(c.contract_address).toBe(t.chain(network).tokens.find((k) => k.token === c.token)!.contractAddress);
        contracts.add(c.contract_address);
      }
    }
    expect(contracts.size).toBe(7);
    const simulated = { rails: 'simulated', chain_id: null, rpc_url: null, required_confirmations: null, tokens: [] };
    expect(byNetwork.solana).toEqual({ network: 'solana', ...simulated, offered_tokens: ['usdc', 'usdt'] });
    expect(byNetwork.tron).toEqual({ network: 'tron', ...simulated, offered_tokens: ['usdt'] });
    // GET /v0/networks answers the same for a sandbox key.
    expect((await t.client(t.key).get('/v0/networks')).body).toEqual(res.body);
  });

  it('shows the same in GraphQL: networks with rails LIVE or SIMULATED', async () => {
    const res = await t.client(t.key).graphql('{ networks { network rails chainId rpcUrl requiredConfirmations tokens { token contractAddress decimals } } }');
    expect(res.body.errors).toBeUndefined();
    const networks = res.body.data.networks;
    expect(networks.map((n: { network: string; rails: string }) => `${n.network}:${n.rails}`)).toEqual([
      'POLYGON:LIVE',
      'ETHEREUM:LIVE',
      'SOLANA:SIMULATED',
      'BASE:LIVE',
      'TRON:SIMULATED',
      'ARBITRUM:LIVE',
    ]);
    const base = networks.find((n: { network: string }) => n.network === 'BASE');
    expect(base).toMatchObject({ chainId: 31337, rpcUrl: t.rpcUrl, requiredConfirmations: 3 });
    expect(base.tokens.map((c: { contractAddress: string }) => c.contractAddress)).toEqual(
      t
        .chain('base')
        .tokens.filter((c) => c.token === 'usdc')
        .map((c) => c.contractAddress),
    );
  });

  it('mints exactly the amount asked to any address: its balanceOf grows by it, and the hash is a mined transaction', async () => {
    const address = wallet('arbitrum', 'faucet-rest');
    const before = await t.balanceOf('arbitrum', 'usdt', address);
    const res = await t.client(t.key).post('/v0/sandbox/faucet', { network: 'arbitrum', token: 'usdt', address, amount: '1234.567891' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ network: 'arbitrum', token: 'usdt', address, amount: '1234.567891' });
    expect(res.body.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await t.balanceOf('arbitrum', 'usdt', address)) - before).toBe(parseUnits('1234.567891', 6));
    // Only arbitrum's USDT: the same address holds none of polygon's.
    expect(await t.balanceOf('polygon', 'usdt', address)).toBe(0n);
    const receipt = await t.rpc<{ status: string }>('eth_getTransactionReceipt', [res.body.transaction_hash]);
    expect(receipt.status).toBe('0x1');
    // And gas to move them.
    expect(BigInt(await t.rpc<string>('eth_getBalance', [address, 'latest']))).toBeGreaterThan(0n);
  });

  it('mints once for one Idempotency-Key: the repeat replays the first answer', async () => {
    const address = wallet('polygon', 'faucet-idempotent');
    const key = idempotencyKey();
    const body = { network: 'polygon', token: 'usdc', address, amount: '10' };
    const first = await t.client(t.key).post('/v0/sandbox/faucet', body, key);
    const second = await t.client(t.key).post('/v0/sandbox/faucet', body, key);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await t.balanceOf('polygon', 'usdc', address)).toBe(parseUnits('10', 6));
  });

  it('mints through GraphQL too (mintTestTokens), once per idempotencyKey', async () => {
    const address = wallet('arbitrum', 'faucet-graphql');
    const input = { network: 'ARBITRUM', token: 'USDC', address, amount: '0.000001', idempotencyKey: `faucet-${address}` };
    const res = await t.client(t.key).graphql(MINT, { input });
    expect(res.body.data.mintTestTokens).toMatchObject({
      __typename: 'MintTestTokensPayload',
      mint: { network: 'ARBITRUM', token: 'USDC', address, amount: '0.000001' },
    });
    const repeat = await t.client(t.key).graphql(MINT, { input });
    expect(repeat.body.data.mintTestTokens).toEqual(res.body.data.mintTestTokens);
    expect(await t.balanceOf('arbitrum', 'usdc', address)).toBe(1n);
  });

  it('refuses a simulated network (422 network_not_live), an address of another network, too many decimals and too much', async () => {
    const api = t.client(t.key);
    const simulated = await api.post('/v0/sandbox/faucet', { network: 'tron', token: 'usdt', address: wallet('tron'), amount: '5' });
    expect(simulated.status).toBe(422);
    expect(simulated.body.code).toBe('network_not_live');
    const notOffered = await api.post('/v0/sandbox/faucet', { network: 'base', token: 'usdt', address: wallet('base'), amount: '5' });
    expect(notOffered.status).toBe(422);
    expect(notOffered.body.code).toBe('token_not_offered_on_network');
    const bad = await api.post('/v0/sandbox/faucet', { network: 'polygon', token: 'usdc', address: wallet('tron'), amount: '1.0000001' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { pointer: string; code: string }) => `${e.pointer} ${e.code}`).sort()).toEqual([
      '/address invalid_address',
      '/amount too_many_decimals',
    ]);
    const tooMuch = await api.post('/v0/sandbox/faucet', { network: 'polygon', token: 'usdc', address: wallet(), amount: '1000000.000001' });
    expect(tooMuch.body.errors.map((e: { code: string }) => e.code)).toEqual(['too_big']);
    const graphql = await api.graphql(MINT, { input: { network: 'SOLANA', token: 'USDC', address: wallet('solana'), amount: '1' } });
    expect(graphql.body.data.mintTestTokens).toMatchObject({ __typename: 'UnprocessableError', code: 'NETWORK_NOT_LIVE' });
  });
});
