import { DurableObject } from "cloudflare:workers";
import type { StorageEnv } from "./env.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * One admin's approvals over every client in a rolling 24 hours (docs/decisions/0041's `ADMIN_DAILY_LIMIT`), when
 * each client's ledger lives in its own object and no single statement sees them all. An approval first reserves
 * its amount here (checked and written in one synchronous transaction), then asks the client's object; a refusal
 * there releases the reservation. A crash between the two leaves a reservation without its approval: the sum is
 * then too high, never too low, so the limit is never passed.
 */
export class AdminLimits extends DurableObject<StorageEnv> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: StorageEnv) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS reservations (
      key TEXT PRIMARY KEY,
      amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
      at INTEGER NOT NULL,
      confirmed INTEGER NOT NULL DEFAULT 0
    )`);
  }

  /** Reserves `amountCents` under `key` if the day's sum stays within `limitCents`; true if it did. */
  reserve(key: string, amountCents: number, limitCents: number): boolean {
    return this.ctx.storage.transactionSync(() => {
      const now = Date.now();
      const sum = Number(
        this.sql.exec("SELECT coalesce(sum(amount_cents), 0) AS sum FROM reservations WHERE at > ?", now - DAY_MS).one()
          .sum,
      );
      if (sum + amountCents > limitCents) return false;
      this.sql.exec("INSERT INTO reservations (key, amount_cents, at) VALUES (?, ?, ?)", key, amountCents, now);
      return true;
    });
  }

  confirm(key: string): void {
    this.sql.exec("UPDATE reservations SET confirmed = 1 WHERE key = ?", key);
  }

  release(key: string): void {
    this.sql.exec("DELETE FROM reservations WHERE key = ? AND confirmed = 0", key);
  }

  confirmedCents(): number {
    return Number(
      this.sql.exec("SELECT coalesce(sum(amount_cents), 0) AS sum FROM reservations WHERE confirmed = 1").one().sum,
    );
  }
}
