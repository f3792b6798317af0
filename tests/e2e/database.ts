import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { BrowserContext } from "@playwright/test";
import { sha256Hex } from "../../app/server/crypto.server";
import { executeStatements, ROOT, sqlValue } from "../../scripts/lib/local-d1";

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

/**
 * A registered client made Verified straight in the database (their identity approved), as a client must be to
 * withdraw; the verification pages are tested on their own.
 */
export async function markVerifiedInDatabase(email: string): Promise<void> {
  const now = Date.now();
  await whileBusy(() =>
    executeStatements(
      [
        `INSERT INTO verification_cases (user_id, status, legal_first_name, legal_last_name, date_of_birth, country,
           address, document_type, document_number, submitted_at, reviewed_at)
         SELECT id, 'approved', 'Test', 'Client', '1990-01-01', 'GB', '1 Test Street', 'passport', 'P1234567',
                ${now}, ${now}
         FROM users WHERE email = ${sqlValue(email.toLowerCase())}`,
      ],
      e2eDatabase,
    ),
  );
}

/** An approved deposit of `cents` for a registered client, straight in the database, with their profile's figures. */
export async function fundInDatabase(email: string, cents: number): Promise<void> {
  const user = `(SELECT id FROM users WHERE email = ${sqlValue(email.toLowerCase())})`;
  await whileBusy(() =>
    executeStatements(
      [
        `INSERT INTO transactions (user_id, transaction_type, amount_cents, status, created_at)
         VALUES (${user}, 'deposit', ${cents}, 'approved', ${Date.now()})`,
        `UPDATE profiles SET balance_cents = balance_cents + ${cents} WHERE user_id = ${user}`,
      ],
      e2eDatabase,
    ),
  );
}

/** Puts this browser's own session's last code 11 minutes back, past the step-up window; other sessions keep theirs. */
export async function outOfStepUpWindow(context: BrowserContext) {
  const cookie = (await context.cookies()).find((candidate) => candidate.name === "session");
  if (!cookie) throw new Error("no session cookie");
  const token = JSON.parse(atob(decodeURIComponent(cookie.value))) as string;
  const id = await sha256Hex(token);
  await whileBusy(() =>
    executeStatements(
      [`UPDATE sessions SET second_factor_at = ${Date.now() - 11 * 60 * 1000} WHERE id = ${sqlValue(id)}`],
      e2eDatabase,
    ),
  );
}
