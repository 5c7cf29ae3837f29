import solc from 'solc';
import { encodeFunctionData, getAddress } from 'viem';
import type { ChainTestRamp } from './ramp.js';

/**
 * A contract wallet that pays one recipient in several `Transfer` logs of one transaction, as a
 * batching wallet or a payment splitter does: compiled here, deployed on the test's chain.
 */
const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
interface Token { function transfer(address to, uint256 amount) external returns (bool); }
contract SplitPayer {
  function pay(address token, address to, uint256 part, uint256 parts) external {
    for (uint256 i = 0; i < parts; i++) require(Token(token).transfer(to, part));
  }
}`;

const PAY_ABI = [
  {
    type: 'function',
    name: 'pay',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'token', type: 'address' },
      { name: 'to', type: 'address' },
      { name: 'part', type: 'uint256' },
      { name: 'parts', type: 'uint256' },
    ],
    outputs: [],
  },
] as const;

function bytecode(): string {
  const input = {
    language: 'Solidity',
    sources: { 'SplitPayer.sol': { content: SOURCE } },
    settings: { outputSelection: { '*': { '*': ['evm.bytecode.object'] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  return `0x${output.contracts['SplitPayer.sol'].SplitPayer.evm.bytecode.object}`;
}

/** Deploys the payer from `wallet` (impersonated, given gas by the faucet first); answers a way to pay with it. */
export async function deploySplitPayer(t: ChainTestRamp, wallet: string) {
  await t.rpc('anvil_impersonateAccount', [wallet]);
  const hash = await t.rpc<string>('eth_sendTransaction', [{ from: wallet, data: bytecode(), gas: '0x100000' }]);
  // Mined on the node's next block, which may not be this instant (automine answers first, or a block time is set).
  let receipt: { contractAddress: string } | null = null;
  for (let tries = 0; !receipt && tries < 100; tries++) {
    receipt = await t.rpc<{ contractAddress: string } | null>('eth_getTransactionReceipt', [hash]);
    if (!receipt) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!receipt) throw new Error(`the split payer's deployment ${hash} was not mined within 10 s`);
  const address = getAddress(receipt.contractAddress);
  return {
    address,
    /** One transaction from the payer's balance: `parts` transfers of `part` base units each to `to`. */
    pay: (token: string, to: string, part: bigint, parts: number) =>
      t.rpc<string>('eth_sendTransaction', [
        {
          from: wallet,
          to: address,
          data: encodeFunctionData({ abi: PAY_ABI, functionName: 'pay', args: [getAddress(token), getAddress(to), part, BigInt(parts)] }),
          gas: '0x100000',
        },
      ]),
  };
}
