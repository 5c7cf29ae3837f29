import { ConflictError, ForbiddenError, UnprocessableError, ValidationError } from '../../domain/errors.js';
import type { TokenContract } from '../../rails/port.js';
import { withoutNulls } from '../../graphql/types/arguments.js';
import { builder } from '../../graphql/builder.js';
import { scopeOf } from '../../graphql/context.js';
import { BlockchainNetworkEnum, FiatCurrencyEnum, PaymentRailsEnum, StablecoinEnum, domainEnum } from '../../graphql/types/enums.js';
import { idempotentResult } from '../../graphql/types/idempotency.js';
import { idempotencyKeyField, payloadOf } from '../../graphql/types/payload.js';
import { FAUCET_MAX_AMOUNT } from './inputs.js';
import { type FaucetMint, type FiatRailsView, NETWORK_RAILS, type NetworkRails, type NetworkView } from './service.js';

const RAILS_MEANINGS: Record<NetworkRails, string> = {
  live: 'An adapter talks to a real chain: deposits are watched and verified, payouts are real transactions',
  simulated: "The sandbox makes the chain's part up: addresses and hashes are well formed, nothing is on a chain",
  not_connected:
    'Production without this network (or, for fiat, without a bank that moves the currency) configured: transfers on it answer ForbiddenError rails_not_connected',
};
export const RailsModeEnum = domainEnum('RailsMode', NETWORK_RAILS, {
  description: "How a network's chain leg, or a fiat currency's bank leg, runs in the caller's environment",
  describe: RAILS_MEANINGS,
});

const TokenContractRef = builder.objectRef<TokenContract>('TokenContract').implement({
  description: 'A token contract Ramp watches for deposits and pays from',
  fields: (t) => ({
    token: t.field({ type: StablecoinEnum, description: 'The stablecoin the contract is', resolve: (c) => c.token }),
    contractAddress: t.exposeString('contractAddress', { description: 'EIP-55 checksummed' }),
    decimals: t.exposeInt('decimals', { description: "The token's decimals on chain (6 for USDC and USDT)" }),
  }),
});

const NetworkRef = builder.objectRef<NetworkView>('Network').implement({
  description: 'A chain stablecoins move on, as the caller’s environment has it (REST: GET /v0/networks)',
  fields: (t) => ({
    network: t.field({ type: BlockchainNetworkEnum, description: 'Which network', resolve: (n) => n.network }),
    rails: t.field({ type: RailsModeEnum, description: "LIVE, SIMULATED or NOT_CONNECTED in the caller's environment", resolve: (n) => n.rails }),
    chainId: t.exposeInt('chainId', { nullable: true, description: 'The EVM chain id; null where not LIVE' }),
    rpcUrl: t.exposeString('rpcUrl', {
      nullable: true,
      description: "The sandbox chain's JSON-RPC address, for your own wallet and tools; null in production and where not LIVE",
    }),
    requiredConfirmations: t.exposeInt('requiredConfirmations', {
      nullable: true,
      description: 'Blocks a deposit or payout waits for before it counts; null where not LIVE',
    }),
    offeredTokens: t.field({
      type: [StablecoinEnum],
      description:
        'The stablecoins Ramp quotes on this network, whatever its rails; a quote or virtual account on another one is UnprocessableError token_not_offered_on_network',
      resolve: (n) => [...n.offeredTokens],
    }),
    tokens: t.field({ type: [TokenContractRef], description: 'The contracts of the offered tokens; empty where not LIVE', resolve: (n) => n.tokens }),
  }),
});

const FiatRailsRef = builder.objectRef<FiatRailsView>('FiatRails').implement({
  description: "A fiat currency as the caller's environment's bank moves it (REST: fiat_rails of GET /v0/networks)",
  fields: (t) => ({
    currency: t.field({ type: FiatCurrencyEnum, description: 'Which currency', resolve: (f) => f.currency }),
    rails: t.field({
      type: RailsModeEnum,
      description:
        "LIVE (a real bank, through ISO 20022 files), SIMULATED (the sandbox's bank) or NOT_CONNECTED (its on-ramps and virtual accounts answer ForbiddenError rails_not_connected)",
      resolve: (f) => f.rails,
    }),
    paymentRails: t.field({
      type: [PaymentRailsEnum],
      description: 'The payment rails it moves over here; empty where NOT_CONNECTED',
      resolve: (f) => [...f.paymentRails],
    }),
  }),
});

const FaucetMintRef = builder.objectRef<FaucetMint>('FaucetMint').implement({
  description: 'Test tokens minted on the sandbox chain, with gas to move them',
  fields: (t) => ({
    network: t.field({ type: BlockchainNetworkEnum, description: 'The network minted on', resolve: (m) => m.network }),
    token: t.field({ type: StablecoinEnum, description: 'The stablecoin minted', resolve: (m) => m.token }),
    address: t.exposeString('address', { description: 'The address that received the tokens and the gas' }),
    amount: t.field({ type: 'Decimal', description: 'Whole tokens minted', resolve: (m) => m.amount }),
    transactionHash: t.exposeString('transactionHash', { description: 'The mint, mined on the chain: the tokens are in the wallet when this answers' }),
  }),
});

const MintTestTokensInputRef = builder.inputType('MintTestTokensInput', {
  description: 'What the sandbox faucet mints, and where to',
  fields: (t) => ({
    network: t.field({ type: BlockchainNetworkEnum, required: true, description: 'A LIVE network (see networks)' }),
    token: t.field({ type: StablecoinEnum, required: true, description: 'USDC or USDT' }),
    address: t.string({ required: true, description: 'Any address of the network: yours, a test wallet, a deposit address' }),
    amount: t.field({ type: 'Decimal', required: true, description: `Whole tokens, at most 6 decimals and at most ${FAUCET_MAX_AMOUNT}` }),
    idempotencyKey: idempotencyKeyField(t),
  }),
});

builder.queryFields((t) => ({
  networks: t.field({
    keyScope: 'read',
    type: [NetworkRef],
    description:
      "The six networks as the caller's environment has them: LIVE on a real chain (in the sandbox, its local chain: rpcUrl and the token contracts), SIMULATED, or NOT_CONNECTED in production (REST: GET /v0/networks; GET /v0/sandbox/networks for a sandbox key).",
    resolve: (_, __, ctx) => ctx.services.networks.list(scopeOf(ctx).actor),
  }),
  fiatRails: t.field({
    keyScope: 'read',
    type: [FiatRailsRef],
    description:
      "The fiat leg: USD, EUR and AED as the caller's environment's bank moves them, LIVE, SIMULATED or NOT_CONNECTED, over which payment rails (REST: fiat_rails of GET /v0/networks).",
    resolve: (_, __, ctx) => ctx.services.networks.fiatRails(scopeOf(ctx).actor),
  }),
}));

builder.mutationFields((t) => ({
  mintTestTokens: t.field({
    keyScope: 'simulate',
    type: FaucetMintRef,
    description:
      'Sandbox only (ForbiddenError sandbox_only in production): the faucet mints test USDC or USDT to any address of a LIVE network and gives it gas, so you can send a real deposit from your own wallet (REST: POST /v0/sandbox/faucet). UnprocessableError network_not_live for a SIMULATED network, token_not_offered_on_network for a token the network does not offer.',
    errors: payloadOf(
      'MintTestTokens',
      'mint',
      [ValidationError, ForbiddenError, UnprocessableError, ConflictError],
      'The mint: what was sent where, and its transaction',
    ),
    args: {
      input: t.arg({ type: MintTestTokensInputRef, required: true, description: 'What to do, as one input object (ValidationError paths point into it)' }),
    },
    resolve: (_, { input }, ctx) =>
      idempotentResult<typeof input, FaucetMint>(ctx, 'mintTestTokens', input, (scope, request) => ctx.services.networks.faucet(scope, withoutNulls(request))),
  }),
}));
