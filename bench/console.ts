/**
 * The sandbox console's own reads, as the console sends them: its typed documents (console/src/gql, generated from
 * console/src/operations by `npm run console:build`) printed back to text, with the variables its pages pass.
 * A partner's first look at Ramp is these pages, so they are measured like the API rows.
 */
import { print } from 'graphql';
import { CustomerPageDocument, LatestEventsDocument, TransferVolumeDocument, TransfersDocument } from '../console/src/gql/graphql.js';
import type { Client } from './load.js';

/** What the pages ask for: the board's rows (board.tsx), the live feed's recent events (live.tsx), a week of volume (volume-chart.tsx). */
const BOARD_ROWS = 25;
const RECENT_EVENTS = 30;
const VOLUME_DAYS = 7;

const TRANSFERS = print(TransfersDocument);
const VOLUME = print(TransferVolumeDocument);
const LATEST_EVENTS = print(LatestEventsDocument);
const CUSTOMER_PAGE = print(CustomerPageDocument);

type Send = (client: Client, query: string, variables: Record<string, unknown>) => Promise<unknown>;

/**
 * The Transfers board as it opens: its three queries at once (the browser sends them side by side), one iteration.
 * The volume chart reads from the start of the day a week ago, as the console does.
 */
export const transfersBoard = (send: Send) => async (client: Client) => {
  const today = new Date();
  today.setUTCHours(0, 0, 0, 0);
  const createdAfter = new Date(today.getTime() - (VOLUME_DAYS - 1) * 86_400_000).toISOString();
  await Promise.all([
    send(client, TRANSFERS, { last: BOARD_ROWS }),
    send(client, VOLUME, { createdAfter }),
    send(client, LATEST_EVENTS, { last: RECENT_EVENTS }),
  ]);
};

/** A customer's page: profile, KYC, bank accounts, virtual accounts and the last 50 transfers, in one query. */
export const customerPage = (send: Send, customers: readonly string[]) => async (client: Client, _worker: number, n: number) => {
  await send(client, CUSTOMER_PAGE, { id: customers[n % customers.length] });
};
