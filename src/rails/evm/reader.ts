import { type Address, type Hex, type PublicClient, erc20Abi, getAddress, parseEventLogs } from 'viem';
import type { Token } from '../../domain/money.js';
import type { BlockRef, ChainReader, Fees, Receipt, TokenContract, TokenTransfer, TransactionLookup } from '../port.js';

const TRANSFER_EVENT = erc20Abi.find((item) => item.type === 'event' && item.name === 'Transfer')!;

/** The reader role of the EVM adapter: blocks, logs, receipts, balances, nonces and fees, over `client`. */
export function evmReader(client: PublicClient, tokens: readonly TokenContract[], contractOf: (token: Token) => Address): ChainReader {
  const tokenOf = new Map(tokens.map((t) => [t.contractAddress.toLowerCase(), t.token]));

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

  return {
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
        address: tokens.map((t) => t.contractAddress as Address),
        event: TRANSFER_EVENT,
        args: { to: recipients.map((r) => getAddress(r)) },
        fromBlock,
        toBlock,
      });
      return toTransfers(logs);
    },
    lookUpTransaction,
    async receipt(hash): Promise<Receipt> {
      const found = await lookUpTransaction(hash);
      return found.found ? { status: 'mined', succeeded: found.succeeded, blockNumber: found.blockNumber, blockHash: found.blockHash } : { status: 'pending' };
    },
    tokenBalance: (token, address) =>
      client.readContract({ address: contractOf(token), abi: erc20Abi, functionName: 'balanceOf', args: [getAddress(address)] }),
    nativeBalance: (address) => client.getBalance({ address: getAddress(address) }),
    minedNonce: (address) => client.getTransactionCount({ address: getAddress(address), blockTag: 'latest' }),
    async fees(): Promise<Fees> {
      const { maxFeePerGas, maxPriorityFeePerGas } = await client.estimateFeesPerGas({ type: 'eip1559', chain: null });
      return { maxFeePerGas, maxPriorityFeePerGas };
    },
  };
}
