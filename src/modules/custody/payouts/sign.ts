import type { EntityManager } from '@mikro-orm/sql';
import { Decimal, type Token } from '../../../domain/money.js';
import { baseUnits } from '../../../domain/token-units.js';
import type { Fees, LiveChain } from '../../../rails/port.js';
import { type SenderReading, readSender, takeNonces } from '../nonces.js';
import type { PayoutCalls, PayoutRequest } from './calls.js';
import { ChainPayout, type PayoutTables } from './entities.js';
import { readsOver } from '../../../platform/reads/queries.js';
import { sql } from 'kysely';

/** A token amount in base units, by the decimals the token's contract on this chain declares (read at start). */
export function tokenBaseUnits(chain: LiveChain, amount: Decimal, token: Token): bigint {
  const contract = chain.tokens.find((t) => t.token === token);
  if (!contract) throw new Error(`${token} is not configured on ${chain.key}`);
  return baseUnits(amount, contract.decimals);
}

/**
 * What signing payouts (or a top-up) needs from the chain, read before the transaction opens: the treasury's mined
 * nonce (read first: a payout mined between the two reads is then counted twice, never missed), its balance of each
 * token, and the fees to sign at.
 */
export interface TreasuryReading {
  sender: SenderReading;
  balances: ReadonlyMap<Token, bigint>;
  fees: Fees;
}

export async function readTreasury(chain: LiveChain): Promise<TreasuryReading> {
  const sender = await readSender(chain, chain.treasury);
  const balances = new Map<Token, bigint>();
  for (const { token } of chain.tokens) balances.set(token, await chain.tokenBalance(token, chain.treasury));
  return { sender, balances, fees: await chain.fees() };
}

/**
 * What the treasury can still pay in `token`: its balance less what its payouts not yet mined will
 * take. Not yet mined is told by the chain's nonce, not by the payout's status (the confirmation
 * job may not have seen a mined one yet, and its amount has left the balance already).
 */
async function available(tx: EntityManager, chain: LiveChain, reading: TreasuryReading, token: Token): Promise<bigint> {
  const [inFlight] = await readsOver<PayoutTables>()
    .acrossTenants(tx, 'chain_payouts', 'p')
    .select(sql<string>`coalesce(sum(p.amount), 0)::text`.as('total'))
    .where('p.chain', '=', chain.key)
    .where('p.sender', '=', chain.treasury.toLowerCase())
    .where('p.token', '=', token)
    .where('p.status', 'in', ['signed', 'sent'])
    .where('p.nonce', '>=', reading.sender.minedNonce)
    .execute();
  return (reading.balances.get(token) ?? 0n) - tokenBaseUnits(chain, new Decimal(inFlight!.total), token);
}

/**
 * Signs a payout for each transfer under the chain's nonce lock and stores it, in the caller's
 * transaction: the signed transaction and its hash are on record before anything is broadcast
 * (broadcast.ts does that once the caller commits). A transfer the treasury cannot cover fails
 * `treasury_insufficient_funds` instead of being sent to revert; its funds stay held for a refund.
 */
export async function signPayouts(
  tx: EntityManager,
  chain: LiveChain,
  reading: TreasuryReading,
  requests: readonly PayoutRequest[],
  calls: PayoutCalls,
): Promise<ChainPayout[]> {
  if (!requests.length) return [];
  // What the treasury covers decides who is paid, in order; each paid transfer takes the next nonce.
  const left = new Map<Token, bigint>();
  const paying: (PayoutRequest & { units: bigint; nonce: number })[] = [];
  for (const request of requests) {
    const units = tokenBaseUnits(chain, request.amount, request.token);
    const canPay = left.get(request.token) ?? (await available(tx, chain, reading, request.token));
    if (units > canPay) {
      await calls.payoutFailed(tx, request.transferId, 'treasury_insufficient_funds');
      continue;
    }
    left.set(request.token, canPay - units);
    paying.push({ ...request, units, nonce: paying.length });
  }
  if (!paying.length) return [];
  const first = await takeNonces(tx, chain.key, reading.sender, paying.length);
  for (const p of paying) p.nonce += first;
  const { fees } = reading;
  // Signed side by side: a remote signer answers them in parallel, and their nonces are already theirs.
  const signatures = await Promise.all(paying.map((p) => chain.signPayout({ token: p.token, to: p.to, amount: p.units, nonce: p.nonce, fees })));
  const now = new Date();
  const signed = paying.map(({ transferId, to, token, amount, nonce }, i) => {
    const payout = signatures[i]!;
    return tx.create(ChainPayout, {
      transferId,
      chain: chain.key,
      sender: chain.treasury.toLowerCase(),
      nonce,
      token,
      to: to.toLowerCase(),
      amount,
      rawTransaction: payout.raw,
      transactionHash: payout.hash,
      earlierHashes: [],
      maxFeePerGas: new Decimal(fees.maxFeePerGas.toString()),
      maxPriorityFeePerGas: new Decimal(fees.maxPriorityFeePerGas.toString()),
      status: 'signed',
      sentAt: null,
      updatedAt: now,
    });
  });
  await tx.flush();
  // Shown at once as destination_transaction_hash: the partner can follow it on chain before it completes.
  await calls.payoutsSigned(tx, signed, chain.requiredConfirmations);
  return signed;
}
