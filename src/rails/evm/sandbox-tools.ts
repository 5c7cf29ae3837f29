import type { ChainIdentity, ChainReader, SandboxChainTools, Signer, TreasurySender } from '../port.js';
import { SANDBOX_ACCOUNTS, SANDBOX_MNEMONIC, fundWallet, giveGas, sendFromWallet, signMint } from './sandbox-chain.js';
import { signerFromMnemonic } from './hd.js';
import type { RpcEndpoint } from './rpc.js';

/**
 * The sandbox adapter over the local chain at `rpc`: Ramp's minter signs mints (their nonces come from Ramp's
 * allocator), and the sandbox plays its customers' wallets. `node` is any chain of the local node (they share it).
 */
export function sandboxTools(options: {
  rpc: RpcEndpoint;
  ownNode: boolean;
  chainId: number;
  node: ChainIdentity & ChainReader & TreasurySender;
  minter: Signer;
}): SandboxChainTools {
  const { rpc, chainId, node, minter } = options;
  const customerWallet = (index: number) => signerFromMnemonic(SANDBOX_MNEMONIC, SANDBOX_ACCOUNTS.customers, index).address;
  return {
    rpcUrl: rpc.url,
    ownNode: options.ownNode,
    mintSequence: `sandbox:chain-${chainId}:minter`,
    minter: minter.address.toLowerCase(),
    readMinter: async () => ({ minedNonce: await node.minedNonce(minter.address), fees: await node.fees() }),
    signMint: (mint) => signMint(minter, chainId, mint),
    async sendMint(raw, to) {
      await giveGas(rpc, to);
      await node.broadcast(raw);
    },
    receipt: (hash) => node.receipt(hash),
    head: () => node.head(),
    requiredConfirmations: node.requiredConfirmations,
    faucet: (contract, address, amount) => fundWallet(rpc, contract.contractAddress, address, amount),
    async sendFromCustomer(contract, walletIndex, to, amount) {
      const wallet = customerWallet(walletIndex);
      await fundWallet(rpc, contract.contractAddress, wallet, amount);
      return sendFromWallet(rpc, wallet, contract.contractAddress, to, amount);
    },
  };
}
