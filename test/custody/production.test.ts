import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mnemonicToSeedSync } from '@scure/bip39';
import { HDKey, mnemonicToAccount } from 'viem/accounts';
import { bytesToHex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/platform/observability/logging.js';
import { accountXpub, depositAddressAt } from '../../src/rails/evm/hd.js';
import { type LocalNode, startLocalNode } from '../../src/rails/evm/local-node.js';
import { SANDBOX_CHAIN_ID, SANDBOX_MNEMONIC, setUpSandboxChain } from '../../src/rails/evm/sandbox-chain.js';
import { openRails } from '../../src/rails/registry.js';
import { openOfframp } from '../support/chain/ramp.js';
import { type TestRamp, startRamp } from '../support/ramp.js';
import { createCustomer, ibanAccount, idempotencyKey, offrampQuoteBody, onrampQuoteBody, wallet } from '../support/data/transfers.js';

/** The operator's own wallet: not the sandbox's keys, so a production address can only come from this xpub. */
const OPERATOR_MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

/**
 * Production is configured, not coded: a chain standing in for polygon (a local node on loopback with
 * its own token contracts) is configured through EVM_POLYGON_*, and only that network is live for
 * production keys.
 */
describe('production networks from configuration', () => {
  let node: LocalNode;
  let t: TestRamp;
  let env: Record<string, string>;
  const xpub = accountXpub(OPERATOR_MNEMONIC, 0);

  beforeAll(async () => {
    node = await startLocalNode({ chainId: SANDBOX_CHAIN_ID, mnemonic: SANDBOX_MNEMONIC, blockTimeSeconds: 0, stateDir: null });
    const treasury = mnemonicToAccount(SANDBOX_MNEMONIC, { addressIndex: 1 });
    const setup = await setUpSandboxChain({ url: node.rpcUrl, timeoutMs: 5000 }, mnemonicToAccount(SANDBOX_MNEMONIC).address, [treasury.address]);
    const keyFile = join(mkdtempSync(join(tmpdir(), 'ramp-treasury-')), 'polygon.key');
    writeFileSync(keyFile, bytesToHex(treasury.getHdKey().privateKey!), { mode: 0o600 });
    env = {
      EVM_POLYGON_RPC_URLS: node.rpcUrl,
      EVM_POLYGON_CHAIN_ID: String(SANDBOX_CHAIN_ID),
      EVM_POLYGON_USDC_ADDRESS: setup.tokens.polygon!.find((c) => c.token === 'usdc')!.contractAddress,
      EVM_POLYGON_CONFIRMATIONS: '2',
      EVM_POLYGON_XPUB: xpub,
      EVM_POLYGON_TREASURY_KEY_FILE: keyFile,
    };
    t = await startRamp(env);
  });
  afterAll(async () => {
    await t?.close();
    await node?.stop();
  });

  async function productionCustomer() {
    const live = t.client(await t.keyFor('Live Partner', 'production'));
    const customerId = await createCustomer(live, { approved: false });
    // A production customer can only be approved by a real KYC provider; stand in for it in the database.
    const sandboxCustomer = await createCustomer(t.client(t.key));
    await t.sql('update customers set kyc_status_breakdown = (select kyc_status_breakdown from customers where id = ?) where id = ?', [
      sandboxCustomer,
      customerId,
    ]);
    return { live, customerId };
  }

  it('hands a production off-ramp on a configured network an address of the configured xpub', async () => {
    const { live, customerId } = await productionCustomer();
    const transfer = await openOfframp(live, customerId, { source_network: 'polygon' });
    const [row] = await t.sql<{ deposit_address_index: string }>('select deposit_address_index from transfers where id = ?', [transfer.id]);
    expect(transfer.quote.deposit_blockchain_address).toBe(depositAddressAt(xpub, Number(row!.deposit_address_index)));
  });

  it('refuses production deposit instructions where no leg is connected: an unconfigured network, and the bank of every on-ramp', async () => {
    const { live, customerId } = await productionCustomer();
    const base = await live.post(
      `/v0/customers/${customerId}/offramp-transfer/quote`,
      offrampQuoteBody({ source_network: 'base', destination_bank_account: ibanAccount(), transfer_purpose: 'family' }),
      idempotencyKey(),
    );
    expect(base.status).toBe(403);
    expect(base.body.code).toBe('rails_not_connected');
    const quote = await live.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
    const onramp = await live.post(`/v0/customers/${customerId}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() });
    expect(onramp.status).toBe(403);
    expect(onramp.body.code).toBe('rails_not_connected');
  });

  it('checks each setting at start and says in one sentence what is wrong', async () => {
    const base = { NODE_ENV: 'test', DATA_DIR: 'memory://' };
    expect(() => loadConfig({ ...base, EVM_BASE_RPC_URLS: node.rpcUrl })).toThrow(
      'Invalid configuration: base is partly configured; set EVM_BASE_CHAIN_ID, EVM_BASE_XPUB, EVM_BASE_TREASURY_KEY_FILE, EVM_BASE_USDC_ADDRESS or EVM_BASE_USDT_ADDRESS too',
    );
    const xprv = (await import('viem/accounts')).HDKey.fromMasterSeed(new Uint8Array(32).fill(7)).privateExtendedKey;
    expect(() => loadConfig({ ...base, ...env, EVM_POLYGON_XPUB: xprv })).toThrow(/EVM_POLYGON_XPUB: must be a BIP-32 extended public key/);
    const logger = createLogger('silent');
    const wrongChain = loadConfig({ ...base, ...env, EVM_POLYGON_CHAIN_ID: '137' });
    await expect(openRails(wrongChain, logger)).rejects.toThrow('Invalid configuration: EVM_POLYGON_CHAIN_ID is 137 but the RPC serves chain 31337');
    const noContract = loadConfig({ ...base, ...env, EVM_POLYGON_USDC_ADDRESS: wallet('polygon', 'not-a-contract') });
    await expect(openRails(noContract, logger)).rejects.toThrow('Invalid configuration: EVM_POLYGON_USDC_ADDRESS holds no contract on chain 31337');
    const unreadable = loadConfig({ ...base, ...env, EVM_POLYGON_TREASURY_KEY_FILE: '/nonexistent/ramp.key' });
    await expect(openRails(unreadable, logger)).rejects.toThrow('Invalid configuration: EVM_POLYGON_TREASURY_KEY_FILE (/nonexistent/ramp.key) cannot be read');
  });

  it('sweeps only with the extended private key of the configured xpub, checked at start', async () => {
    const base = { NODE_ENV: 'test', DATA_DIR: 'memory://' };
    const logger = createLogger('silent');
    const dir = mkdtempSync(join(tmpdir(), 'ramp-sweep-'));
    const keyOf = (mnemonic: string) => HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic)).derive("m/44'/60'/0'/0").privateExtendedKey;
    const [right, wrong] = [join(dir, 'right.xprv'), join(dir, 'wrong.xprv')];
    writeFileSync(right, keyOf(OPERATOR_MNEMONIC), { mode: 0o600 });
    writeFileSync(wrong, keyOf(SANDBOX_MNEMONIC), { mode: 0o600 });

    const refused = loadConfig({ ...base, ...env, EVM_POLYGON_SWEEP_KEY_FILE: wrong });
    await expect(openRails(refused, logger)).rejects.toThrow(
      'Invalid configuration: EVM_POLYGON_SWEEP_KEY_FILE must hold the extended private key of EVM_POLYGON_XPUB',
    );
    const without = await openRails(loadConfig({ ...base, ...env }), logger);
    const withKey = await openRails(loadConfig({ ...base, ...env, EVM_POLYGON_SWEEP_KEY_FILE: right }), logger);
    try {
      const polygon = (rails: typeof without) => rails.liveChains().find((c) => c.key === 'production:polygon')!;
      expect(polygon(without).sweeps).toBe(false);
      expect(polygon(withKey).sweeps).toBe(true);
    } finally {
      await without.close();
      await withKey.close();
    }
  });
});
