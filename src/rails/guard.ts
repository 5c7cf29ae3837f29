import { assertOutsideTransaction } from '../platform/db/unit-of-work.js';
import type { BankRails, LiveChain } from './port.js';

/** The members of a chain that talk to its node: each is refused inside a database transaction. */
const CHAIN_CALLS = [
  'head',
  'block',
  'tokenTransfers',
  'lookUpTransaction',
  'tokenBalance',
  'minedNonce',
  'fees',
  'signPayout',
  'broadcast',
  'receipt',
  'nativeBalance',
  'signGasTopUp',
  'signSweep',
] as const satisfies readonly (keyof LiveChain)[];

/**
 * The adapter as use cases and jobs get it: every call to the outside first checks that no database
 * transaction is open (platform/db/unit-of-work.ts), so a chain call inside one fails at once, in
 * tests and in production alike, rather than holding locks for an RPC's timeout.
 */
export function guardedChain(chain: LiveChain): LiveChain {
  const guarded: Record<string, unknown> = {};
  for (const call of CHAIN_CALLS) {
    const member = chain[call] as (...args: unknown[]) => unknown;
    guarded[call] = (...args: unknown[]) => {
      assertOutsideTransaction(`${chain.key} ${call}`);
      return member.apply(chain, args);
    };
  }
  return Object.freeze({ ...chain, ...guarded }) as LiveChain;
}

export function guardedBank(bank: BankRails): BankRails {
  return Object.freeze({
    ...bank,
    payOut: (payout: Parameters<BankRails['payOut']>[0]) => {
      assertOutsideTransaction(`bank payOut ${payout.transferId}`);
      return bank.payOut(payout);
    },
  });
}

/** Wraps each of an object's async members in the guard (the sandbox chain's tools). */
export function guardedTools<T extends object>(name: string, tools: T): T {
  const guarded: Record<string, unknown> = { ...(tools as Record<string, unknown>) };
  for (const [key, value] of Object.entries(tools)) {
    if (typeof value !== 'function') continue;
    guarded[key] = (...args: unknown[]) => {
      assertOutsideTransaction(`${name} ${key}`);
      return (value as (...a: unknown[]) => unknown).apply(tools, args);
    };
  }
  return guarded as T;
}
