import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/sql';
import { Decimal, type Token } from '../../domain/money.js';
import type { Job } from '../../platform/jobs.js';
import type { Fees, LiveChain, SignedPayout } from '../../rails/port.js';
import { baseUnits, takeTreasuryNonce } from './payouts/sign.js';

/** Sweeps worked under one transaction: each may wait on the node for a balance, a receipt or a signature. */
const BATCH = 10;

/** Deposits that are Ramp's to move: confirmed and credited, or confirmed and held for return. */
const SWEPT_STATUSES = `('credited', 'late', 'wrong_token')`;

interface SweepRow {
  id: string;
  address: string;
  address_index: string;
  token: Token;
  amount: string;
  status: 'funding' | 'sweeping';
  max_fee_per_gas: string | null;
  max_priority_fee_per_gas: string | null;
  gas_raw_transaction: string | null;
  gas_transaction_hash: string | null;
  sweep_raw_transaction: string | null;
  sweep_transaction_hash: string | null;
}

/** What a pass must send once its transaction has committed (never before: what is sent is always on record). */
type ToBroadcast = string[];

/**
 * The sweeper of one live chain whose deposit keys Ramp holds (`LiveChain.sweeps`): moves each confirmed deposit from
 * its own address to the network's treasury, where payouts and returns are paid from. A deposit address holds no gas,
 * so the treasury first sends it what the sweep will burn (a top-up under the treasury's nonce lock, shared with
 * payouts), and the deposit address then sends the token. Both are signed and stored before they are broadcast, and
 * broadcast again until mined, so a crash or an unreachable node delays a sweep and never doubles it. Custody moves;
 * whose money it is does not, so a sweep posts nothing to the ledger.
 */
export function sweeperJob(chain: LiveChain): Job {
  return {
    name: `sweeper ${chain.key}`,
    batchSize: BATCH,
    async run(em) {
      await openSweeps(em, chain);
      const { handled, toBroadcast } = await em.transactional(async (tx) => {
        const rows = await tx.execute<SweepRow[]>(
          `select id, address, address_index, token, amount::text, status, max_fee_per_gas::text, max_priority_fee_per_gas::text,
                  gas_raw_transaction, gas_transaction_hash, sweep_raw_transaction, sweep_transaction_hash
           from chain_sweeps where chain = ? and status in ('funding', 'sweeping')
           order by created_at, id limit ${BATCH} for update skip locked`,
          [chain.key],
        );
        const toBroadcast: ToBroadcast = [];
        // A deposit address sends one sweep at a time: its nonce is the chain's, read when the sweep is signed. Busy is
        // every address with a sweep in flight, in this batch or not (a batch holds only the first rows).
        const sending = await tx.execute<{ address: string }[]>(`select distinct address from chain_sweeps where chain = ? and status = 'sweeping'`, [
          chain.key,
        ]);
        const busy = new Set(sending.map((r) => r.address));
        for (const row of rows) {
          if (row.status === 'funding' && busy.has(row.address)) continue;
          await advance(tx, chain, row, toBroadcast);
          if (row.status === 'funding') busy.add(row.address);
        }
        return { handled: rows.length, toBroadcast };
      });
      for (const raw of toBroadcast) await chain.broadcast(raw);
      return handled;
    },
  };
}

/** A sweep for every confirmed deposit of the chain that has none yet; safe for two instances at once (one per deposit). */
async function openSweeps(em: EntityManager, chain: LiveChain): Promise<void> {
  const deposits = await em.execute<{ id: string; to_address: string; address_index: string; token: Token; amount: string }[]>(
    `select d.id, d.to_address, t.deposit_address_index as address_index, d.token, d.amount::text
     from chain_deposits d join transfers t on t.id = d.transfer_id
     where d.chain_key = ? and d.status in ${SWEPT_STATUSES} and t.deposit_address_index is not null
       and not exists (select 1 from chain_sweeps s where s.deposit_id = d.id)
     order by d.created_at limit ${BATCH * 10}`,
    [chain.key],
  );
  for (const d of deposits) {
    await em.execute(
      `insert into chain_sweeps (id, deposit_id, chain, address, address_index, token, amount, status, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, 'funding', now(), now()) on conflict (deposit_id) do nothing`,
      [randomUUID(), d.id, chain.key, d.to_address, d.address_index, d.token, d.amount],
    );
  }
}

const update = (tx: EntityManager, id: string, set: Record<string, unknown>) => {
  const columns = Object.keys(set);
  return tx.execute(`update chain_sweeps set ${columns.map((c) => `${c} = ?`).join(', ')}, updated_at = now() where id = ?`, [...Object.values(set), id]);
};

/** Takes one sweep a step further: its gas sent, its gas mined, the token sent, the token mined. */
async function advance(tx: EntityManager, chain: LiveChain, row: SweepRow, toBroadcast: ToBroadcast): Promise<void> {
  if (row.status === 'sweeping') {
    const receipt = await chain.receipt(row.sweep_transaction_hash!);
    if (receipt.status === 'pending') toBroadcast.push(row.sweep_raw_transaction!);
    else await update(tx, row.id, receipt.succeeded ? { status: 'swept' } : { status: 'failed', failure_reason: 'sweep_reverted' });
    return;
  }
  if (row.gas_transaction_hash) {
    const receipt = await chain.receipt(row.gas_transaction_hash);
    if (receipt.status === 'pending') {
      toBroadcast.push(row.gas_raw_transaction!);
      return;
    }
    if (!receipt.succeeded) {
      await update(tx, row.id, { status: 'failed', failure_reason: 'gas_top_up_reverted' });
      return;
    }
    await sendToken(tx, chain, row, { maxFeePerGas: BigInt(row.max_fee_per_gas!), maxPriorityFeePerGas: BigInt(row.max_priority_fee_per_gas!) }, toBroadcast);
    return;
  }
  // The sweep is signed at the fees its gas was sized for, so the gas sent is always enough.
  const fees = await chain.fees();
  const needed = chain.sweepGasCost(fees);
  const held = await chain.nativeBalance(row.address);
  if (held >= needed) {
    await sendToken(tx, chain, row, fees, toBroadcast);
    return;
  }
  const topUp: SignedPayout = await chain.signGasTopUp({ to: row.address, amount: needed - held, nonce: await takeTreasuryNonce(tx, chain), fees });
  await update(tx, row.id, {
    max_fee_per_gas: fees.maxFeePerGas.toString(),
    max_priority_fee_per_gas: fees.maxPriorityFeePerGas.toString(),
    gas_amount: (needed - held).toString(),
    gas_nonce: topUp.nonce,
    gas_raw_transaction: topUp.raw,
    gas_transaction_hash: topUp.hash,
  });
  toBroadcast.push(topUp.raw);
}

async function sendToken(tx: EntityManager, chain: LiveChain, row: SweepRow, fees: Fees, toBroadcast: ToBroadcast): Promise<void> {
  const signed = await chain.signSweep({
    index: Number(row.address_index),
    token: row.token,
    amount: baseUnits(new Decimal(row.amount), row.token),
    nonce: await chain.minedNonce(row.address),
    fees,
  });
  await update(tx, row.id, {
    status: 'sweeping',
    max_fee_per_gas: fees.maxFeePerGas.toString(),
    max_priority_fee_per_gas: fees.maxPriorityFeePerGas.toString(),
    sweep_nonce: signed.nonce,
    sweep_raw_transaction: signed.raw,
    sweep_transaction_hash: signed.hash,
  });
  toBroadcast.push(signed.raw);
}
