import { ConflictError } from './errors.js';

/**
 * The transfer state machine (Align's public statuses). This table is the only place
 * that decides whether a transfer may move from one status to another.
 */
export const TRANSFER_STATUSES = ['pending', 'processing', 'completed', 'failed', 'refunded', 'canceled', 'expired'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

export const TRANSFER_DIRECTIONS = ['onramp', 'offramp'] as const;
export type TransferDirection = (typeof TRANSFER_DIRECTIONS)[number];

/** What must be true of the transfer for a move to be allowed. */
type Guard = 'always' | 'funds_received';

export interface TransitionFacts {
  /** The customer's deposit has been received (and is still held: not yet paid out or returned). */
  fundsReceived: boolean;
}

/**
 * from → (to → guard). Anything absent is refused. Failing keeps whatever was deposited, so a
 * failed transfer can still be refunded; one that never received funds has nothing to refund.
 */
const TRANSITIONS: Record<TransferStatus, Partial<Record<TransferStatus, Guard>>> = {
  pending: { processing: 'always', failed: 'always', canceled: 'always', expired: 'always' },
  processing: { completed: 'always', failed: 'always', refunded: 'funds_received' },
  failed: { refunded: 'funds_received' },
  completed: {},
  refunded: {},
  canceled: {},
  expired: {},
};

/** Position in the lifecycle; every allowed move goes strictly up (never backwards). */
export const STATUS_RANK: Record<TransferStatus, number> = {
  pending: 0,
  processing: 1,
  completed: 2,
  failed: 2,
  canceled: 2,
  expired: 2,
  refunded: 3,
};

export const isTerminal = (status: TransferStatus) => Object.keys(TRANSITIONS[status]).length === 0;

export function canTransition(from: TransferStatus, to: TransferStatus, facts: TransitionFacts): boolean {
  const guard = TRANSITIONS[from][to];
  if (guard === undefined) return false;
  return guard === 'always' || (guard === 'funds_received' && facts.fundsReceived);
}

/** Throws 409 `transfer_transition_not_allowed` unless the table allows the move. */
export function assertTransition(from: TransferStatus, to: TransferStatus, facts: TransitionFacts): void {
  if (canTransition(from, to, facts)) return;
  const why = TRANSITIONS[from][to] === 'funds_received' ? ' because no funds were received' : '';
  throw new ConflictError('transfer_transition_not_allowed', `A ${from} transfer cannot become ${to}${why}`);
}

/** Every status reachable in one step (for documentation and property tests). */
export const nextStatuses = (from: TransferStatus): TransferStatus[] => Object.keys(TRANSITIONS[from]) as TransferStatus[];
