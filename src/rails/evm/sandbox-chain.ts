import {
  type Address,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  encodeAbiParameters,
  getContractAddress,
  keccak256,
  parseUnits,
} from 'viem';
import { EVM_NETWORKS, type Network, TOKENS, type Token } from '../../domain/money.js';
import type { Fees, SignedPayout, Signer, TokenContract } from '../port.js';
import { type RpcEndpoint, chainFailure, rpcTransport } from './rpc.js';
import { sandboxTokenAbi, sandboxTokenBytecode } from './sandbox-token.js';

/**
 * What the sandbox's local chain holds, set up by Ramp itself: a USDC and a USDT contract per EVM
 * network (one chain serves the four networks, each with its own contracts, so a polygon deposit
 * of base's USDC is the wrong token as it would be for real), and a funded treasury.
 *
 * The contracts are deployed by the node's first account, in a fixed order from its nonce 0, so
 * their addresses follow from the deployer alone: every instance pointed at the same chain finds
 * them without asking the database, and a chain that was reset gets them back at the same addresses.
 * The deployer mints. At set-up (before anything else signs for it) the node assigns its nonces; after, the
 * faucet's mints are signed with its key under the nonce allocator every account Ramp signs for has
 * (modules/custody/nonces.ts), stored, and sent after commit, so concurrent mints never collide.
 */
export const SANDBOX_CHAIN_ID = 31337;
/** Anvil's and Hardhat's public development mnemonic: its keys guard nothing but test tokens. */
export const SANDBOX_MNEMONIC = 'test test test test test test test test test test test junk';
/** BIP-44 accounts of the sandbox mnemonic: who does what on the local chain. */
export const SANDBOX_ACCOUNTS = { minter: 0, deposits: 1, customers: 2 } as const;
/** The treasury's float at start, per token and network. */
const TREASURY_FLOAT = parseUnits('10000000', 6);

const DEPLOY_ORDER: readonly { network: Network; token: Token }[] = EVM_NETWORKS.flatMap((network) => TOKENS.map((token) => ({ network, token })));

/** A token contract Ramp deployed; its decimals are the contract's own, read where the chain is opened. */
export type DeployedToken = Omit<TokenContract, 'decimals'>;

export interface SandboxChainSetup {
  tokens: Record<string, DeployedToken[]>;
  /** True when this start deployed the contracts (a new chain); false when it found them. */
  deployed: boolean;
}

const clients = (rpc: RpcEndpoint) => ({
  publicClient: createPublicClient({ transport: rpcTransport(rpc) }),
  walletClient: createWalletClient({ transport: rpcTransport(rpc) }),
});

/** Longest wait for a transaction the local chain accepted to be mined: many block times of a busy sandbox. */
const MINING_WAIT_MS = 60_000;

/**
 * The receipt once the transaction is mined. Polled by hand rather than with viem's watcher, which swallows a node
 * that stopped answering and waits minutes: here the first request that times out or fails ends the wait.
 */
async function mined(client: PublicClient, hash: Hex): Promise<TransactionReceipt> {
  const giveUpAt = Date.now() + MINING_WAIT_MS;
  for (;;) {
    const receipt = await client.getTransactionReceipt({ hash }).catch((error: unknown) => {
      if (error instanceof TransactionReceiptNotFoundError) return null;
      throw error;
    });
    if (receipt) return receipt;
    if (Date.now() > giveUpAt) throw new Error(`transaction ${hash} was not mined within ${MINING_WAIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A sandbox tool's failure: a node that does not answer is the sandbox chain's outage (one node serves every network). */
const sandboxChainFailure = (error: unknown) => chainFailure(null, error);

/** Finds or deploys the sandbox contracts and funds the `treasuries` (one per EVM network, in EVM_NETWORKS order), on the chain at `rpc`. */
export async function setUpSandboxChain(rpc: RpcEndpoint, minter: string, treasuries: readonly string[]): Promise<SandboxChainSetup> {
  const { publicClient, walletClient } = clients(rpc);
  const from = getAddress(minter);
  const addresses = DEPLOY_ORDER.map((_, nonce) => getContractAddress({ from, nonce: BigInt(nonce) }));
  const code = await publicClient.getCode({ address: addresses[addresses.length - 1]! });
  let deployed = false;
  const tokens: Record<string, DeployedToken[]> = Object.fromEntries(
    EVM_NETWORKS.map((network) => [
      network,
      DEPLOY_ORDER.flatMap((d, i) => (d.network === network ? [{ token: d.token, contractAddress: addresses[i]! }] : [])),
    ]),
  );
  if (!code || code === '0x') {
    const nonce = await publicClient.getTransactionCount({ address: from });
    if (nonce !== 0)
      throw new Error(`the chain at ${rpc.url} was not set up by Ramp: its deployer ${from} has sent ${nonce} transactions but holds no token contracts`);
    // Sent one after another without waiting (the node numbers them in order), awaited together: a chain that
    // mines every few seconds sets up in one or two blocks.
    const sent: Hex[] = [];
    for (const { network, token } of DEPLOY_ORDER) {
      sent.push(
        await walletClient.deployContract({
          abi: sandboxTokenAbi,
          bytecode: sandboxTokenBytecode,
          args: [`Sandbox ${token.toUpperCase()} (${network})`, token.toUpperCase()],
          account: from,
          chain: null,
        }),
      );
    }
    // Mined before the mints are sent: a mint's gas is estimated against the latest block, where a contract still
    // in the mempool has no code (the estimate would be a plain transfer's, and the mint would run out of gas).
    for (const hash of sent.splice(0)) await mined(publicClient, hash);
    // Each network's treasury holds a float of that network's two tokens, and gas.
    for (const [i, network] of EVM_NETWORKS.entries()) {
      const treasury = treasuries[i];
      if (!treasury) continue;
      await giveGas(rpc, treasury);
      for (const contract of tokens[network]!) sent.push(await sendMint(rpc, from, contract.contractAddress as Address, treasury, TREASURY_FLOAT));
    }
    for (const hash of sent) {
      const receipt = await mined(publicClient, hash);
      if (receipt.status !== 'success') throw new Error(`setting up the sandbox chain at ${rpc.url} failed: transaction ${hash} reverted`);
    }
    deployed = true;
  }
  return { tokens, deployed };
}

/** Sends a mint (the node assigns the minter's nonce) and answers its hash without waiting for a block. */
function sendMint(rpc: RpcEndpoint, minter: Address, contract: Address, to: string, amount: bigint): Promise<Hex> {
  const data = encodeFunctionData({ abi: sandboxTokenAbi, functionName: 'mint', args: [getAddress(to), amount] });
  return clients(rpc).walletClient.sendTransaction({ account: minter, to: contract, data, chain: null });
}

/** Gas for a wallet of the local chain (anvil's own cheat code): enough for many token transfers. */
export async function giveGas(rpc: RpcEndpoint, address: string): Promise<void> {
  const { publicClient } = clients(rpc);
  await publicClient.request({ method: 'anvil_setBalance' as never, params: [getAddress(address), '0x8AC7230489E80000'] as never }).catch(sandboxChainFailure);
}

/** A mint's gas limit: fixed, so signing one asks the node nothing (a mint to a new holder takes about 70k). */
const MINT_GAS = 120_000n;

/** Signs a faucet mint with the minter's key: `amount` base units of `contract` to `to`, under a nonce Ramp allocated. */
export async function signMint(
  minter: Signer,
  chainId: number,
  mint: { contract: string; to: string; amount: bigint; nonce: number; fees: Fees },
): Promise<SignedPayout> {
  const data = encodeFunctionData({ abi: sandboxTokenAbi, functionName: 'mint', args: [getAddress(mint.to), mint.amount] });
  const raw = await minter.signTransaction({ chainId, to: getAddress(mint.contract), data, nonce: mint.nonce, gas: MINT_GAS, ...mint.fees });
  return { raw, hash: keccak256(raw as Hex).toLowerCase(), nonce: mint.nonce, fees: mint.fees };
}

/** Where the sandbox token keeps a holder's balance: `balanceOf` is its fourth slot (contracts/SandboxToken.sol). */
const balanceSlot = (holder: string) => keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [getAddress(holder), 3n]));

/**
 * Funds a wallet the sandbox plays (a customer's) with `amount` more of a token, and gas, by writing the contract's
 * storage (anvil's cheat code): no transaction, so no one's nonce. Ramp's own mints go through its nonce allocator.
 */
export async function fundWallet(rpc: RpcEndpoint, contract: string, wallet: string, amount: bigint): Promise<void> {
  const { publicClient } = clients(rpc);
  try {
    const held = await publicClient.readContract({ address: getAddress(contract), abi: erc20Abi, functionName: 'balanceOf', args: [getAddress(wallet)] });
    const value = `0x${(held + amount).toString(16).padStart(64, '0')}`;
    await publicClient.request({ method: 'anvil_setStorageAt' as never, params: [getAddress(contract), balanceSlot(wallet), value] as never });
    await giveGas(rpc, wallet);
  } catch (error) {
    sandboxChainFailure(error);
  }
}

/**
 * A customer's wallet sends `amount` of a token to `to`, as the customer would from their own
 * wallet: a real `transfer` transaction. The local node signs for the wallet (anvil's impersonation),
 * so the sandbox holds no key for it. Answers the transaction's hash once mined.
 */
export async function sendFromWallet(rpc: RpcEndpoint, wallet: string, contract: string, to: string, amount: bigint): Promise<string> {
  const { publicClient, walletClient } = clients(rpc);
  const from = getAddress(wallet);
  try {
    await publicClient.request({ method: 'anvil_impersonateAccount' as never, params: [from] as never });
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [getAddress(to), amount] });
    const hash = await walletClient.sendTransaction({ account: from, to: getAddress(contract), data, chain: null });
    await mined(publicClient, hash);
    return hash.toLowerCase();
  } catch (error) {
    return sandboxChainFailure(error);
  }
}
