import type { EntityManager } from '@mikro-orm/sql';
import { Decimal } from '../../domain/money.js';
import { afterCommit } from '../../platform/db/unit-of-work.js';
import type { Job } from '../../platform/runtime/jobs.js';
import type { BlockRef, Fees, Receipt } from '../../rails/port.js';
import type { SandboxChainTools } from '../../rails/port.js';
import { receiptOfAny, takenHash } from './attempts.js';
import { type CrashPoint, crashAt } from './crash-points.js';
import { confirmationsAt } from './deposits/record.js';
import { ChainMint } from './entities.js';
import { type SendingSettings, feesOf, replacementFees, wei } from './fees.js';
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
    earlierHashes: [],
    maxFeePerGas: wei(reading.fees.maxFeePerGas),
    maxPriorityFeePerGas: wei(reading.fees.maxPriorityFeePerGas),
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

/** Broadcasts the mint's latest signature; the first time it leaves `signed`, its clock for a replacement starts. */
async function sendMint(em: EntityManager, tools: SandboxChainTools, mint: ChainMint): Promise<void> {
  await tools.sendMint(mint.rawTransaction, mint.to);
  const now = new Date();
  await em.nativeUpdate(ChainMint, { id: mint.id, transactionHash: mint.transactionHash, status: 'signed' }, { status: 'sent', sentAt: now, updatedAt: now });
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

/** What one pass read of the chain, before it wrote anything. */
interface Pass {
  tools: SandboxChainTools;
  head: BlockRef;
  /** The chain's fees now, read only when a mint of the page is due for a replacement. */
  fees: Fees | null;
  replaceBefore: Date;
  settings: SendingSettings;
  now: Date;
}

/**
 * The sandbox chain's mint follower, like the payouts' (payouts/confirm.ts): every stored mint is followed until its
 * block has the chain's confirmations. One not mined is sent (again), so a crash, a timeout or a node that forgot it
 * (a restart, a reorganisation) delays a mint and never loses one; one mined whose block then left the chain is sent
 * again; one still unmined PAYOUT_REPLACE_AFTER_SECONDS after it was sent is signed again under its nonce at higher
 * fees, within CHAIN_FEE_CEILING_GWEI, since it holds up every later mint of the minter.
 */
export function mintFollowerJob(tools: SandboxChainTools, settings: SendingSettings): Job {
  return {
    name: 'sandbox-mints',
    batchSize: PAGE,
    async run(em) {
      const open = await em.find(
        ChainMint,
        { sequence: tools.mintSequence, status: { $in: ['signed', 'sent', 'mined'] } },
        { orderBy: { nonce: 'asc' }, limit: PAGE, refresh: true },
      );
      if (!open.length) return 0;
      const now = new Date();
      const replaceBefore = new Date(now.getTime() - settings.replaceAfterSeconds * 1000);
      const head = await tools.head();
      const readings = await Promise.all(open.map((mint) => receiptOfAny(tools, mint.transactionHash, mint.earlierHashes)));
      const stuck = open.some((mint, i) => readings[i]!.receipt?.status !== 'mined' && mint.sentAt && mint.sentAt <= replaceBefore);
      const pass: Pass = { tools, head, fees: stuck ? (await tools.readMinter()).fees : null, replaceBefore, settings, now };
      for (const [i, mint] of open.entries()) {
        // One mint the node refuses (or a node that stopped answering) is tried again on the next tick, the others now.
        await followMint(em, pass, mint, readings[i]!).catch(() => undefined);
      }
      // Partial work only: what was sent is looked at again on the next tick, once a block may hold it.
      return 0;
    },
  };
}

/** Takes one mint a step further, its row updated only if no one else moved it since it was read. */
async function followMint(em: EntityManager, pass: Pass, mint: ChainMint, reading: { receipt: Receipt | null; minedHash: string | null }): Promise<void> {
  const seen = { id: mint.id, transactionHash: mint.transactionHash };
  if (reading.receipt?.status === 'mined') {
    const taken = takenHash(mint.transactionHash, mint.earlierHashes, reading.minedHash!);
    const confirmed = confirmationsAt(pass.head.number, reading.receipt.blockNumber) >= pass.tools.requiredConfirmations;
    await em.nativeUpdate(ChainMint, seen, {
      status: confirmed ? 'confirmed' : 'mined',
      transactionHash: taken.latest,
      earlierHashes: taken.earlier,
      updatedAt: pass.now,
    });
    return;
  }
  if (mint.status === 'mined') {
    // Its block left the chain: sent again, its clock for a replacement started anew.
    await em.nativeUpdate(ChainMint, seen, { status: 'sent', sentAt: pass.now, updatedAt: pass.now });
    await pass.tools.sendMint(mint.rawTransaction, mint.to);
    return;
  }
  const replaced = mint.sentAt && mint.sentAt <= pass.replaceBefore && pass.fees ? await replaceMint(em, pass, mint, pass.fees) : null;
  await sendMint(em, pass.tools, replaced ?? mint);
}

/**
 * Signs a stuck mint again under its nonce, fees at least 12.5 % higher (or the chain's, if higher still), never above
 * the ceiling, and stores it `signed` before it is sent. Null at the ceiling, or for a mint whose fees were not kept:
 * it is sent again as it is.
 */
async function replaceMint(em: EntityManager, pass: Pass, mint: ChainMint, current: Fees): Promise<ChainMint | null> {
  if (!mint.maxFeePerGas || !mint.maxPriorityFeePerGas) return null;
  const fees = replacementFees(feesOf(mint.maxFeePerGas, mint.maxPriorityFeePerGas), current, pass.settings.feeCeilingWei);
  if (!fees) return null;
  const signed = await pass.tools.signMint({
    contract: mint.contractAddress,
    to: mint.to,
    amount: BigInt(mint.amount.toFixed()),
    nonce: mint.nonce,
    fees,
  });
  const replacement = {
    transactionHash: signed.hash,
    rawTransaction: signed.raw,
    earlierHashes: [mint.transactionHash, ...mint.earlierHashes],
    maxFeePerGas: wei(fees.maxFeePerGas),
    maxPriorityFeePerGas: wei(fees.maxPriorityFeePerGas),
    status: 'signed' as const,
    updatedAt: pass.now,
  };
  // Stored before it is sent; moved on by another instance since it was read, it is that one's to send.
  const stored = await em.nativeUpdate(ChainMint, { id: mint.id, transactionHash: mint.transactionHash }, replacement);
  return stored ? Object.assign(mint, replacement) : null;
}
