import type { ChainReader, Receipt } from '../../rails/port.js';

/**
 * A transaction Ramp signed may have been signed again under its nonce (a replacement at higher fees): whichever of its
 * signatures the chain takes is the one that counts. Payouts, sweeps, top-ups and mints read and record it alike.
 */

/** The receipt of a transaction that may have been replaced: the mined one of its hashes (latest first), else pending. */
export async function receiptOfAny(
  chain: Pick<ChainReader, 'receipt'>,
  latest: string | null | undefined,
  earlier: readonly string[],
): Promise<{ receipt: Receipt | null; minedHash: string | null }> {
  if (!latest) return { receipt: null, minedHash: null };
  const hashes = [latest, ...earlier];
  const receipts = await Promise.all(hashes.map((hash) => chain.receipt(hash)));
  const minedAt = receipts.findIndex((r) => r.status === 'mined');
  return { receipt: receipts[minedAt] ?? receipts[0]!, minedHash: hashes[minedAt] ?? null };
}

/** The hashes once the chain took `minedHash`: it is the transaction's hash now, every other one an earlier attempt. */
export function takenHash(latest: string, earlier: readonly string[], minedHash: string): { latest: string; earlier: string[] } {
  return { latest: minedHash, earlier: [latest, ...earlier].filter((h) => h !== minedHash) };
}
