import type { EntityManager } from '@mikro-orm/sql';
import { Decimal } from '../../domain/money.js';
import { afterCommit } from '../../platform/db/unit-of-work.js';
import type { Job } from '../../platform/jobs.js';
import type { Fees } from '../../rails/port.js';
import type { SandboxChainTools } from '../../rails/registry.js';
import { type CrashPoint, crashAt } from './crash-points.js';
import { ChainMint } from './entities.js';
import { takeNonces } from './nonces.js';

/** What signing a mint needs from the chain, read before the transaction opens. */
export interface MintReading {
  minedNonce: number;
  fees: Fees;
}

/** How long the faucet waits for its mint's block before answering anyway (the follower sends it until mined). */
const MINED_WITHIN_MS = 10_000;
const POLL_MS = 50;

/**
 * A faucet mint in the caller's unit of work: the minter's next nonce taken from the one allocator, the mint signed
 * and stored; broadcast once the unit of work committed, and answered once mined. A crash after the commit leaves it
 * stored: the mint follower sends it, once (its nonce is mined once).
 */
export async function storeMint(
  tx: EntityManager,
  tools: SandboxChainTools,
  reading: MintReading,
  mint: { contract: string; to: string; amount: bigint },
  crashPoint: CrashPoint | null,
): Promise<ChainMint> {
  const nonce = await takeNonces(tx, tools.mintSequence, { address: tools.minter, minedNonce: reading.minedNonce }, 1);
  const signed = await tools.signMint({ ...mint, nonce, fees: reading.fees });
  const stored = tx.create(ChainMint, {
    sequence: tools.mintSequence,
    sender: tools.minter,
    nonce,
    contractAddress: mint.contract.toLowerCase(),
    to: mint.to.toLowerCase(),
    amount: new Decimal(mint.amount.toString()),
    rawTransaction: signed.raw,
    transactionHash: signed.hash,
    status: 'signed',
    updatedAt: new Date(),
  });
  await tx.flush();
  afterCommit(async (em) => {
    crashAt(crashPoint, 'mint-signed');
    await sendMint(em, tools, stored);
    await minedWithin(tools, stored.transactionHash, MINED_WITHIN_MS);
  });
  return stored;
}

async function sendMint(em: EntityManager, tools: SandboxChainTools, mint: ChainMint): Promise<void> {
  await tools.sendMint(mint.rawTransaction, mint.to);
  await em.nativeUpdate(ChainMint, { id: mint.id, status: 'signed' }, { status: 'sent', updatedAt: new Date() });
}

async function minedWithin(tools: SandboxChainTools, hash: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if ((await tools.receipt(hash)).status === 'mined') return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Mints followed per run. */
const PAGE = 50;

/**
 * The sandbox chain's mint follower: every stored mint not yet mined is sent (again) until its block has it, so a
 * crash, a timeout or a node that forgot it (a restart, a reorganisation) delays a mint and never loses one.
 */
export function mintFollowerJob(tools: SandboxChainTools): Job {
  return {
    name: 'sandbox-mints',
    batchSize: PAGE,
    async run(em) {
      const open = await em.find(ChainMint, { sequence: tools.mintSequence, status: { $in: ['signed', 'sent'] } }, { orderBy: { nonce: 'asc' }, limit: PAGE });
      for (const mint of open) {
        if ((await tools.receipt(mint.transactionHash)).status === 'mined') {
          await em.nativeUpdate(ChainMint, { id: mint.id }, { status: 'mined', updatedAt: new Date() });
        } else {
          await sendMint(em, tools, mint);
        }
      }
      // Partial work only: what was sent is looked at again on the next tick, once a block may hold it.
      return 0;
    },
  };
}
