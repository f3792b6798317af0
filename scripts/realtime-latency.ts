/**
 * `npm run realtime:latency`: opens 100 sockets on one client's feed (as the demo admin), makes 200 deposits
 * as that client, and prints the delivery latency (request start to arrival on each socket, p50/p99) and any
 * missing or duplicate event. Runs its own local server on a throwaway database. A measurement, not a test:
 * it exits non-zero only when an event is missing or duplicated.
 */
import { signInCookie, startLocalServer } from "./lib/local-server.ts";
import { DEMO_ADMIN, DEMO_CLIENT } from "./seed.ts";

const SOCKETS = Number(process.env.SOCKETS ?? 100);
const EVENTS = Number(process.env.EVENTS ?? 200);
const CONCURRENCY = 4;
const port = process.env.LATENCY_PORT ?? "8792";
const origin = `http://127.0.0.1:${port}`;

const formHeaders = (cookie: string) => ({
  "Content-Type": "application/x-www-form-urlencoded",
  Origin: origin,
  "Sec-Fetch-Site": "same-origin",
  Cookie: cookie,
});

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

const { stop } = await startLocalServer({ port, state: "latency" });

try {
  const adminCookie = await signInCookie(origin, DEMO_ADMIN.email, DEMO_ADMIN.password, DEMO_ADMIN.totpSecret);
  const clientCookie = await signInCookie(origin, DEMO_CLIENT.email, DEMO_CLIENT.password);

  // amount in cents -> socket index -> arrival times
  const arrivals = new Map<number, number[][]>();
  const sockets = await Promise.all(
    Array.from(
      { length: SOCKETS },
      (_, index) =>
        new Promise<WebSocket>((resolve, reject) => {
          const socket = new WebSocket(`ws://127.0.0.1:${port}/ws/clients/${DEMO_CLIENT.id}`, {
            headers: { Cookie: adminCookie, Origin: origin },
          } as unknown as string[]);
          socket.addEventListener("open", () => resolve(socket));
          socket.addEventListener("error", () => reject(new Error(`socket ${index} failed to open`)));
          socket.addEventListener("message", (message) => {
            const event = JSON.parse(String(message.data));
            if (event.type !== "transaction.created") return;
            const cents = event.transaction.amountCents as number;
            const perSocket = arrivals.get(cents) ?? Array.from({ length: SOCKETS }, () => []);
            perSocket[index]?.push(performance.now());
            arrivals.set(cents, perSocket);
          });
        }),
    ),
  );
  console.log(`${sockets.length} sockets open on the demo client's feed`);

  const sentAt = new Map<number, number>();
  const requestMs: number[] = [];
  let next = 0;
  async function worker() {
    while (next < EVENTS) {
      const i = next++;
      const cents = 10_000 + i; // $100.00, $100.01, … identifies each event
      const started = performance.now();
      sentAt.set(cents, started);
      const response = await fetch(`${origin}/deposit`, {
        method: "POST",
        redirect: "manual",
        headers: formHeaders(clientCookie),
        body: new URLSearchParams({
          amount: (cents / 100).toFixed(2),
          walletType: "BTC",
          idempotencyKey: crypto.randomUUID(),
        }),
      });
      requestMs.push(performance.now() - started);
      if (response.status !== 302) throw new Error(`deposit ${i} answered ${response.status}`);
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await new Promise((r) => setTimeout(r, 3_000)); // let the last events arrive

  const latencies: number[] = [];
  let missing = 0;
  let duplicates = 0;
  for (const [cents, started] of sentAt) {
    const perSocket = arrivals.get(cents) ?? Array.from({ length: SOCKETS }, () => []);
    for (const times of perSocket) {
      if (times.length === 0) missing++;
      if (times.length > 1) duplicates += times.length - 1;
      if (times[0] !== undefined) latencies.push(times[0] - started);
    }
  }
  latencies.sort((a, b) => a - b);
  requestMs.sort((a, b) => a - b);
  const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
  console.table({
    sockets: SOCKETS,
    events: EVENTS,
    deliveries: latencies.length,
    "delivery p50 (from request start)": fmt(percentile(latencies, 50)),
    "delivery p99": fmt(percentile(latencies, 99)),
    "request p50": fmt(percentile(requestMs, 50)),
    missing,
    duplicates,
  });
  for (const socket of sockets) socket.close(1000);
  stop();
  process.exit(missing === 0 && duplicates === 0 ? 0 : 1);
} catch (error) {
  console.error(error);
  stop();
  process.exit(1);
}
