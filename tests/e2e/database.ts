import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ROOT } from "../../scripts/lib/local-d1";

/** The test server's throwaway database (scripts/e2e-server.ts), for the specs that set data up straight in it. */
export const e2eDatabase = { persistTo: join(ROOT, ".wrangler", `${process.env.E2E_STATE ?? "e2e"}-state`) };

/**
 * Runs a wrangler CLI call on that database, again while the running server holds it busy: the CLI opens the same
 * SQLite file, and a write of a test running at the same time makes it fail with SQLITE_BUSY.
 */
export async function whileBusy<T>(call: () => T): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return call();
    } catch (error) {
      if (attempt === 5 || !/SQLITE_BUSY|database is locked/.test(String(error))) throw error;
      await sleep(attempt * 1_000);
    }
  }
}
