import { z } from 'zod';
import { FIAT_CURRENCIES, NETWORKS, TOKENS } from '../../domain/money.js';
import {
  type NewVirtualAccount,
  type PendingIssuance,
  VIRTUAL_ACCOUNT_SOURCE_RAILS,
  accountRules,
  destinationAddress,
  developerFeePercent,
  uuid,
} from './inputs.js';

/**
 * The spec's virtual-account bodies (§4.3), snake_case, with the domain's field rules, and their
 * mapping to the use cases' inputs. Every domain field is the body's, snake-cased: no renames.
 */
export const SIMULATE_ACTIONS = ['issue_pending_virtual_account'] as const;

/** Body of POST /v0/customers/{customer_id}/virtual-account. */
export const NewVirtualAccountBody = z
  .strictObject({
    source_currency: z.enum(FIAT_CURRENCIES),
    source_rails: z.enum(VIRTUAL_ACCOUNT_SOURCE_RAILS).nullish(),
    // Not required by the spec; USDC when omitted.
    destination_token: z.enum(TOKENS).default('usdc'),
    destination_network: z.enum(NETWORKS),
    destination_address: destinationAddress.nullish(),
    developer_fee_percent: developerFeePercent.nullish(),
  })
  .check(
    accountRules((b) => ({ currency: b.source_currency, rails: b.source_rails, network: b.destination_network, address: b.destination_address }), {
      rails: 'source_rails',
      address: 'destination_address',
    }),
  );

export const newVirtualAccountOf = (body: z.infer<typeof NewVirtualAccountBody>): NewVirtualAccount => ({
  sourceCurrency: body.source_currency,
  sourceRails: body.source_rails ?? undefined,
  destinationToken: body.destination_token,
  destinationNetwork: body.destination_network,
  destinationAddress: body.destination_address ?? undefined,
  developerFeePercent: body.developer_fee_percent ?? undefined,
});

/** Body of POST /v0/customers/{customer_id}/virtual-account/simulate (sandbox only). */
export const SimulationBody = z.strictObject({
  action: z.enum(SIMULATE_ACTIONS),
  virtual_account_id: uuid,
});

export const pendingIssuanceOf = (body: z.infer<typeof SimulationBody>): PendingIssuance => ({ virtualAccountId: body.virtual_account_id });
