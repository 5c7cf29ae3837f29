import { createPublicClient, erc20Abi, getAddress, http } from 'viem';
import type { Network, Token } from '../../../src/domain/money.js';
import type { LiveChain } from '../../../src/rails/port.js';
import { type ApiClient, type TestRamp, startRamp } from '../ramp.js';
import { waitFor } from '../clients/webhook-receiver.js';
import { ibanAccount, idempotencyKey, offrampQuoteBody, onrampQuoteBody } from '../data/transfers.js';

/**
 * Ramp with its sandbox on a real local chain (anvil on loopback, started by Ramp itself), and the
 * levers a test pulls on that chain: mine blocks, snapshot and revert, reorganise, read balances.
 * Chain jobs are not polled by themselves here (CHAIN_POLL_INTERVAL_MS=0): a test runs them with
 * `ramp.chainJobs.runOnce()`, so what it asserts happened after exactly the blocks it mined.
 */
export interface ChainTestRamp extends TestRamp {
  rpcUrl: string;
  chain(network: Network): LiveChain;
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  mine(blocks?: number): Promise<void>;
  /** Mines and runs the chain jobs once. */
  advance(blocks?: number): Promise<void>;
  balanceOf(network: Network, token: Token, address: string): Promise<bigint>;
}

export async function startChainRamp(env: Record<string, string> = {}): Promise<ChainTestRamp> {
  const test = await startRamp({ SANDBOX_CHAIN: 'local', SANDBOX_CONFIRMATIONS: '3', CHAIN_POLL_INTERVAL_MS: '0', ...env });
  const tools = test.ramp.rails.sandboxChain;
  if (!tools) throw new Error('the sandbox chain did not start');
  const client = createPublicClient({ transport: http(tools.rpcUrl) });
  const rpc = <T>(method: string, params: unknown[] = []) => client.request({ method: method as never, params: params as never }) as Promise<T>;
  const chain = (network: Network) => {
    const found = test.ramp.rails.liveChains().find((c) => c.network === network && c.environment === 'sandbox');
    if (!found) throw new Error(`${network} is not live in the sandbox`);
    return found;
  };
  const mine = async (blocks = 1) => {
    await rpc('anvil_mine', [`0x${blocks.toString(16)}`]);
  };
  return {
    ...test,
    rpcUrl: tools.rpcUrl,
    chain,
    rpc,
    mine,
    async advance(blocks = 1) {
      await mine(blocks);
      await test.ramp.chainJobs.runOnce();
    },
    balanceOf(network, token, address) {
      const contract = chain(network).tokens.find((t) => t.token === token)!.contractAddress;
      return client.readContract({ address: getAddress(contract), abi: erc20Abi, functionName: 'balanceOf', args: [getAddress(address)] });
    },
  };
}

/**
 * The receipt of a transaction Ramp sent, once the chain has it. anvil mines a sent transaction a moment
 * after answering `eth_sendRawTransaction`: on a loaded machine a look straight after the send finds it
 * pending. A transaction that never mines fails the wait.
 */
export function minedReceipt(chain: LiveChain, hash: string) {
  return waitFor(
    async () => {
      const receipt = await chain.receipt(hash);
      return receipt.status === 'mined' ? receipt : undefined;
    },
    10_000,
    `${hash} mined`,
  );
}

/** A pending off-ramp transfer (REST, as GET shows it), created with its quote. */
export async function openOfframp(api: ApiClient, customerId: string, overrides: Record<string, unknown> = {}) {
  const quote = await api.post(
    `/v0/customers/${customerId}/offramp-transfer/quote`,
    offrampQuoteBody({ destination_bank_account: ibanAccount(), transfer_purpose: 'personal_expenses', ...overrides }),
    idempotencyKey(),
  );
  if (quote.status !== 201) throw new Error(`off-ramp quote refused: ${JSON.stringify(quote.body)}`);
  return (await api.get(`/v0/customers/${customerId}/offramp-transfer/${quote.body.transfer_id}`)).body;
}

/** A pending on-ramp transfer paying `destinationAddress` (REST, as created). */
export async function openOnramp(api: ApiClient, customerId: string, destinationAddress: string, overrides: Record<string, unknown> = {}) {
  const quote = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody(overrides));
  if (quote.status !== 201) throw new Error(`on-ramp quote refused: ${JSON.stringify(quote.body)}`);
  const created = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: destinationAddress });
  if (created.status !== 201) throw new Error(`on-ramp transfer refused: ${JSON.stringify(created.body)}`);
  return created.body;
}
