import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../src/domain/errors.js';
import {
  STATUS_RANK,
  TRANSFER_STATUSES,
  type TransferStatus,
  assertTransition,
  canTransition,
  isTerminal,
  nextStatuses,
} from '../../src/domain/transfer-status.js';

/** Runs a sequence of requested moves through the machine, keeping the ones it accepts. */
function run(requests: TransferStatus[]) {
  let status: TransferStatus = 'pending';
  let fundsReceived = false;
  const path: TransferStatus[] = [status];
  for (const to of requests) {
    if (!canTransition(status, to, { fundsReceived })) continue;
    if (to === 'processing') fundsReceived = true;
    status = to;
    path.push(status);
  }
  return path;
}

describe('transfer state machine', () => {
  it('accepts only monotone sequences: every accepted move goes strictly up, never backwards', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TRANSFER_STATUSES), { maxLength: 30 }), (requests) => {
        const path = run(requests);
        for (let i = 1; i < path.length; i++) expect(STATUS_RANK[path[i]!]).toBeGreaterThan(STATUS_RANK[path[i - 1]!]);
        // No status is visited twice, so a path is at most as long as the ranks allow.
        expect(new Set(path).size).toBe(path.length);
        expect(path.length).toBeLessThanOrEqual(4);
      }),
      { numRuns: 2_000 },
    );
  });

  it('lets every status but pending be reached, and ends every path in a terminal status if pushed far enough', () => {
    const reached = new Set<TransferStatus>();
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TRANSFER_STATUSES), { maxLength: 30 }), (requests) => {
        for (const s of run(requests)) reached.add(s);
      }),
      { numRuns: 2_000 },
    );
    expect([...reached].sort()).toEqual([...TRANSFER_STATUSES].sort());
  });

  it.each([
    ['pending', ['processing', 'failed', 'canceled', 'expired']],
    ['processing', ['completed', 'failed', 'refunded']],
    ['failed', ['refunded']],
    ['completed', []],
    ['refunded', []],
    ['canceled', []],
    ['expired', []],
  ] as const)('allows %s → %j and nothing else', (from, to) => {
    expect(nextStatuses(from).sort()).toEqual([...to].sort());
    expect(isTerminal(from)).toBe(to.length === 0);
  });

  it('cancels only from pending', () => {
    for (const from of TRANSFER_STATUSES) expect(canTransition(from, 'canceled', { fundsReceived: true })).toBe(from === 'pending');
  });

  it('refunds only what was received', () => {
    expect(canTransition('failed', 'refunded', { fundsReceived: false })).toBe(false);
    expect(canTransition('failed', 'refunded', { fundsReceived: true })).toBe(true);
    expect(() => assertTransition('failed', 'refunded', { fundsReceived: false })).toThrow(/no funds were received/);
  });

  it('refuses with 409 transfer_transition_not_allowed', () => {
    try {
      assertTransition('completed', 'pending', { fundsReceived: true });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConflictError);
      expect((error as ConflictError).code).toBe('transfer_transition_not_allowed');
    }
  });
});
