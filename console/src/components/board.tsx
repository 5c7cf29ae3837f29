import { useEffect, useState } from 'preact/hooks';
import { requestError, type ShownError } from '../errors.js';
import { TransferByIdDocument, TransfersDocument } from '../gql/graphql.js';
import type { LiveEvent } from '../live-events.js';
import { useRefreshOnEvents, useSession } from '../session.js';
import { StreamStatus } from './live.js';
import { newestFirst, type TransferView, TransferTable } from './transfer-table.js';
import { ErrorNote, when } from './ui.js';
import { VolumeChart } from './volume-chart.js';

// The newest 25 with their history and postings keep the query under Ramp's complexity limit (5000).
const SHOWN = 25;
const isTransferEvent = (event: LiveEvent) => event.entityType === 'ONRAMP_TRANSFER' || event.entityType === 'OFFRAMP_TRANSFER';

/** How far a status is along PENDING → PROCESSING → an outcome: statuses never move back. */
const progress = (status: TransferView['status']) => (status === 'PENDING' ? 0 : status === 'PROCESSING' ? 1 : 2);

/** Keeps the fresher of two reads of one transfer: the further status, then the longer history, then the later read. */
function fresher(known: TransferView | undefined, read: TransferView): TransferView {
  if (!known) return read;
  const byStatus = progress(read.status) - progress(known.status);
  if (byStatus !== 0) return byStatus > 0 ? read : known;
  return (known.statusHistory?.length ?? 0) > (read.statusHistory?.length ?? 0) ? known : read;
}

/** Whether a read's history and postings are behind its own status (they then need a read of their own). */
const detailBehind = (transfer: TransferView) => transfer.statusHistory?.at(-1)?.to !== transfer.status;

/**
 * Every transfer, newest first, kept current by the events subscription: each transfer event brings
 * the transfer as it left it (status, history and postings). No polling.
 */
export function Board() {
  const { api, live } = useSession();
  const [rows, setRows] = useState<ReadonlyMap<string, TransferView>>(new Map());
  const [loaded, setLoaded] = useState<{ total: number; ids: ReadonlySet<string> } | null>(null);
  // Transfers created since the board loaded, by id: a replay after a reconnect counts none twice.
  const [created, setCreated] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<ShownError | null>(null);

  const upsert = (transfer: TransferView) => setRows((known) => new Map(known).set(transfer.id, fresher(known.get(transfer.id), transfer)));

  useEffect(() => {
    void api.client
      .query(TransfersDocument, { last: SHOWN }, { requestPolicy: 'network-only' })
      .toPromise()
      .then((result) => {
        if (result.error) return setError(requestError(result.error));
        const edges = result.data?.transfers?.edges ?? [];
        setLoaded({ total: result.data?.transfers?.totalCount ?? 0, ids: new Set(edges.map((edge) => edge.node.databaseId)) });
        for (const edge of edges) upsert(edge.node);
      });
  }, [api]);

  useRefreshOnEvents(isTransferEvent, (event) => {
    if (event.type.endsWith('_CREATED')) setCreated((ids) => (ids.has(event.entityId) ? ids : new Set(ids).add(event.entityId)));
    // The event carries the transfer as it is now (its snapshot's `live`); it is read again only when the
    // event no longer can show it, or shows a history behind its status (Ramp's live stream can, see the README).
    const subject =
      event.subject?.__typename === 'OnrampTransferSnapshot' || event.subject?.__typename === 'OfframpTransferSnapshot' ? event.subject.live : null;
    if (subject) upsert(subject);
    if (subject && !detailBehind(subject)) return;
    void api.client
      .query(TransferByIdDocument, { id: event.entityId }, { requestPolicy: 'network-only' })
      .toPromise()
      .then((result) => {
        const transfer = result.data?.transfer;
        if (transfer) upsert(transfer);
      });
  });

  const total = loaded && loaded.total + [...created].filter((id) => !loaded.ids.has(id)).length;
  const transfers = newestFirst([...rows.values()]);
  return (
    <>
      <section class="card" aria-labelledby="board-title">
        <h2 id="board-title">Transfers{total !== null ? ` (${total})` : ''}</h2>
        <StreamStatus state={live.state} />
        <ErrorNote error={error} />
        {total === 0 && transfers.length === 0 ? (
          <p class="empty">
            No transfers yet. Open a customer (or <a href="#/">create one</a>), approve its KYC and create an on-ramp transfer: it appears here and moves as it
            happens.
          </p>
        ) : (
          <TransferTable transfers={transfers} showCustomer />
        )}
      </section>
      <VolumeChart />
      <section class="card" aria-labelledby="events-title">
        <h2 id="events-title">Latest events</h2>
        {live.recent.length === 0 ? (
          <p class="muted">Events appear here as they happen (customers, accounts, transfers).</p>
        ) : (
          <ol class="events" reversed>
            {live.recent.map((event) => (
              <li key={event.id} data-cursor={event.cursor}>
                <code>{event.type}</code> <span class="muted">{when(event.occurredAt)}</span> · cursor {event.cursor}
              </li>
            ))}
          </ol>
        )}
      </section>
    </>
  );
}
