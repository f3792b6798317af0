import { useCallback, useEffect, useRef, useState } from "react";
import { useFetchers, useNavigation, useRevalidator } from "react-router";
import { type FeedEvent, parseFeedEvent } from "~/lib/realtime";

const HEARTBEAT_MS = 25_000;
const MAX_BACKOFF_MS = 30_000;
/** Close code the server uses when the listener signed out or was suspended: do not come back. */
const SIGNED_OUT = 4001;

/**
 * Listens to a realtime feed: connects, sends heartbeats, reconnects with backoff, and on reconnecting asks
 * for the rows after the last id it saw (`?since=`), so nothing is missed. Events are validated; anything
 * else is ignored. `onEvent` may be a new function on every render.
 */
export function useFeed(
  path: string | null,
  handlers: { onEvent: (event: FeedEvent) => void; since?: () => number; onReconnect?: () => void },
) {
  const latest = useRef(handlers);
  latest.current = handlers;

  useEffect(() => {
    if (!path || typeof WebSocket === "undefined") return;
    let socket: WebSocket | null = null;
    let attempts = 0;
    let disposed = false;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let heartbeat: ReturnType<typeof setInterval> | undefined;

    const connect = () => {
      const since = latest.current.since?.();
      const url = new URL(path, window.location.href);
      url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
      if (since !== undefined) url.searchParams.set("since", String(since));
      socket = new WebSocket(url);
      socket.addEventListener("open", () => {
        if (attempts > 0) latest.current.onReconnect?.();
        attempts = 0;
        heartbeat = setInterval(() => socket?.readyState === WebSocket.OPEN && socket.send("ping"), HEARTBEAT_MS);
      });
      socket.addEventListener("message", (message) => {
        if (message.data === "pong") return;
        try {
          const event = parseFeedEvent(JSON.parse(String(message.data)));
          if (event) latest.current.onEvent(event);
        } catch {
          // Not JSON: not ours.
        }
      });
      socket.addEventListener("close", (event) => {
        clearInterval(heartbeat);
        if (disposed || event.code === SIGNED_OUT) return;
        attempts += 1;
        const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** attempts) * (0.5 + Math.random() / 2);
        retryTimer = setTimeout(connect, delay);
      });
    };
    connect();

    return () => {
      disposed = true;
      clearTimeout(retryTimer);
      clearInterval(heartbeat);
      socket?.close(1000, "Page closed");
    };
  }, [path]);
}

/**
 * Refreshes the page's loader data at most once per `intervalMs`, however many events arrive, and never while the
 * page is loading or sending anything: the router would cancel the load under way (a reload after a save, or the
 * last refresh), and a load cancelled while its answer arrives is logged as an error (single fetch logs the
 * aborted read: "AbortError: signal is aborted without reason"). A refresh due meanwhile runs once the page is idle,
 * as the load under way may have read the data before the event's write.
 */
export function useThrottledRevalidate(intervalMs = 400) {
  const { revalidate, state } = useRevalidator();
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = state !== "idle" || navigation.state !== "idle" || fetchers.some((fetcher) => fetcher.state !== "idle");
  const [due, setDue] = useState(false);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (pending.current) clearTimeout(pending.current);
    },
    [],
  );
  useEffect(() => {
    if (!due || busy) return;
    setDue(false);
    revalidate();
  }, [due, busy, revalidate]);
  return useCallback(() => {
    if (pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      setDue(true);
    }, intervalMs);
  }, [intervalMs]);
}
