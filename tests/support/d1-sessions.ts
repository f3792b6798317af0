import { env } from "cloudflare:workers";
import { vi } from "vitest";

/**
 * The constraint or bookmark each request's D1 session was opened with: a spy on the test's own binding, which
 * the Worker under test shares (`exports.default.fetch` runs it with this `env`). It calls through to the real
 * `withSession`. Sessions the Durable Objects open (publishing an event checks sessions at the primary) are
 * left out: only those opened by `openSession`, the request's, count.
 */
export function sessionsOpened() {
  const original = env.DB.withSession.bind(env.DB);
  const starts: unknown[] = [];
  vi.spyOn(env.DB, "withSession").mockImplementation((start) => {
    if (new Error().stack?.includes("openSession")) starts.push(start);
    return original(start);
  });
  return () => starts;
}
