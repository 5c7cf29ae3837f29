import {
  type Address,
  type Hex,
  type PublicClient,
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  fallback,
  getAddress,
  keccak256,
  parseEventLogs,
} from 'viem';
import type { Environment } from '../../domain/environment.js';
import type { Network, Token } from '../../domain/money.js';
import type { BlockRef, Fees, LiveChain, Receipt, Signer, TokenContract, TokenTransfer, TransactionLookup } from '../port.js';
import { depositAddressAt } from './hd.js';
import { reportingOutages, rpcTransport } from './rpc.js';

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
  /** How long one RPC request may take (CHAIN_RPC_TIMEOUT_MS); the process's configured bound when not given. */
  rpcTimeoutMs?: number;
}

const TRANSFER_EVENT = erc20Abi.find((item) => item.type === 'event' && item.name === 'Transfer')!;
/**
 * A token transfer's gas limit (payouts and sweeps): fixed rather than estimated, so signing needs no call to the node
 * (it happens in the transaction that stores the signed transaction), and a sweep's gas can be sent to the deposit
 * address before the sweep is signed. 100k covers an ERC-20 transfer to a new holder (USDC and USDT take 35–65k);
 * what is not burnt is not paid.
 */
const TOKEN_TRANSFER_GAS = 100_000n;
/** A plain value transfer. */
const TOP_UP_GAS = 21_000n;

/**
 * The EVM adapter: one network over JSON-RPC (several URLs are tried in order, each request bounded in time). A node
 * that does not answer fails every member with ChainUnavailableError.
 */
export function evmChain(options: EvmChainOptions): LiveChain {
  const client: PublicClient = createPublicClient({
    // Not retried as a whole either: each URL already had its bounded chance.
    transport: fallback(
      options.rpcUrls.map((url) => rpcTransport(url, options.rpcTimeoutMs)),
      { retryCount: 0 },
    ),
  });
  const tokenOf = new Map(options.tokens.map((t) => [t.contractAddress.toLowerCase(), t.token]));
  const contractOf = (token: Token) => {
    const contract = options.tokens.find((t) => t.token === token);
    if (!contract) throw new Error(`${token} is not configured on ${options.network}`);
    return contract.contractAddress as Address;
  };

  const toTransfers = (logs: Parameters<typeof parseEventLogs>[0]['logs']): TokenTransfer[] =>
    parseEventLogs({ abi: [TRANSFER_EVENT], logs, eventName: 'Transfer' }).map((log) => ({
      token: tokenOf.get(log.address.toLowerCase()) ?? null,
      contractAddress: log.address.toLowerCase(),
      from: log.args.from.toLowerCase(),
      to: log.args.to.toLowerCase(),
      amount: log.args.value,
      txHash: log.transactionHash!.toLowerCase(),
      logIndex: log.logIndex!,
      blockNumber: log.blockNumber!,
      blockHash: log.blockHash!.toLowerCase(),
    }));

  const blockRef = (block: { number: bigint | null; hash: Hex | null; parentHash: Hex }): BlockRef => ({
    number: block.number!,
    hash: block.hash!.toLowerCase(),
    parentHash: block.parentHash.toLowerCase(),
  });

  /** What the chain says of a hash: not found, or its status, block and token `Transfer` logs. */
  async function lookUpTransaction(hash: string): Promise<TransactionLookup> {
    try {
      const receipt = await client.getTransactionReceipt({ hash: hash as Hex });
      return {
        found: true,
        succeeded: receipt.status === 'success',
        blockNumber: receipt.blockNumber,
        blockHash: receipt.blockHash.toLowerCase(),
        tokenTransfers: toTransfers(receipt.logs),
      };
    } catch (error) {
      if ((error as Error).name === 'TransactionReceiptNotFoundError') return { found: false };
      throw error;
    }
  }

  return reportingOutages(options.network, {
    mode: 'live',
    environment: options.environment,
    network: options.network,
    key: `${options.environment}:${options.network}`,
    chainId: options.chainId,
    publicRpcUrl: options.publicRpcUrl,
    requiredConfirmations: options.requiredConfirmations,
    tokens: options.tokens,
    treasury: options.treasury.address,
    depositAddress: (index) => depositAddressAt(options.depositXpub, index),

    async head() {
      return blockRef(await client.getBlock({ blockTag: 'latest' }));
    },
    async block(number) {
      try {
        return blockRef(await client.getBlock({ blockNumber: number }));
      } catch (error) {
        if ((error as Error).name === 'BlockNotFoundError') return null;
        throw error;
      }
    },
    async tokenTransfers(fromBlock, toBlock, recipients) {
      if (!recipients.length) return [];
      const logs = await client.getLogs({
        address: options.tokens.map((t) => t.contractAddress as Address),
        event: TRANSFER_EVENT,
        args: { to: recipients.map((r) => getAddress(r)) },
        fromBlock,
        toBlock,
      });
      return toTransfers(logs);
    },
    lookUpTransaction,

    tokenBalance: (token, address) =>
      client.readContract({ address: contractOf(token), abi: erc20Abi, functionName: 'balanceOf', args: [getAddress(address)] }),
    minedNonce: (address) => client.getTransactionCount({ address: getAddress(address), blockTag: 'latest' }),
    async fees(): Promise<Fees> {
      const { maxFeePerGas, maxPriorityFeePerGas } = await client.estimateFeesPerGas({ type: 'eip1559', chain: null });
      return { maxFeePerGas, maxPriorityFeePerGas };
    },
    async signPayout({ token, to, amount, nonce, fees }) {
      const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [getAddress(to), amount] });
      // A fixed limit, not an estimate: signing asks the node nothing, so it runs in the transaction that stores it.
      const raw = await options.treasury.signTransaction({ chainId: options.chainId, to: contractOf(token), data, nonce, gas: TOKEN_TRANSFER_GAS, ...fees });
      return { raw, hash: keccak256(raw as Hex).toLowerCase(), nonce, fees };
    },
    sweeps: options.depositSigner !== null,
    nativeBalance: (address) => client.getBalance({ address: getAddress(address) }),
    sweepGasCost: (fees) => TOKEN_TRANSFER_GAS * fees.maxFeePerGas,
    async signGasTopUp({ to, amount, nonce, fees }) {
      const raw = await options.treasury.signTransaction({
        chainId: options.chainId,
        to: getAddress(to),
        data: '0x',
        value: amount,
        nonce,
        gas: TOP_UP_GAS,
        ...fees,
      });
      return { raw, hash: keccak256(raw as Hex).toLowerCase(), nonce, fees };
    },
    async signSweep({ index, token, amount, nonce, fees }) {
      if (!options.depositSigner) throw new Error(`${options.network} holds no deposit keys: nothing can be swept`);
      const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [getAddress(options.treasury.address), amount] });
      const raw = await options
        .depositSigner(index)
        .signTransaction({ chainId: options.chainId, to: contractOf(token), data, nonce, gas: TOKEN_TRANSFER_GAS, ...fees });
      return { raw, hash: keccak256(raw as Hex).toLowerCase(), nonce, fees };
    },
    async broadcast(raw) {
      try {
        await client.sendRawTransaction({ serializedTransaction: raw as Hex });
      } catch (error) {
        // Sent before (by us, before a crash or a timeout): the node has it, or has mined it.
        if (/already known|known transaction|nonce too low|already imported/i.test(String((error as Error).message))) return;
        throw error;
      }
    },
    async receipt(hash): Promise<Receipt> {
      const found = await lookUpTransaction(hash);
      return found.found ? { status: 'mined', succeeded: found.succeeded, blockNumber: found.blockNumber, blockHash: found.blockHash } : { status: 'pending' };
    },
  } satisfies LiveChain);
}
