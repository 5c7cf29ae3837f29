import { createContext } from 'preact';
import { useContext, useEffect, useRef } from 'preact/hooks';
import type { Api } from './api.js';
import type { LiveEvent, RecentEvent, StreamState } from './live-events.js';

/** The events stream as views see it: its state in words, the latest events, and a way to hear each one. */
export interface Live {
  state: StreamState;
  recent: readonly RecentEvent[];
  listen(listener: (event: LiveEvent) => void): () => void;
}

/** What every view of a signed-in tab shares. */
export interface Session {
  api: Api;
  partnerName: string;
  /** A production key: everything is shown, nothing can be changed or simulated. */
  readOnly: boolean;
  live: Live;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in console');
  return session;
}

/** Calls `refresh` for every event the stream delivers that `concerns` says is about what the view shows. */
export function useRefreshOnEvents(concerns: (event: LiveEvent) => boolean, refresh: (event: LiveEvent) => void) {
  const { listen } = useSession().live;
  // The latest callbacks, without subscribing again at every render (an event must not fall between two).
  const latest = useRef({ concerns, refresh });
  latest.current = { concerns, refresh };
  useEffect(() => listen((event) => latest.current.concerns(event) && latest.current.refresh(event)), [listen]);
}
