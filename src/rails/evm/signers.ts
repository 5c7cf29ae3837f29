import { type Address, type Hex, type PublicClient, encodeFunctionData, erc20Abi, getAddress, keccak256 } from 'viem';
import type { Token } from '../../domain/money.js';
import type { DepositSweeper, Fees, SignedPayout, Signer, TreasurySender } from '../port.js';

/**
 * A token transfer's gas limit (payouts and sweeps): fixed rather than estimated, so signing needs no call to the node
 * (it happens in the transaction that stores the signed transaction), and a sweep's gas can be sent to the deposit
 * address before the sweep is signed. 100k covers an ERC-20 transfer to a new holder (USDC and USDT take 35–65k);
 * what is not burnt is not paid.
 */
const TOKEN_TRANSFER_GAS = 100_000n;
/** A plain value transfer. */
const TOP_UP_GAS = 21_000n;

const signed = (raw: string, nonce: number, fees: Fees): SignedPayout => ({ raw, hash: keccak256(raw as Hex).toLowerCase(), nonce, fees });
const transferData = (to: string, amount: bigint) => encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [getAddress(to), amount] });

/** The treasury sender role of the EVM adapter: signs payouts and gas top-ups with the treasury's key, and broadcasts. */
export function evmTreasurySender(client: PublicClient, chainId: number, treasury: Signer, contractOf: (token: Token) => Address): TreasurySender {
  return {
    treasury: treasury.address,
    async signPayout({ token, to, amount, nonce, fees }) {
      const raw = await treasury.signTransaction({ chainId, to: contractOf(token), data: transferData(to, amount), nonce, gas: TOKEN_TRANSFER_GAS, ...fees });
      return signed(raw, nonce, fees);
    },
    async signGasTopUp({ to, amount, nonce, fees }) {
      const raw = await treasury.signTransaction({ chainId, to: getAddress(to), data: '0x', value: amount, nonce, gas: TOP_UP_GAS, ...fees });
      return signed(raw, nonce, fees);
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
  };
}

/** The sweeper role of the EVM adapter: signs a deposit address's token transfer to the treasury with its own key. */
export function evmDepositSweeper(
  chainId: number,
  treasury: string,
  depositSigner: ((index: number) => Signer) | null,
  contractOf: (token: Token) => Address,
  network: string,
): DepositSweeper {
  return {
    sweeps: depositSigner !== null,
    sweepGasCost: (fees) => TOKEN_TRANSFER_GAS * fees.maxFeePerGas,
    async signSweep({ index, token, amount, nonce, fees }) {
      if (!depositSigner) throw new Error(`${network} holds no deposit keys: nothing can be swept`);
      const raw = await depositSigner(index).signTransaction({
        chainId,
        to: contractOf(token),
        data: transferData(treasury, amount),
        nonce,
        gas: TOKEN_TRANSFER_GAS,
        ...fees,
      });
      return signed(raw, nonce, fees);
    },
  };
}
