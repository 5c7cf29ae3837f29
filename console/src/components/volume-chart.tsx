import { useQuery } from '@urql/preact';
import { useMemo, useState } from 'preact/hooks';
import { largestOf, shareOf, sumAmounts } from '../decimal.js';
import { requestError } from '../errors.js';
import { type TransferStatus, TransferVolumeDocument } from '../gql/graphql.js';
import { useRefreshOnEvents } from '../session.js';
import { ErrorNote } from './ui.js';

const DAYS = 7;
const STATUSES: TransferStatus[] = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'REFUNDED', 'CANCELED', 'EXPIRED'];
const WIDTH = 640;
const HEIGHT = 180;

/**
 * The week's currencies, the most used first (USD, the rates' base, first among equals; then by name): the chart
 * opens on the currency most transfers were in, not the first in the alphabet (EUR hid a week of USD).
 */
function byUse<C extends string>(currencies: readonly C[]): C[] {
  const count = new Map<C, number>();
  for (const currency of currencies) count.set(currency, (count.get(currency) ?? 0) + 1);
  const rank = (c: C) => (c === 'USD' ? 0 : 1);
  return [...count.keys()].sort((a, b) => count.get(b)! - count.get(a)! || rank(a) - rank(b) || a.localeCompare(b));
}

const startOfDay = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

/** Transfer volume (what customers pay) by day and status over the last week, in one currency at a time. */
export function VolumeChart() {
  const since = useMemo(() => new Date(startOfDay(new Date()).getTime() - (DAYS - 1) * 86_400_000).toISOString(), []);
  const [{ data, error }, refetch] = useQuery({ query: TransferVolumeDocument, variables: { createdAfter: since } });
  useRefreshOnEvents(
    (event) => event.entityType === 'ONRAMP_TRANSFER' || event.entityType === 'OFFRAMP_TRANSFER',
    () => refetch({ requestPolicy: 'network-only' }),
  );
  const transfers = data?.transfers?.edges.map((edge) => edge.node) ?? [];
  const currencies = byUse(transfers.map((t) => t.quote.sourceCurrency));
  const [chosen, setChosen] = useState<string | null>(null);
  const currency = chosen && currencies.includes(chosen as never) ? chosen : (currencies[0] ?? null);

  const days = Array.from({ length: DAYS }, (_, i) => new Date(new Date(since).getTime() + i * 86_400_000).toISOString().slice(0, 10));
  const cells = days.map((day) => {
    const ofDay = transfers.filter((t) => t.quote.sourceCurrency === currency && t.createdAt.slice(0, 10) === day);
    const byStatus = STATUSES.map((status) => ({ status, amount: sumAmounts(ofDay.filter((t) => t.status === status).map((t) => t.amount)) }));
    return { day, total: sumAmounts(ofDay.map((t) => t.amount)), byStatus };
  });
  const largest = largestOf(cells.map((cell) => cell.total));
  const slot = WIDTH / DAYS;

  return (
    <section class="card" aria-labelledby="chart-title">
      <h2 id="chart-title">Volume by status, last {DAYS} days</h2>
      {error && <ErrorNote error={requestError(error)} />}
      {data?.transfers && data.transfers.totalCount > transfers.length && (
        <p class="muted">
          Showing the newest {transfers.length} of {data.transfers.totalCount} transfers of the week.
        </p>
      )}
      {!currency ? (
        <p class="empty">No transfers this week: the chart fills in as transfers are created.</p>
      ) : (
        <>
          {currencies.length > 1 && (
            <label class="field inline">
              <span>Currency</span>
              <select value={currency} onChange={(e) => setChosen(e.currentTarget.value)}>
                {currencies.map((c) => (
                  <option key={c}>{c}</option>
                ))}
              </select>
            </label>
          )}
          <svg class="chart" viewBox={`0 0 ${WIDTH} ${HEIGHT + 24}`} role="img" aria-labelledby="chart-title chart-summary">
            <title>Volume by status, last {DAYS} days</title>
            <desc id="chart-summary">{cells.map((cell) => `${cell.day}: ${cell.total} ${currency}`).join('; ')}</desc>
            {cells.map((cell, i) => {
              let top = HEIGHT;
              return (
                <g key={cell.day}>
                  {cell.byStatus.map(({ status, amount }) => {
                    const height = shareOf(amount, largest) * (HEIGHT - 8);
                    top -= height;
                    return height > 0 ? (
                      <rect key={status} class={`bar bar-${status.toLowerCase()}`} x={i * slot + 8} y={top} width={slot - 16} height={height}>
                        <title>{`${cell.day} ${status.toLowerCase()}: ${amount} ${currency}`}</title>
                      </rect>
                    ) : null;
                  })}
                  <text x={i * slot + slot / 2} y={HEIGHT + 16} text-anchor="middle" class="axis">
                    {cell.day.slice(5)}
                  </text>
                </g>
              );
            })}
          </svg>
          <details>
            <summary>The chart's figures as a table ({currency})</summary>
            <table>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  {STATUSES.map((s) => (
                    <th scope="col" key={s} class="number">
                      {s.toLowerCase()}
                    </th>
                  ))}
                  <th scope="col" class="number">
                    total
                  </th>
                </tr>
              </thead>
              <tbody>
                {cells.map((cell) => (
                  <tr key={cell.day}>
                    <th scope="row">{cell.day}</th>
                    {cell.byStatus.map(({ status, amount }) => (
                      <td key={status} class="number">
                        {amount}
                      </td>
                    ))}
                    <td class="number">{cell.total}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
          <p class="legend">
            {STATUSES.map((s) => (
              <span key={s} class={`key key-${s.toLowerCase()}`}>
                {s.toLowerCase()}
              </span>
            ))}
          </p>
        </>
      )}
    </section>
  );
}
