import { plainAmount } from '../../domain/money.js';
import type { VirtualAccount } from './entities.js';
import type { VirtualAccountRow } from './queries.js';

/** numeric(11,8) reads back as 0.50000000; partners sent "0.5", and see it again. */
export const developerFeePercentOf = (account: VirtualAccountRow) => (account.developerFeePercent == null ? null : plainAmount(account.developerFeePercent));

/** A virtual account as REST shows it; also the payload of its events. */
export function presentVirtualAccount(account: VirtualAccountRow) {
  return {
    id: account.id,
    virtual_account_id: account.id,
    customer_id: account.customerId,
    status: account.status,
    source_currency: account.sourceCurrency,
    source_rails: account.sourceRails ?? null,
    destination_token: account.destinationToken,
    destination_network: account.destinationNetwork,
    destination_address: account.destinationAddress ?? null,
    developer_fee_percent: developerFeePercentOf(account),
    deposit_instructions: account.depositInstructions ?? null,
    created_at: account.createdAt.toISOString(),
    updated_at: account.updatedAt.toISOString(),
  };
}
export type VirtualAccountView = ReturnType<typeof presentVirtualAccount>;

/** The creation response: 201 with the whole account when it is active, 202 with its id while pending. */
export function presentCreatedVirtualAccount(account: VirtualAccount): { status: 201 | 202; body: object } {
  if (account.status === 'active') return { status: 201, body: presentVirtualAccount(account) };
  return { status: 202, body: { id: account.id, virtual_account_id: account.id, status: account.status } };
}
