import { decodeGlobalID } from '@pothos/plugin-relay';
import type { TransferDirection } from '../../../domain/transfer-status.js';
import { databaseIdOf } from '../../../graphql/types/node.js';
import { isUuid } from '../../../domain/identifiers/uuid.js';
import type { TransferWithin } from '../service.js';
import { TRANSFER_TYPENAMES } from './types.js';

const DIRECTION_OF = Object.fromEntries(Object.entries(TRANSFER_TYPENAMES).map(([direction, typename]) => [typename, direction])) as Record<
  string,
  TransferDirection
>;

/**
 * The transfer an id argument names: a global id of either transfer type, whose type fixes the
 * direction (an OnrampTransfer id never reaches an off-ramp), or the REST UUID of either.
 */
export function transferIdOf(id: string | number): { id: string; within: TransferWithin } {
  const databaseId = databaseIdOf(id, ...Object.keys(DIRECTION_OF));
  if (!databaseId || isUuid(String(id))) return { id: databaseId, within: {} };
  return { id: databaseId, within: { direction: DIRECTION_OF[decodeGlobalID(String(id)).typename] } };
}

/** A quote id argument: its global id or its REST UUID (quote_id). */
export const quoteIdOf = (id: string | number) => databaseIdOf(id, 'Quote');
