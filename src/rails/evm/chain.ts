import { type Address, type PublicClient, createPublicClient, fallback } from 'viem';
import type { Environment } from '../../domain/environment.js';
import type { Network, Token } from '../../domain/money.js';
import type { LiveChain, Signer, TokenContract } from '../port.js';
import { depositAddressAt } from './hd.js';
import { evmReader } from './reader.js';
import { reportingOutages, rpcTransport } from './rpc.js';
import { evmDepositSweeper, evmTreasurySender } from './signers.js';

export interface EvmChainOptions {
  environment: Environment;
  network: Network;
  chainId: number;
  rpcUrls: readonly string[];
  publicRpcUrl: string | null;
  requiredConfirmations: number;
  tokens: readonly TokenContract[];
  /** BIP-32 extended public key whose children are the deposit addresses. */
  depositXpub: string;
  treasury: Signer;
  /** The signer of the deposit address at an index, when Ramp holds the deposit keys (sweeping). */
  depositSigner: ((index: number) => Signer) | null;
  /** How long one RPC request may take (CHAIN_RPC_TIMEOUT_MS), to each of `rpcUrls`. */
  rpcTimeoutMs: number;
}

/**
 * The EVM adapter: one network over JSON-RPC (several URLs are tried in order, each request bounded in time), playing
 * the three roles of the port: reader (reader.ts), treasury sender and sweeper (signers.ts). A node that does not
 * answer fails every member with ChainUnavailableError.
 */
export function evmChain(options: EvmChainOptions): LiveChain {
  const client: PublicClient = createPublicClient({
    // Not retried as a whole either: each URL already had its bounded chance.
    transport: fallback(
      options.rpcUrls.map((url) => rpcTransport({ url, timeoutMs: options.rpcTimeoutMs })),
      { retryCount: 0 },
    ),
  });
  const contractOf = (token: Token) => {
    const contract = options.tokens.find((t) => t.token === token);
    if (!contract) throw new Error(`${token} is not configured on ${options.network}`);
    return contract.contractAddress as Address;
  };
  return reportingOutages(options.network, {
    mode: 'live',
    environment: options.environment,
    network: options.network,
    key: `${options.environment}:${options.network}`,
    chainId: options.chainId,
    publicRpcUrl: options.publicRpcUrl,
    requiredConfirmations: options.requiredConfirmations,
    tokens: options.tokens,
    depositAddress: (index) => depositAddressAt(options.depositXpub, index),
    ...evmReader(client, options.tokens, contractOf),
    ...evmTreasurySender(client, options.chainId, options.treasury, contractOf),
    ...evmDepositSweeper(options.chainId, options.treasury.address, options.depositSigner, contractOf, options.network),
  } satisfies LiveChain);
}
