import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import { sql } from 'kysely';
import type { EntityManager } from '@mikro-orm/sql';
import { Decimal, type Token } from '../../domain/money.js';
import { baseUnits } from '../../domain/token-units.js';
import { afterCommit, unitOfWork } from '../../platform/db/unit-of-work.js';
import type { Job } from '../../platform/runtime/jobs.js';
import { readsOver } from '../../platform/reads/queries.js';
import type { BlockRef, Fees, LiveChain, Receipt } from '../../rails/port.js';
import { receiptOfAny, takenHash } from './attempts.js';
import { crashAt } from './crash-points.js';
import { type SendingSettings, feesOf, replacementFees, wei } from './fees.js';
import { ChainSweep, type CustodyTables } from './entities.js';
import type { DepositTables } from './deposits/entities.js';
import type { DepositCalls } from './deposits/calls.js';
import { type SenderReading, readSender, takeNonces } from './nonces.js';

/** A top-up's gas above the sweep's cost at its fees, in per mille: room for two 12.5 % replacements (1.125² ≈ 1.266). */
const SWEEP_GAS_HEADROOM_PERMILLE = 1267n;

/** Sweeps worked under one transaction. */
const BATCH = 10;

/** Deposits that are Ramp's to move: confirmed and credited, or confirmed and held for return. */
const SWEPT_STATUSES = ['credited', 'late', 'wrong_token'] as const;

/** What the chain says of one sweep, read before the transaction that moves it on. */
interface SweepReading {
  /** The top-up's receipt: the mined one of its hashes (the latest and those it replaced), else pending. */
  gas: Receipt | null;
  /** Which of the top-up's hashes the chain took, once one did. */
  gasMinedHash: string | null;
  /** Which of the sweep's hashes the chain took, once one did. */
  sweepMinedHash: string | null;
  sweep: Receipt | null;
  /** Wei the deposit address holds (a sweep not yet funded). */
  held: bigint | null;
  /** The deposit address's next nonce (a sweep about to be signed). */
  addressNonce: number | null;
}

/** What the sweeper asks transfers: which key derived a deposit's address. */
export type SweepCalls = Pick<DepositCalls, 'depositAddressIndexes'>;

/** What one pass knows of the chain, read before its transaction opens. */
interface Pass {
  chain: LiveChain;
  head: BlockRef;
  fees: Fees;
  treasury: SenderReading;
  readings: Map<string, SweepReading>;
  /** Raw transactions to send once the pass commits, in order (a top-up before the sweep it pays for). */
  toBroadcast: string[];
  signedTopUp: boolean;
  signedSweep: boolean;
  settings: SendingSettings;
  now: Date;
}

/**
 * The sweeper of one live chain whose deposit keys Ramp holds (`LiveChain.sweeps`): moves each confirmed deposit from
 * its own address to the network's treasury, where payouts and returns are paid from. A deposit address holds no gas,
 * so the treasury first sends it what the sweep will burn (a top-up taking the treasury's next nonce from the one
 * allocator payouts use), and the deposit address then sends the token. Each is signed and stored before it is
 * broadcast, and followed until it has the chain's confirmations: one a reorganisation or the mempool drops is sent
 * again, so neither the treasury's nonce sequence nor the sweep stalls. Custody moves; whose money it is does not,
 * so a sweep posts nothing to the ledger.
 */
export function sweeperJob(chain: LiveChain, settings: SendingSettings, calls: SweepCalls): Job {
  return {
    name: `sweeper ${chain.key}`,
    batchSize: BATCH,
    async run(em) {
      await openSweeps(em, chain, calls);
      const seen = await em.find(
        ChainSweep,
        { chain: chain.key, status: { $in: ['funding', 'sweeping'] } },
        { orderBy: { createdAt: 'asc', id: 'asc' }, limit: BATCH, refresh: true },
      );
      if (!seen.length) return 0;
      const pass: Pass = {
        chain,
        head: await chain.head(),
        fees: await chain.fees(),
        treasury: await readSender(chain, chain.treasury),
        readings: new Map(await Promise.all(seen.map(async (sweep) => [sweep.id, await readSweep(chain, sweep)] as const))),
        toBroadcast: [],
        signedTopUp: false,
        signedSweep: false,
        settings,
        now: new Date(),
      };
      await unitOfWork(em, async (tx) => {
        // Claimed SKIP LOCKED: a sweep another instance moves now is its own until it commits.
        const sweeps = await tx.find(
          ChainSweep,
          { id: { $in: seen.map((s) => s.id) } },
          { orderBy: { createdAt: 'asc', id: 'asc' }, refresh: true, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
        );
        // A deposit address sends one sweep at a time: its nonce is the chain's, read before the sweep is signed. Busy
        // is every address with a sweep in flight, in this batch or not (a batch holds only the first rows).
        const sending = await tx.find(ChainSweep, { chain: chain.key, status: 'sweeping' }, { fields: ['address'] });
        const busy = new Set(sending.map((s) => s.address));
        for (const sweep of sweeps) {
          const before = seen.find((s) => s.id === sweep.id)!;
          // Moved on by another instance since it was read: the next pass reads it again.
          if (sweep.status !== before.status || sweep.gasTransactionHash !== before.gasTransactionHash) continue;
          if (sweep.status === 'funding' && busy.has(sweep.address)) continue;
          await advance(tx, pass, sweep);
          if (sweep.status === 'sweeping') busy.add(sweep.address);
        }
        await tx.flush();
        afterCommit(async () => {
          if (pass.signedTopUp) crashAt(settings.crashAt, 'top-up-signed');
          if (pass.signedSweep) crashAt(settings.crashAt, 'sweep-signed');
          for (const raw of pass.toBroadcast) await chain.broadcast(raw);
        });
      });
      return seen.length;
    },
  };
}

async function readSweep(chain: LiveChain, sweep: ChainSweep): Promise<SweepReading> {
  const gas = await receiptOfAny(chain, sweep.gasTransactionHash, sweep.gasEarlierHashes);
  const swept = await receiptOfAny(chain, sweep.sweepTransactionHash, sweep.sweepEarlierHashes);
  const funding = sweep.status === 'funding';
  // What the address can spend on gas: before a top-up, and for a stuck sweep's replacement.
  const held = (funding && !sweep.gasTransactionHash) || swept.receipt?.status === 'pending' ? await chain.nativeBalance(sweep.address) : null;
  const aboutToSign = funding && (!sweep.gasTransactionHash || gas.receipt?.status === 'mined');
  return {
    gas: gas.receipt,
    gasMinedHash: gas.minedHash,
    sweep: swept.receipt,
    sweepMinedHash: swept.minedHash,
    held,
    addressNonce: aboutToSign ? await chain.minedNonce(sweep.address) : null,
  };
}

/**
 * A sweep for every confirmed deposit of the chain that has none yet, signed for by its address's key (transfers say
 * which index derived it); safe for two instances at once (one sweep per deposit).
 */
async function openSweeps(em: EntityManager, chain: LiveChain, calls: SweepCalls): Promise<void> {
  const deposits = await readsOver<DepositTables & CustodyTables>()
    .acrossTenants(em, 'chain_deposits', 'd')
    .select(['d.id', 'd.transfer_id', 'd.to_address', 'd.token', sql<string>`d.amount::text`.as('amount')])
    .where('d.chain_key', '=', chain.key)
    .where('d.status', 'in', SWEPT_STATUSES)
    // Those without a sweep yet.
    .leftJoin('chain_sweeps as s', 's.deposit_id', 'd.id')
    .where('s.id', 'is', null)
    .orderBy('d.created_at')
    .limit(BATCH * 10)
    .execute();
  const indexes = await calls.depositAddressIndexes(em, [...new Set(deposits.map((d) => d.transfer_id))]);
  for (const d of deposits) {
    const addressIndex = indexes.get(d.transfer_id);
    // An address Ramp did not derive holds no key of Ramp's: nothing to sign its sweep with.
    if (addressIndex === undefined) continue;
    const now = new Date();
    await em
      .createQueryBuilder(ChainSweep)
      .insert({
        id: randomUUID(),
        depositId: d.id,
        chain: chain.key,
        address: d.to_address,
        addressIndex,
        token: d.token as Token,
        amount: new Decimal(d.amount),
        status: 'funding',
        gasEarlierHashes: [],
        sweepEarlierHashes: [],
        createdAt: now,
        updatedAt: now,
      })
      .onConflict(['depositId'])
      .ignore()
      .execute();
  }
}

/** Confirmations of a mined receipt at the pass's head (its own block counts one). */
const confirmed = (pass: Pass, receipt: Receipt | null): boolean =>
  receipt?.status === 'mined' && Number(pass.head.number - receipt.blockNumber) + 1 >= pass.chain.requiredConfirmations;

/**
 * Takes one sweep a step further. Sweeping: its token transfer (and its top-up, the treasury's nonce) sent again while
 * not mined; swept once both have the chain's confirmations. Funding: its top-up sent again while not mined, the token
 * sent once it is; or, not funded yet, the token sent at once when the address holds the gas, else a top-up signed.
 */
async function advance(tx: EntityManager, pass: Pass, sweep: ChainSweep): Promise<void> {
  const reading = pass.readings.get(sweep.id)!;
  sweep.updatedAt = pass.now;
  // A top-up this one replaced may be the one the chain took: that is the top-up's hash now.
  if (reading.gasMinedHash && reading.gasMinedHash !== sweep.gasTransactionHash) {
    const taken = takenHash(sweep.gasTransactionHash!, sweep.gasEarlierHashes, reading.gasMinedHash);
    [sweep.gasTransactionHash, sweep.gasEarlierHashes] = [taken.latest, taken.earlier];
  }
  if (reading.sweepMinedHash && reading.sweepMinedHash !== sweep.sweepTransactionHash) {
    const taken = takenHash(sweep.sweepTransactionHash!, sweep.sweepEarlierHashes, reading.sweepMinedHash);
    [sweep.sweepTransactionHash, sweep.sweepEarlierHashes] = [taken.latest, taken.earlier];
  }
  const stuckSince = new Date(pass.now.getTime() - pass.settings.replaceAfterSeconds * 1000);
  if (sweep.status === 'sweeping') {
    // A top-up a reorganisation removed holds the treasury's nonce sequence up: it goes again first.
    if (reading.gas?.status === 'pending') pass.toBroadcast.push(sweep.gasRawTransaction!);
    // A stuck sweep (its gas mined) goes again at higher fees, as far as the gas it holds pays.
    const stuck = reading.sweep?.status === 'pending' && reading.gas?.status !== 'pending' && sweep.sweepSentAt && sweep.sweepSentAt <= stuckSince;
    if (stuck) await replaceSweep(pass, sweep, reading.held!);
    if (reading.sweep?.status === 'pending') pass.toBroadcast.push(sweep.sweepRawTransaction!);
    else if (reading.sweep?.status === 'mined' && !reading.sweep.succeeded) fail(sweep, 'sweep_reverted');
    else if (confirmed(pass, reading.sweep) && (!sweep.gasTransactionHash || confirmed(pass, reading.gas))) sweep.status = 'swept';
    return;
  }
  if (sweep.gasTransactionHash) {
    if (reading.gas?.status !== 'mined') {
      if (sweep.gasSentAt && sweep.gasSentAt <= stuckSince) await replaceTopUp(pass, sweep);
      pass.toBroadcast.push(sweep.gasRawTransaction!);
      return;
    }
    if (!reading.gas.succeeded) {
      fail(sweep, 'gas_top_up_reverted');
      return;
    }
    // Signed at the fees its gas was sized for, so the gas sent is always enough.
    await signSweep(pass, sweep, feesOf(sweep.maxFeePerGas!, sweep.maxPriorityFeePerGas!));
    return;
  }
  // With headroom for two replacements of a stuck sweep (12.5 % each) without another top-up.
  const needed = (pass.chain.sweepGasCost(pass.fees) * SWEEP_GAS_HEADROOM_PERMILLE) / 1000n;
  if (reading.held! >= needed) {
    await signSweep(pass, sweep, pass.fees);
    return;
  }
  const nonce = await takeNonces(tx, pass.chain.key, pass.treasury, 1);
  const topUp = await pass.chain.signGasTopUp({ to: sweep.address, amount: needed - reading.held!, nonce, fees: pass.fees });
  Object.assign(sweep, {
    maxFeePerGas: wei(pass.fees.maxFeePerGas),
    maxPriorityFeePerGas: wei(pass.fees.maxPriorityFeePerGas),
    gasMaxFeePerGas: wei(pass.fees.maxFeePerGas),
    gasMaxPriorityFeePerGas: wei(pass.fees.maxPriorityFeePerGas),
    gasAmount: wei(needed - reading.held!),
    gasNonce: topUp.nonce,
    gasRawTransaction: topUp.raw,
    gasTransactionHash: topUp.hash,
    gasEarlierHashes: [],
    gasSentAt: pass.now,
  });
  pass.toBroadcast.push(topUp.raw);
  pass.signedTopUp = true;
}

/**
 * A top-up stuck unmined holds up the treasury's nonce sequence, every payout behind it: it is signed again under its
 * nonce, the same gas to the same address, at fees at least 12.5 % higher, never above the ceiling (at the ceiling it
 * is sent again as it is). The sweep keeps the fees its gas was sized for.
 */
async function replaceTopUp(pass: Pass, sweep: ChainSweep): Promise<void> {
  const stuck = feesOf((sweep.gasMaxFeePerGas ?? sweep.maxFeePerGas)!, (sweep.gasMaxPriorityFeePerGas ?? sweep.maxPriorityFeePerGas)!);
  const fees = replacementFees(stuck, pass.fees, pass.settings.feeCeilingWei);
  if (!fees) return;
  const topUp = await pass.chain.signGasTopUp({ to: sweep.address, amount: BigInt(sweep.gasAmount!.toFixed()), nonce: sweep.gasNonce!, fees });
  Object.assign(sweep, {
    gasEarlierHashes: [sweep.gasTransactionHash!, ...sweep.gasEarlierHashes],
    gasTransactionHash: topUp.hash,
    gasRawTransaction: topUp.raw,
    gasMaxFeePerGas: wei(fees.maxFeePerGas),
    gasMaxPriorityFeePerGas: wei(fees.maxPriorityFeePerGas),
    gasSentAt: pass.now,
  });
}

/**
 * A sweep stuck unmined is signed again under the deposit address's nonce at fees at least 12.5 % higher, never above
 * the ceiling nor above what the gas the address holds can pay (its top-up carried headroom for two replacements).
 * When neither leaves the 10 % a node requires, it is sent again as it is.
 */
async function replaceSweep(pass: Pass, sweep: ChainSweep, held: bigint): Promise<void> {
  const stuck = feesOf(sweep.maxFeePerGas!, sweep.maxPriorityFeePerGas!);
  const gasCost = pass.chain.sweepGasCost({ maxFeePerGas: 1n, maxPriorityFeePerGas: 1n });
  const affordable = held / gasCost;
  const ceiling = affordable < pass.settings.feeCeilingWei ? affordable : pass.settings.feeCeilingWei;
  const fees = replacementFees(stuck, pass.fees, ceiling);
  if (!fees) return;
  const token = sweep.token as Token;
  const signed = await pass.chain.signSweep({
    index: sweep.addressIndex,
    token,
    amount: baseUnitsOf(pass.chain, sweep.amount, token),
    nonce: sweep.sweepNonce!,
    fees,
  });
  Object.assign(sweep, {
    sweepEarlierHashes: [sweep.sweepTransactionHash!, ...sweep.sweepEarlierHashes],
    sweepTransactionHash: signed.hash,
    sweepRawTransaction: signed.raw,
    maxFeePerGas: wei(fees.maxFeePerGas),
    maxPriorityFeePerGas: wei(fees.maxPriorityFeePerGas),
    sweepSentAt: pass.now,
  });
}

function fail(sweep: ChainSweep, reason: string): void {
  sweep.status = 'failed';
  sweep.failureReason = reason;
}

async function signSweep(pass: Pass, sweep: ChainSweep, fees: Fees): Promise<void> {
  const reading = pass.readings.get(sweep.id)!;
  const token = sweep.token as Token;
  const signed = await pass.chain.signSweep({
    index: sweep.addressIndex,
    token,
    amount: baseUnitsOf(pass.chain, sweep.amount, token),
    nonce: reading.addressNonce!,
    fees,
  });
  Object.assign(sweep, {
    status: 'sweeping',
    maxFeePerGas: wei(fees.maxFeePerGas),
    maxPriorityFeePerGas: wei(fees.maxPriorityFeePerGas),
    sweepNonce: signed.nonce,
    sweepRawTransaction: signed.raw,
    sweepTransactionHash: signed.hash,
    sweepEarlierHashes: [],
    sweepSentAt: pass.now,
  });
  pass.toBroadcast.push(signed.raw);
  pass.signedSweep = true;
}

/** A token amount in base units, by the decimals the token's contract on this chain declares (read at start). */
function baseUnitsOf(chain: LiveChain, amount: Decimal, token: Token): bigint {
  return baseUnits(amount, chain.tokens.find((t) => t.token === token)!.decimals);
}
