import { type Actor, type Environment, assertSandbox } from '../../domain/environment.js';
import { UnprocessableError } from '../../domain/errors.js';
import { Decimal, FIAT_CURRENCIES, type FiatCurrency, NETWORKS, type Network, type PaymentRails, RAILS_OF_CURRENCY, type Token } from '../../domain/money.js';
import { assertTokenOffered } from '../../domain/network-tokens.js';
import { baseUnits } from '../../domain/token-units.js';
import { parseInput } from '../../domain/validation.js';
import type { RailsMode, TokenContract } from '../../rails/port.js';
import type { Rails } from '../../rails/registry.js';
import { FaucetRequest } from './inputs.js';
import type { Job } from '../../platform/runtime/jobs.js';
import type { Scope } from '../../platform/use-cases/scope.js';
import { useCase } from '../../platform/use-cases/use-case.js';
import type { SendingSettings } from '../custody/fees.js';
import { mintFollowerJob, storeMint } from '../custody/mints.js';

/**
 * Where each network's chain leg stands for the caller's environment: `live` (an adapter talks to a
 * real chain), `simulated` (the sandbox makes the chain's part up), or `not_connected` (production
 * without that network configured: its transfers answer rails_not_connected).
 */
export type NetworkRails = RailsMode | 'not_connected';
export const NETWORK_RAILS: readonly NetworkRails[] = ['live', 'simulated', 'not_connected'];

/** One network as partners see it. A chain id, contracts and confirmations only where the chain is live. */
export interface NetworkView {
  network: Network;
  rails: NetworkRails;
  chainId: number | null;
  /** The sandbox chain's RPC address; null in production (a provider's URL may carry its secret) and where not live. */
  rpcUrl: string | null;
  requiredConfirmations: number | null;
  /** The stablecoins Ramp quotes on this network (NETWORK_TOKENS), whatever its rails. */
  offeredTokens: readonly Token[];
  /** The token contracts Ramp watches and pays from, of the offered tokens; empty where not live (no contract to send to). */
  tokens: readonly TokenContract[];
}

/**
 * One fiat currency as the caller's environment has it: the payment rails its bank moves it over, and how: `live` (a real
 * bank, through ISO 20022 files), `simulated` (the sandbox's bank), or `not_connected` (no bank moves it there: its
 * on-ramps and virtual accounts answer rails_not_connected).
 */
export interface FiatRailsView {
  currency: FiatCurrency;
  rails: NetworkRails;
  /** The rails this currency moves over; empty where not connected. */
  paymentRails: readonly PaymentRails[];
}

/** What the faucet did: the mint's transaction, sent to the chain. */
export interface FaucetMint {
  network: Network;
  token: Token;
  address: string;
  /** As the caller sent it. */
  amount: string;
  transactionHash: string;
}

export interface NetworkService {
  /** The six networks, in the domain's order, as the caller's environment has them. */
  list(actor: Actor): NetworkView[];
  /** The three fiat currencies, in the domain's order, as the caller's environment's bank moves them. */
  fiatRails(actor: Actor): FiatRailsView[];
  /**
   * Sandbox only: mints `amount` of a token to `address` on a live network (stored, sent after commit), and gives the
   * address gas. The minter's nonce and the fees are read first, outside the transaction.
   */
  faucet(scope: Scope, request: FaucetRequest): Promise<FaucetMint>;
  /** The sandbox chain's mint follower, when Ramp runs a sandbox chain. */
  chainJobs(): readonly Job[];
}

export function createNetworkService({ rails, sending }: { rails: Rails; sending: SendingSettings }): NetworkService {
  /** The live network's token contract to mint, and the sandbox chain's tools; network_not_live otherwise. */
  function mintable(actor: Actor, request: FaucetRequest) {
    assertSandbox(actor);
    const data = parseInput(FaucetRequest, request);
    const chain = rails.chain('sandbox', data.network);
    assertTokenOffered(rails.networkTokens, data.network, data.token);
    const contract = chain?.mode === 'live' ? chain.tokens.find((t) => t.token === data.token) : undefined;
    if (!contract || !rails.sandboxChain) {
      throw new UnprocessableError(
        'network_not_live',
        `${data.network} is simulated in this sandbox: there is no chain to mint on (GET /v0/sandbox/networks lists the live networks)`,
      );
    }
    return { data, contract, tools: rails.sandboxChain };
  }

  function view(environment: Environment, network: Network): NetworkView {
    const chain = rails.chain(environment, network);
    const offeredTokens = rails.networkTokens[network];
    if (chain?.mode !== 'live') {
      return { network, rails: chain ? 'simulated' : 'not_connected', chainId: null, rpcUrl: null, requiredConfirmations: null, offeredTokens, tokens: [] };
    }
    return {
      network,
      rails: 'live',
      chainId: chain.chainId,
      rpcUrl: chain.publicRpcUrl,
      requiredConfirmations: chain.requiredConfirmations,
      offeredTokens,
      tokens: chain.tokens.filter((t) => offeredTokens.includes(t.token)),
    };
  }

  return {
    list: (actor) => NETWORKS.map((network) => view(actor.environment, network)),

    fiatRails(actor) {
      const bank = rails.bank(actor.environment);
      return FIAT_CURRENCIES.map((currency) => {
        const paymentRails = RAILS_OF_CURRENCY[currency].filter((r) => bank?.serves(currency, r));
        return { currency, rails: bank && paymentRails.length ? bank.mode : 'not_connected', paymentRails };
      });
    },

    async faucet(scope, request) {
      const { data, contract, tools } = mintable(scope.actor, request);
      const units = baseUnits(new Decimal(data.amount), contract.decimals);
      return useCase(scope, {
        read: () => tools.readMinter(),
        work: async (em, reading) => {
          const mint = await storeMint(em, tools, reading, { contract: contract.contractAddress, to: data.address, amount: units }, sending.crashAt);
          return { network: data.network, token: data.token, address: data.address, amount: data.amount, transactionHash: mint.transactionHash };
        },
      });
    },

    chainJobs: () => (rails.sandboxChain ? [mintFollowerJob(rails.sandboxChain, sending)] : []),
  };
}
