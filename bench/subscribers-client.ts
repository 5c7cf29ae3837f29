import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';

/**
 * One worker process of bench/subscribers.ts: holds its share of the graphql-ws subscribers (one
 * connection and one `events` subscription each) and records, per subscriber, which events arrived
 * when. Commands come over IPC from the bench: `open`, `report` (with the commits to judge by), `close`.
 */
interface Spec {
  key: string;
  partner: number;
  /** Only customer.created, or every type. */
  createdOnly: boolean;
}
interface Commit {
  partner: number;
  at: number;
}

const QUERY = 'subscription($types: [EventType!]) { events(types: $types) { entityId } }';
const subscribers: { spec: Spec; client: Client; got: Map<string, number[]> }[] = [];

const BATCH = 50;
let failures = 0;

/** Opens the connections a batch at a time, each batch acknowledged (connection_ack) before the next. */
async function open(url: string, specs: Spec[]) {
  for (let i = 0; i < specs.length; i += BATCH) {
    await Promise.all(specs.slice(i, i + BATCH).map((spec) => openOne(url, spec)));
  }
}

function openOne(url: string, spec: Spec): Promise<void> {
  let connected!: () => void;
  const acknowledged = new Promise<void>((resolve) => (connected = resolve));
  const client = createClient({
    url: `${url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${spec.key}` },
    lazy: false,
    retryAttempts: 5,
    on: { connected: () => connected() },
    onNonLazyError: () => {
      // Refused or unreachable after the retries (the descriptor limit at 20k): counted, and the open goes on.
      failures++;
      connected();
    },
  });
  {
    const got = new Map<string, number[]>();
    subscribers.push({ spec, client, got });
    client.subscribe<{ events: { entityId: string } }>(
      { query: QUERY, variables: spec.createdOnly ? { types: ['CUSTOMER_CREATED'] } : {} },
      {
        next: (result) => {
          const id = result.data?.events.entityId;
          if (!id) return;
          const times = got.get(id);
          if (times) times.push(Date.now());
          else got.set(id, [Date.now()]);
        },
        error: () => void failures++,
        complete: () => undefined,
      },
    );
  }
  return acknowledged;
}

/** How many subscribers have seen at least one of these entities (the warm-up's probe). */
const ready = (ids: string[]) => subscribers.filter((s) => ids.some((id) => s.got.has(id))).length;

function report(commits: Record<string, Commit>) {
  const latencies: number[] = [];
  let lost = 0;
  let duplicated = 0;
  let wrongPartner = 0;
  for (const s of subscribers) {
    for (const [id, commit] of Object.entries(commits)) {
      const times = s.got.get(id);
      if (commit.partner !== s.spec.partner) {
        if (times) wrongPartner += times.length;
        continue;
      }
      if (!times) lost++;
      else {
        duplicated += times.length - 1;
        latencies.push(Math.max(0, times[0]! - commit.at));
      }
    }
  }
  return { latencies, lost, duplicated, wrongPartner, failures };
}

process.on('message', (message: { cmd: string; url?: string; specs?: Spec[]; ids?: string[]; commits?: Record<string, Commit> }) => {
  if (message.cmd === 'open') {
    void open(message.url!, message.specs!).then(() => process.send!({ opened: { count: subscribers.length, failures } }));
  } else if (message.cmd === 'ready') {
    process.send!({ ready: ready(message.ids!) });
  } else if (message.cmd === 'report') {
    process.send!({ report: report(message.commits!) });
  } else if (message.cmd === 'close') {
    void Promise.all(subscribers.map((s) => s.client.dispose())).finally(() => process.exit(0));
  }
});
