import { exports } from "cloudflare:workers";
import { type FeedEvent, parseFeedEvent } from "~/lib/realtime";
import { ORIGIN } from "./fixtures";

/**
 * Opens a live feed as a browser would (the WebSocket upgrade with its cookie and Origin) and collects the events
 * it hears. `cookie` or `origin` null leaves that header out; the answer's status says whether the feed opened.
 */
export async function listen(path: string, cookie: string | null, origin: string | null = ORIGIN) {
  const headers: Record<string, string> = { Upgrade: "websocket" };
  if (cookie) headers.Cookie = cookie;
  if (origin) headers.Origin = origin;
  const response = await exports.default.fetch(`${ORIGIN}${path}`, { headers });
  const socket = response.webSocket;
  const events: FeedEvent[] = [];
  if (socket) {
    socket.accept();
    socket.addEventListener("message", (message) => {
      const parsed = parseFeedEvent(JSON.parse(String(message.data)));
      if (parsed) events.push(parsed);
    });
  }
  return { status: response.status, socket, events };
}

/** Waits (up to 2 s) until `check` holds, or fails naming `what` was awaited. */
export async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}
