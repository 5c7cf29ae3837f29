import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Api } from '../api.js';
import { followEvents, type LiveEvent, latestEvents, type RecentEvent, type StreamState } from '../live-events.js';
import type { Live } from '../session.js';

const RECENT = 30;

/** Opens the events stream once per signed-in tab and shares it with every view. */
export function LiveProvider({ api, children }: { api: Api; children: (live: Live) => ComponentChildren }) {
  const [state, setState] = useState<StreamState>({ kind: 'connecting' });
  const [recent, setRecent] = useState<readonly RecentEvent[]>([]);
  const listeners = useRef(new Set<(event: LiveEvent) => void>());

  useEffect(() => {
    let stop = () => {};
    let stopped = false;
    const start = async () => {
      try {
        const { after, recent } = await latestEvents(api, RECENT);
        if (stopped) return;
        setRecent(recent);
        stop = followEvents(
          api,
          after,
          (event) => {
            setRecent((events) => [event, ...events].slice(0, RECENT));
            for (const listener of listeners.current) listener(event);
          },
          setState,
        );
      } catch {
        setState({ kind: 'reconnecting', after: null, attempt: 1, reason: 'Ramp did not answer; reload the page once it is back' });
      }
    };
    void start();
    return () => {
      stopped = true;
      stop();
    };
  }, [api]);

  const listen = useCallback((listener: (event: LiveEvent) => void) => {
    listeners.current.add(listener);
    return () => void listeners.current.delete(listener);
  }, []);
  const live = useMemo<Live>(() => ({ state, recent, listen }), [state, recent, listen]);
  return <>{children(live)}</>;
}

/** The stream's state in words (screen readers hear changes). */
export function StreamStatus({ state }: { state: StreamState }) {
  const text =
    state.kind === 'live'
      ? 'Live: updates arrive as they happen.'
      : state.kind === 'connecting'
        ? 'Connecting to live updates…'
        : `Reconnecting (${state.reason}); will catch up after event ${state.after ?? 'the first'}.`;
  return (
    <p class={`stream stream-${state.kind}`} role="status" aria-live="polite" data-stream={state.kind}>
      {text}
    </p>
  );
}
