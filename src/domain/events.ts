/** Every event type Ramp records. Webhooks and subscriptions carry exactly these. */
export const EVENT_TYPES = [
  'customer.created',
  'customer.kycs.updated',
  /** The customer's personal data was erased; its ids, transfers and ledger stay. */
  'customer.redacted',
  'virtual_account.created',
  'virtual_account.status.updated',
  'onramp_transfer.created',
  'onramp_transfer.status.updated',
  'offramp_transfer.created',
  'offramp_transfer.status.updated',
  /** A live chain's deposit to an off-ramp was seen, gained confirmations, or left the chain (a reorganisation). */
  'offramp_transfer.deposit.updated',
  'external_account.created',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
