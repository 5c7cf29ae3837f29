import type { EntityManager } from '@mikro-orm/sql';
import { Refusal } from '../../refusal.js';
import type { ChainReader } from '../../rails/port.js';
import type { Rails } from '../../rails/registry.js';
import { ChainMint, ChainSender, ChainSweep } from './entities.js';
import { ChainPayout } from './payouts/entities.js';

/** One account Ramp signs for on the sandbox's own node, and the nonce sequence it takes its nonces from. */
interface Sender {
  sequence: string;
  address: string;
}

/**
 * The hashes of what was stored under `nonce` of the sender, and whether a follower sends it again by itself (it is
 * not yet final): a payout or mint not confirmed, a top-up whose sweep is still under way. None when nothing was.
 */
async function storedAt(em: EntityManager, sender: Sender, nonce: number): Promise<{ hashes: string[]; open: boolean } | null> {
  const where = { chain: sender.sequence, sender: sender.address, nonce };
  const payout = await em.findOne(ChainPayout, where);
  if (payout) return { hashes: [payout.transactionHash, ...payout.earlierHashes], open: ['signed', 'sent', 'mined'].includes(payout.status) };
  const mint = await em.findOne(ChainMint, { sequence: sender.sequence, sender: sender.address, nonce });
  if (mint) return { hashes: [mint.transactionHash, ...mint.earlierHashes], open: mint.status !== 'confirmed' };
  const topUp = await em.findOne(ChainSweep, { chain: sender.sequence, gasNonce: nonce });
  if (topUp) return { hashes: [topUp.gasTransactionHash!, ...topUp.gasEarlierHashes], open: ['funding', 'sweeping'].includes(topUp.status) };
  return null;
}

/**
 * Refuses to start when the sandbox's own node holds a chain the database does not belong to: a chain reset (its state
 * deleted, or a node that keeps none, as on PostgreSQL) under a kept database. Then a sender's next stored nonce is
 * ahead of the chain's, and what was stored at the chain's next nonce is neither on the chain nor left to be sent
 * again (the database counts it final): every later transaction of that sender would wait forever behind the gap.
 * A crash between storing and sending is not that: what was stored is still open, and its follower sends it.
 */
export async function refuseResetSandboxChain(em: EntityManager, rails: Rails): Promise<void> {
  const tools = rails.sandboxChain;
  if (!tools?.ownNode) return;
  const chains = rails.liveChains().filter((c) => c.environment === 'sandbox');
  const node: ChainReader | undefined = chains[0];
  if (!node) return;
  const senders: Sender[] = [
    ...chains.map((c) => ({ sequence: c.key, address: c.treasury.toLowerCase() })),
    { sequence: tools.mintSequence, address: tools.minter },
  ];
  for (const sender of senders) {
    const row = await em.findOne(ChainSender, { chain: sender.sequence, address: sender.address });
    if (!row) continue;
    const mined = await node.minedNonce(sender.address);
    if (mined >= row.nextNonce) continue;
    const stored = await storedAt(em, sender, mined);
    if (stored?.open) continue;
    const known = stored ? await Promise.all(stored.hashes.map(async (hash) => (await node.lookUpTransaction(hash)).found)) : [];
    if (known.some(Boolean)) continue;
    throw new Refusal(
      `The sandbox chain was reset but the database still holds its transactions (${sender.address} has sent ${mined} on the chain, ${row.nextNonce} in the database): start again with a fresh database, or keep the chain with the database (run it yourself and set SANDBOX_CHAIN_RPC_URL).`,
    );
  }
}
