import { randomUUID } from 'node:crypto';
import { encodeAbiParameters, encodeFunctionData, erc20Abi, getAddress, keccak256, parseUnits } from 'viem';
import type { Network } from '../../../src/domain/money.js';
import type { ApiClient } from '../ramp.js';
import { type ChainTestRamp, openOnramp } from './ramp.js';
import { wallet } from '../data/transfers.js';

/** A payout as stored (chain_payouts), read back for assertions. */
export interface PayoutRow {
  transfer_id: string;
  nonce: string;
  status: string;
  transaction_hash: string;
  earlier_hashes: string[] | string;
  max_fee_per_gas: string;
  max_priority_fee_per_gas: string;
  failure_reason: string | null;
  sender: string;
}

/** A processing on-ramp (its fiat arrived) paying a fresh address on `network`: REST, as GET then shows it. */
export async function fundedOnramp(api: ApiClient, customerId: string, network: Network, overrides: Record<string, unknown> = {}) {
  const destination = wallet(network, randomUUID());
  const created = await openOnramp(api, customerId, destination, { destination_network: network, ...overrides });
  const funded = await api.post(`/v0/customers/${customerId}/onramp-transfer/simulate`, { action: 'fiat_deposit', transfer_id: created.id });
  if (funded.status !== 200 || funded.body.status !== 'processing') throw new Error(`fiat deposit refused: ${JSON.stringify(funded.body)}`);
  return { id: created.id as string, destination, amount: created.quote.destination_amount as string, customerId };
}

export const getOnramp = (api: ApiClient, customerId: string, id: string) => api.get(`/v0/customers/${customerId}/onramp-transfer/${id}`).then((r) => r.body);

export async function payoutOf(t: { sql: ChainTestRamp['sql'] }, transferId: string): Promise<PayoutRow | undefined> {
  const [row] = await t.sql<PayoutRow>('select * from chain_payouts where transfer_id = ?', [transferId]);
  if (row && typeof row.earlier_hashes === 'string') row.earlier_hashes = JSON.parse(row.earlier_hashes);
  return row;
}

/** Token base units of a 6-decimal amount string. */
export const units = (amount: string) => parseUnits(amount, 6);

/** Where the sandbox token keeps `holder`'s balance: `balanceOf` is its fourth slot (contracts/SandboxToken.sol). */
const balanceSlot = (holder: string) => keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [getAddress(holder), 3n]));

/** Sets a holder's token balance directly in the contract's storage (anvil), sending no transaction. */
export async function setTokenBalance(t: ChainTestRamp, network: Network, holder: string, amount: bigint) {
  const contract = t.chain(network).tokens.find((c) => c.token === 'usdc')!.contractAddress;
  await t.rpc('anvil_setStorageAt', [contract, balanceSlot(holder), `0x${amount.toString(16).padStart(64, '0')}`]);
}

/** The holder itself sends `amount` of `network`'s USDC to `to` (anvil impersonates it): a real transaction, on its nonce. */
export async function sendAs(t: ChainTestRamp, network: Network, holder: string, to: string, amount: bigint) {
  const contract = t.chain(network).tokens.find((c) => c.token === 'usdc')!.contractAddress;
  await t.rpc('anvil_impersonateAccount', [holder]);
  await t.rpc('anvil_setBalance', [holder, '0x8AC7230489E80000']);
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [getAddress(to), amount] });
  const hash = await t.rpc<string>('eth_sendTransaction', [{ from: holder, to: contract, data }]);
  await t.rpc('anvil_stopImpersonatingAccount', [holder]);
  return hash;
}
