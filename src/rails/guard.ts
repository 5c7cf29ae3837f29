import { assertOutsideTransaction } from '../platform/db/unit-of-work.js';
import type { BankRails, FiatPayout, LiveChain } from './port.js';

/**
 * The members of a chain that talk to its node: each is refused inside a database transaction. Signing is not among
 * them: it asks the node nothing, and a signed transaction is stored in the transaction that takes its nonce.
 */
const CHAIN_CALLS = [
  'head',
  'block',
  'tokenTransfers',
  'lookUpTransaction',
  'tokenBalance',
  'minedNonce',
  'fees',
  'broadcast',
  'receipt',
  'nativeBalance',
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

/** The bank as use cases get it: each call that talks to the outside (a payout, a file sent or read) refused in a transaction. */
export function guardedBank(bank: BankRails): BankRails {
  if (bank.kind === 'in_process') {
    return Object.freeze({
      ...bank,
      payOut: (payout: FiatPayout) => {
        assertOutsideTransaction(`bank payOut ${payout.transferId}`);
        return bank.payOut(payout);
      },
    });
  }
  return Object.freeze({ ...bank, transport: guardedTools('bank transport', bank.transport, ['send', 'received', 'processed', 'rejected']) });
}

/** Wraps the named members of an object in the guard (the sandbox chain's tools that talk to its node). */
export function guardedTools<T extends object>(name: string, tools: T, calls: readonly (keyof T & string)[]): T {
  const guarded: Record<string, unknown> = { ...(tools as Record<string, unknown>) };
  for (const key of calls) {
    const value: unknown = tools[key];
    guarded[key] = (...args: unknown[]) => {
      assertOutsideTransaction(`${name} ${key}`);
      return (value as (...a: unknown[]) => unknown).apply(tools, args);
    };
  }
  return guarded as T;
}
