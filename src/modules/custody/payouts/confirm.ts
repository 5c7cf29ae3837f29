import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import { unitOfWork } from '../../../platform/db/unit-of-work.js';
import { takenHash } from '../attempts.js';
import { type SendingSettings, feesOf, replacementFees, wei } from '../fees.js';
import type { Token } from '../../../domain/money.js';
import type { Job } from '../../../platform/runtime/jobs.js';
import type { BlockRef, Fees, LiveChain, Receipt } from '../../../rails/port.js';
import type { PayoutCalls } from './calls.js';
import { broadcastPayouts } from './broadcast.js';
import { ChainPayout } from './entities.js';
import { tokenBaseUnits } from './sign.js';

const PAGE = 50;

/** What one pass over the chain knows: its head, and each sender's mined nonce read before any receipt. */
interface Pass {
  chain: LiveChain;
  head: BlockRef;
  minedNonce: Map<string, number>;
  replaceBefore: Date;
  now: Date;
  /** The chain's fees, read when a payout of the page may be replaced; null otherwise. */
  fees: Fees | null;
  /** No replacement is signed above this max fee per gas (wei). */
  feeCeiling: bigint;
  calls: PayoutCalls;
}

/**
 * Follows one in-flight payout: mined and succeeded → its confirmations, `completed` at the chain's
 * count; reverted → failed `payout_reverted`; its block reorganised away → `sent` again; none of
 * its hashes mined while the sender's mined nonce passed it → failed `payout_dropped`; not mined
 * for PAYOUT_REPLACE_AFTER_SECONDS → signed again under the same nonce with higher fees. Answers
 * whether it changed, and what must be broadcast once the transaction commits.
 */
async function follow(tx: EntityManager, pass: Pass, payout: ChainPayout, receipts: Receipt[]): Promise<{ changed: boolean; broadcast?: ChainPayout }> {
  const { chain } = pass;
  const minedNonce = pass.minedNonce.get(payout.sender)!;
  const hashes = [payout.transactionHash, ...payout.earlierHashes];
  const minedAt = receipts.findIndex((r) => r.status === 'mined');
  const now = pass.now;
  if (minedAt >= 0) {
    const receipt = receipts[minedAt] as Extract<Receipt, { status: 'mined' }>;
    // An attempt this one replaced may be the one the chain took: that is the payout's hash now.
    const taken = takenHash(payout.transactionHash, payout.earlierHashes, hashes[minedAt]!);
    [payout.transactionHash, payout.earlierHashes] = [taken.latest, taken.earlier];
    if (!receipt.succeeded) return { changed: await fail(tx, pass, payout, 'payout_reverted') };
    payout.status = 'mined';
    payout.blockNumber = Number(receipt.blockNumber);
    payout.blockHash = receipt.blockHash;
    const confirmations = Math.max(1, Number(pass.head.number - receipt.blockNumber) + 1);
    const changed = await pass.calls.payoutConfirming(tx, payout.transferId, payout.transactionHash, confirmations, chain.requiredConfirmations);
    if (confirmations < chain.requiredConfirmations) return { changed };
    payout.status = 'confirmed';
    await pass.calls.payoutConfirmed(tx, payout.transferId);
    return { changed: true };
  }
  if (payout.status === 'mined') {
    // Its block left the chain: the transaction is pending again (or forgotten by the node), so it is sent again.
    payout.status = 'sent';
    payout.blockNumber = null;
    payout.blockHash = null;
    payout.sentAt = now;
    await pass.calls.payoutRequeued(tx, payout.transferId);
    return { changed: true, broadcast: payout };
  }
  if (minedNonce > payout.nonce) return { changed: await fail(tx, pass, payout, 'payout_dropped') };
  if (payout.sentAt && payout.sentAt <= pass.replaceBefore && pass.fees) {
    const replacement = await replace(tx, pass, payout, pass.fees);
    // At the ceiling: sent again as it is, in case the node forgot it.
    return replacement ? { changed: true, broadcast: replacement } : { changed: false, broadcast: payout };
  }
  return { changed: false };
}

/** The payout fails, and its transfer with it (processing → failed): the customer's funds stay held, for a retry or a refund. */
async function fail(tx: EntityManager, pass: Pass, payout: ChainPayout, reason: 'payout_reverted' | 'payout_dropped'): Promise<boolean> {
  payout.status = 'failed';
  payout.failureReason = reason;
  await pass.calls.payoutFailed(tx, payout.transferId, reason);
  return true;
}

/**
 * Signs the payout again, same nonce, fees at least 12.5 % higher (or the chain's current ones, if higher still), never
 * above the ceiling: stored `signed`, broadcast after commit. At the ceiling already, it is left to wait (null), sent again as it is.
 */
async function replace(tx: EntityManager, pass: Pass, payout: ChainPayout, current: Fees): Promise<ChainPayout | null> {
  const { chain } = pass;
  const fees = replacementFees(feesOf(payout.maxFeePerGas, payout.maxPriorityFeePerGas), current, pass.feeCeiling);
  if (!fees) return null;
  const token = payout.token as Token;
  const signed = await chain.signPayout({ token, to: payout.to, amount: tokenBaseUnits(chain, payout.amount, token), nonce: payout.nonce, fees });
  payout.earlierHashes = [payout.transactionHash, ...payout.earlierHashes];
  payout.transactionHash = signed.hash;
  payout.rawTransaction = signed.raw;
  payout.maxFeePerGas = wei(fees.maxFeePerGas);
  payout.maxPriorityFeePerGas = wei(fees.maxPriorityFeePerGas);
  payout.status = 'signed';
  await pass.calls.payoutsSigned(tx, [{ transferId: payout.transferId, transactionHash: signed.hash }], chain.requiredConfirmations);
  return payout;
}

/**
 * The payout confirmation job of one live chain: follows every payout in flight (sent, or mined and
 * not yet confirmed), a page at a time, each page's rows claimed `SKIP LOCKED` in a transaction of its own.
 */
export function payoutConfirmationJob(chain: LiveChain, settings: SendingSettings, calls: PayoutCalls): Job {
  return {
    name: `payout-confirmations ${chain.key}`,
    // Every page is handled in one run; the runner need not call again.
    batchSize: Number.POSITIVE_INFINITY,
    async run(em) {
      let after = -1;
      let changed = 0;
      let head: BlockRef | null = null;
      const minedNonce = new Map<string, number>();
      for (;;) {
        // The page as it stands, and what the chain says of it, read before the page's transaction opens.
        const page = await em.find(
          ChainPayout,
          { chain: chain.key, status: { $in: ['sent', 'mined'] }, nonce: { $gt: after } },
          { orderBy: { nonce: 'asc' }, limit: PAGE, refresh: true },
        );
        if (!page.length) return changed;
        head ??= await chain.head();
        // Read before any receipt: a nonce mined by then whose hashes all lack a receipt afterwards was not ours.
        for (const sender of new Set(page.map((p) => p.sender))) {
          if (!minedNonce.has(sender)) minedNonce.set(sender, await chain.minedNonce(sender));
        }
        const now = new Date();
        const replaceBefore = new Date(now.getTime() - settings.replaceAfterSeconds * 1000);
        // Every receipt of the page asked at once (each payout's current and earlier hashes): the node answers them side by side.
        const read = new Map(
          await Promise.all(
            page.map(
              async (p) =>
                [p.id, { hash: p.transactionHash, receipts: await Promise.all([p.transactionHash, ...p.earlierHashes].map((h) => chain.receipt(h))) }] as const,
            ),
          ),
        );
        const mayReplace = page.some(
          (p) => p.status === 'sent' && p.sentAt && p.sentAt <= replaceBefore && read.get(p.id)!.receipts.every((r) => r.status === 'pending'),
        );
        const pass: Pass = {
          chain,
          head,
          minedNonce,
          now,
          replaceBefore,
          fees: mayReplace ? await chain.fees() : null,
          feeCeiling: settings.feeCeilingWei,
          calls,
        };
        const broadcast = await unitOfWork(em, async (tx) => {
          // Claimed SKIP LOCKED: a page another instance follows now is its own until it commits.
          const payouts = await tx.find(
            ChainPayout,
            { id: { $in: page.map((p) => p.id) } },
            { orderBy: { nonce: 'asc' }, refresh: true, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
          );
          const toBroadcast: ChainPayout[] = [];
          for (const payout of payouts) {
            const seen = read.get(payout.id)!;
            // Replaced or moved on by another instance since it was read: the next pass reads it again.
            if (payout.transactionHash !== seen.hash || !['sent', 'mined'].includes(payout.status)) continue;
            const followed = await follow(tx, pass, payout, seen.receipts);
            if (followed.changed) {
              changed++;
              payout.updatedAt = now;
            }
            if (followed.broadcast) toBroadcast.push(followed.broadcast);
          }
          await tx.flush();
          return toBroadcast;
        });
        // Replacements are `signed` until the node has them (broadcast.ts); a reorganised one is sent again as it is.
        await broadcastPayouts(
          em,
          chain,
          broadcast.filter((p) => p.status === 'signed'),
        );
        for (const payout of broadcast.filter((p) => p.status === 'sent')) await chain.broadcast(payout.rawTransaction).catch(() => undefined);
        if (page.length < PAGE) return changed;
        after = page.at(-1)!.nonce;
      }
    },
  };
}
