/**
 * A watchdog process started by scripts/lib/supervise.ts. It reads "+PGID" and "-PGID" lines on stdin (a process
 * group to stop, or one already stopped) and, when stdin closes, meaning the script that started it has exited
 * however it exited (SIGKILL included), stops every group still listed: SIGTERM, then SIGKILL.
 *
 * The supervised servers run in their own process groups so that a restart can stop workerd along with wrangler;
 * without this watchdog they would outlive a parent that is killed without a chance to clean up (Playwright stops
 * its web server with SIGKILL, a test harness may too).
 */
import { createInterface } from "node:readline";

const GRACE_MS = 3_000;
const groups = new Set<number>();

function signalAll(signal: NodeJS.Signals) {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, signal);
    } catch {
      groups.delete(pgid); // already gone
    }
  }
}

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const pgid = Number(line.slice(1));
  if (!Number.isInteger(pgid) || pgid <= 1) return;
  if (line.startsWith("+")) groups.add(pgid);
  else if (line.startsWith("-")) groups.delete(pgid);
});
lines.on("close", () => {
  if (groups.size === 0) process.exit(0);
  signalAll("SIGTERM");
  setTimeout(() => {
    signalAll("SIGKILL");
    process.exit(0);
  }, GRACE_MS);
});
