import { z } from 'zod';
import { FIAT_CURRENCIES, NETWORKS, PAYMENT_RAILS, TOKENS } from '../../domain/money.js';
import { amountAnswer, named } from '../../rest/openapi/schemas.js';
import { FaucetRequest } from './inputs.js';
import { NETWORK_RAILS } from './service.js';

/** `POST /v0/sandbox/faucet`: the body's names are the domain's (one word each), so the input is the body. */
export const FaucetBody = FaucetRequest;

// ——— Answers (the OpenAPI document's response schemas; presenters.ts builds them) ———

const TokenContractAnswer = named(
  'TokenContract',
  z.strictObject({
    token: z.enum(TOKENS),
    contract_address: z.string().meta({ description: 'The ERC-20 contract, EIP-55 checksummed' }),
    decimals: z.number().int(),
  }),
);

export const NetworkAnswer = named(
  'Network',
  z.strictObject({
    network: z.enum(NETWORKS),
    rails: z.enum(NETWORK_RAILS).meta({
      description: 'live: Ramp watches and pays on a real chain; simulated: the sandbox makes the chain leg up; not_connected: production without this network',
    }),
    chain_id: z.number().int().nullable().meta({ description: 'The EVM chain id; null where not live' }),
    rpc_url: z.string().nullable().meta({ description: "The sandbox chain's JSON-RPC address, for your own tools; null in production and where not live" }),
    required_confirmations: z.number().int().nullable().meta({ description: 'Blocks a deposit or payout waits for; null where not live' }),
    offered_tokens: z.array(z.enum(TOKENS)).meta({
      description:
        'The stablecoins Ramp quotes on this network, in every mode; a quote or virtual account on another one answers 422 token_not_offered_on_network',
    }),
    tokens: z.array(TokenContractAnswer).meta({ description: 'The contracts of the offered tokens that Ramp watches and pays from; empty where not live' }),
  }),
);

export const FiatRailsAnswer = named(
  'FiatRails',
  z.strictObject({
    currency: z.enum(FIAT_CURRENCIES),
    rails: z.enum(NETWORK_RAILS).meta({
      description:
        "live: a real bank moves it (ISO 20022 files); simulated: the sandbox's bank; not_connected: no bank moves it in this environment, its on-ramps and virtual accounts answer 403 rails_not_connected",
    }),
    payment_rails: z.array(z.enum(PAYMENT_RAILS)).meta({ description: 'The payment rails it moves over here; empty where not connected' }),
  }),
);

export const NetworkListAnswer = named(
  'NetworkList',
  z.strictObject({
    items: z.array(NetworkAnswer),
    fiat_rails: z.array(FiatRailsAnswer).meta({ description: "The fiat leg: each currency as the key's environment's bank moves it" }),
  }),
);

export const FaucetMintAnswer = named(
  'FaucetMint',
  z.strictObject({
    network: z.enum(NETWORKS),
    token: z.enum(TOKENS),
    address: z.string(),
    amount: amountAnswer(),
    transaction_hash: z.string().meta({ description: 'The mint, sent to the sandbox chain (mined in its next block)' }),
  }),
);
