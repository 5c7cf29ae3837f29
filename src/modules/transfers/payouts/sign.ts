import type { EntityManager } from '@mikro-orm/sql';
import { Decimal, SCALE, type Token } from '../../../domain/money.js';
import { scopeTo } from '../../../platform/tenant.js';
import type { LiveChain } from '../../../rails/port.js';
import type { Quote, Transfer } from '../entities.js';
import { moveTransfer } from '../lifecycle.js';
import { ChainPayout } from './entities.js';

/** A processing on-ramp, locked by the caller, with the quote that says what it pays. */
export interface PayableTransfer {
  transfer: Transfer;
  quote: Quote;
}

/** A token amount in base units, exactly: a quote's destination amount never has more decimals than its token. */
export function baseUnits(amount: Decimal, token: Token): bigint {
  const decimals = SCALE[token];
  if (amount.decimalPlaces() > decimals) throw new Error(`${amount.toFixed()} ${token} has more than ${decimals} decimals`);
  return BigInt(amount.times(new Decimal(10).pow(decimals)).toFixed(0));
}

/**
 * Locks the chain's sender row `FOR UPDATE` (the nonce lock, held until the caller's transaction
 * ends) and answers the next nonce to sign. A sender seen for the first time starts at the chain's
 * mined nonce; a nonce spent outside Ramp (the same key used elsewhere) is skipped, never reused.
 */
async function lockSender(tx: EntityManager, chain: LiveChain): Promise<{ next: number; mined: number }> {
  const sender = chain.treasury.toLowerCase();
  const locked = () =>
    tx.execute<{ next_nonce: string }[]>('select next_nonce from chain_senders where chain = ? and address = ? for update', [chain.key, sender]);
  let [row] = await locked();
  if (!row) {
    await tx.execute('insert into chain_senders (chain, address, next_nonce, updated_at) values (?, ?, ?, now()) on conflict do nothing', [
      chain.key,
      sender,
      await chain.minedNonce(chain.treasury),
    ]);
    [row] = await locked();
  }
  const mined = await chain.minedNonce(chain.treasury);
  return { next: Math.max(Number(row!.next_nonce), mined), mined };
}

/** The treasury's next nonce to sign, once the caller's nonces up to it are signed and stored (the lock still held). */
const moveNonceTo = (tx: EntityManager, chain: LiveChain, next: number) =>
  tx.execute('update chain_senders set next_nonce = ?, updated_at = now() where chain = ? and address = ?', [next, chain.key, chain.treasury.toLowerCase()]);

/**
 * One nonce of the treasury for a transaction other than a payout (a sweep's gas top-up): taken under the same lock,
 * so payouts and top-ups share one sequence and never one nonce. The caller stores what it signs before it commits.
 */
export async function takeTreasuryNonce(tx: EntityManager, chain: LiveChain): Promise<number> {
  const { next } = await lockSender(tx, chain);
  await moveNonceTo(tx, chain, next + 1);
  return next;
}

/**
 * What the treasury can still pay in `token`: its balance less what its payouts not yet mined will
 * take. Not yet mined is told by the chain's nonce, not by the payout's status (the confirmation
 * job may not have seen a mined one yet, and its amount has left the balance already).
 */
async function available(tx: EntityManager, chain: LiveChain, token: Token, minedNonce: number): Promise<bigint> {
  const [inFlight] = await tx.execute<{ total: string }[]>(
    `select coalesce(sum(amount), 0)::text as total from chain_payouts
     where chain = ? and sender = ? and token = ? and status in ('signed', 'sent') and nonce >= ?`,
    [chain.key, chain.treasury.toLowerCase(), token, minedNonce],
  );
  return (await chain.tokenBalance(token, chain.treasury)) - baseUnits(new Decimal(inFlight!.total), token);
}

/**
 * Signs a payout for each transfer under the chain's nonce lock and stores it, in the caller's
 * transaction: the signed transaction and its hash are on record before anything is broadcast
 * (broadcast.ts does that once the caller commits). A transfer the treasury cannot cover fails
 * `treasury_insufficient_funds` instead of being sent to revert; its funds stay held for a refund.
 */
export async function signPayouts(tx: EntityManager, chain: LiveChain, payable: readonly PayableTransfer[]): Promise<ChainPayout[]> {
  if (!payable.length) return [];
  const { next: first, mined } = await lockSender(tx, chain);
  // What the treasury covers decides who is paid, in order; each paid transfer takes the next nonce.
  const left = new Map<Token, bigint>();
  const paying: (PayableTransfer & { token: Token; amount: bigint; nonce: number })[] = [];
  for (const { transfer, quote } of payable) {
    const token = quote.destinationCurrency as Token;
    const amount = baseUnits(quote.destinationAmount, token);
    const canPay = left.get(token) ?? (await available(tx, chain, token, mined));
    if (amount > canPay) {
      await moveTransfer(scopeTo(tx, transfer), transfer, quote, 'failed', 'treasury_insufficient_funds');
      continue;
    }
    left.set(token, canPay - amount);
    paying.push({ transfer, quote, token, amount, nonce: first + paying.length });
  }
  if (!paying.length) return [];
  const fees = await chain.fees();
  // Signed side by side: each waits on its gas estimate, and their nonces are already theirs.
  const signatures = await Promise.all(
    paying.map((p) => chain.signPayout({ token: p.token, to: p.transfer.destinationAddress!, amount: p.amount, nonce: p.nonce, fees })),
  );
  const now = new Date();
  const signed = paying.map(({ transfer, quote, token, nonce }, i) => {
    const payout = signatures[i]!;
    // Shown at once as destination_transaction_hash: the partner can follow it on chain before it completes.
    transfer.payoutTransactionHash = payout.hash;
    transfer.requiredConfirmations = chain.requiredConfirmations;
    transfer.confirmations = 0;
    transfer.updatedAt = now;
    return tx.create(ChainPayout, {
      transferId: transfer.id,
      chain: chain.key,
      sender: chain.treasury.toLowerCase(),
      nonce,
      token,
      to: transfer.destinationAddress!.toLowerCase(),
      amount: quote.destinationAmount,
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
  await moveNonceTo(tx, chain, first + paying.length);
  await tx.flush();
  return signed;
}
