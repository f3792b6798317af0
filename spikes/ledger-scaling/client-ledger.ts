import { DurableObject } from "cloudflare:workers";
import type { StorageEnv } from "./env.ts";
import { applyEvents, type LedgerEvent } from "./read-model.ts";

/** How many outbox events one alarm pushes to the read model in one D1 batch. */
const PUSH_BATCH = 100;

type Row = Record<string, SqlStorageValue>;
export type WithdrawResult = { ok: true; id: number } | { ok: false; reason: "not covered" | "duplicate" };

/**
 * One client's ledger as its system of record, in the object's own SQLite storage: the ledger rows, the totals the
 * cover rule reads, and an outbox of events in the same transaction as each change. The cover rule is the app's
 * (docs/product.md, "Money rules"; app/lib/money/constraints.ts, `withdrawalRequest`) in miniature: the approved
 * balance less the withdrawals already waiting must cover the amount. Each method runs in one synchronous
 * `transactionSync`, so no other request of this client can interleave between the check and the write; the
 * totals table's CHECK refuses an overdraw even if the check were wrong.
 */
export class ClientLedger extends DurableObject<StorageEnv> {
  private readonly sql: SqlStorage;
  /** An alarm is set and has not started: later writes ride on it (lost on eviction, which only costs a set). */
  private pushScheduled = false;

  constructor(ctx: DurableObjectState, env: StorageEnv) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`
      CREATE TABLE IF NOT EXISTS ledger (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        type TEXT NOT NULL CHECK (type IN ('deposit', 'withdraw')),
        status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
        amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
        idempotency_key TEXT UNIQUE,
        created_at INTEGER NOT NULL,
        decided_by TEXT
      );
      CREATE TABLE IF NOT EXISTS totals (
        one INTEGER PRIMARY KEY CHECK (one = 1),
        client_id TEXT NOT NULL,
        balance_cents INTEGER NOT NULL DEFAULT 0,
        pending_withdrawals_cents INTEGER NOT NULL DEFAULT 0,
        CHECK (balance_cents - pending_withdrawals_cents >= 0)
      );
      CREATE TABLE IF NOT EXISTS outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, event TEXT NOT NULL);
    `);
  }

  /** An approved deposit (a desk entry, in the app's words): money in always passes. */
  deposit(clientId: string, amountCents: number): number {
    const result = this.ctx.storage.transactionSync(() => {
      this.ensureTotals(clientId);
      const id = this.insertRow("deposit", "approved", amountCents, null);
      this.sql.exec("UPDATE totals SET balance_cents = balance_cents + ?", amountCents);
      this.queueEvent(id);
      return id;
    });
    this.schedulePush();
    return result;
  }

  /** A client's withdrawal request: pending, reserved, and only if withdrawable covers it. */
  requestWithdrawal(clientId: string, amountCents: number, key: string): WithdrawResult {
    const result = this.ctx.storage.transactionSync((): WithdrawResult => {
      const totals = this.ensureTotals(clientId);
      if (this.sql.exec("SELECT 1 FROM ledger WHERE idempotency_key = ?", key).toArray().length > 0) {
        return { ok: false, reason: "duplicate" };
      }
      const withdrawable = Number(totals.balance_cents) - Number(totals.pending_withdrawals_cents);
      if (withdrawable - amountCents < 0) return { ok: false, reason: "not covered" };
      const id = this.insertRow("withdraw", "pending", amountCents, key);
      this.sql.exec("UPDATE totals SET pending_withdrawals_cents = pending_withdrawals_cents + ?", amountCents);
      this.queueEvent(id);
      return { ok: true, id };
    });
    if (result.ok) this.schedulePush();
    return result;
  }

  /**
   * An admin's approval of a waiting withdrawal of `amountCents` (the amount the admin's sum reserved): the money was
   * reserved, so it leaves the balance and the reserve.
   */
  approveWithdrawal(id: number, amountCents: number, adminId: string): boolean {
    const approved = this.ctx.storage.transactionSync(() => {
      const row = this.sql
        .exec(
          "SELECT amount_cents FROM ledger WHERE id = ? AND amount_cents = ? AND type = 'withdraw' AND status = 'pending'",
          id,
          amountCents,
        )
        .toArray()[0];
      if (!row) return false;
      this.sql.exec("UPDATE ledger SET status = 'approved', decided_by = ? WHERE id = ?", adminId, id);
      this.sql.exec(
        "UPDATE totals SET balance_cents = balance_cents - ?1, pending_withdrawals_cents = pending_withdrawals_cents - ?1",
        row.amount_cents,
      );
      this.queueEvent(id);
      return true;
    });
    if (approved) this.schedulePush();
    return approved;
  }

  state(): { balanceCents: number; pendingCents: number; rows: number; outbox: number; bytes: number } {
    const totals = this.sql.exec("SELECT * FROM totals").toArray()[0];
    const count = (table: string) => Number(this.sql.exec(`SELECT count(*) AS n FROM ${table}`).one().n);
    return {
      balanceCents: Number(totals?.balance_cents ?? 0),
      pendingCents: Number(totals?.pending_withdrawals_cents ?? 0),
      rows: count("ledger"),
      outbox: count("outbox"),
      bytes: this.sql.databaseSize,
    };
  }

  /** The outbox push: the oldest events to the read model, then off the outbox; again at once while any are left. */
  async alarm(): Promise<void> {
    this.pushScheduled = false;
    const rows = this.sql.exec("SELECT seq, event FROM outbox ORDER BY seq LIMIT ?", PUSH_BATCH).toArray();
    if (rows.length === 0) return;
    // The outbox's sequence (AUTOINCREMENT: never reused) is the version that orders one row's events.
    const events = rows.map((row) => ({ ...JSON.parse(String(row.event)), version: Number(row.seq) }) as LedgerEvent);
    // A failed push throws: the alarm is retried with back-off and the events stay in the outbox.
    await applyEvents(this.env.READ_MODEL, events, Date.now());
    this.sql.exec("DELETE FROM outbox WHERE seq <= ?", rows[rows.length - 1]?.seq ?? 0);
    if (rows.length === PUSH_BATCH) await this.ctx.storage.setAlarm(Date.now());
  }

  private ensureTotals(clientId: string): Row {
    this.sql.exec("INSERT INTO totals (one, client_id) VALUES (1, ?) ON CONFLICT DO NOTHING", clientId);
    return this.sql.exec("SELECT * FROM totals").one();
  }

  private insertRow(type: string, status: string, amountCents: number, key: string | null): number {
    return Number(
      this.sql
        .exec(
          `INSERT INTO ledger (type, status, amount_cents, idempotency_key, created_at) VALUES (?, ?, ?, ?, ?)
           RETURNING id`,
          type,
          status,
          amountCents,
          key,
          Date.now(),
        )
        .one().id,
    );
  }

  /** The row's new state as an event, in the same transaction as the change; the alarm pushes it. */
  private queueEvent(id: number): void {
    const row = this.sql.exec("SELECT * FROM ledger WHERE id = ?", id).one();
    const clientId = String(this.sql.exec("SELECT client_id FROM totals").one().client_id);
    const event: Omit<LedgerEvent, "version"> = {
      clientId,
      id,
      type: row.type as LedgerEvent["type"],
      status: row.status as LedgerEvent["status"],
      amountCents: Number(row.amount_cents),
      createdAt: Number(row.created_at),
      writtenAt: Date.now(),
    };
    this.sql.exec("INSERT INTO outbox (event) VALUES (?)", JSON.stringify(event));
  }

  /**
   * After a change commits: the push is due now. The output gate holds the reply until the alarm is stored with
   * the change, so an acknowledged write always has its push coming.
   */
  private schedulePush(): void {
    if (this.pushScheduled) return;
    this.pushScheduled = true;
    void this.ctx.storage.setAlarm(Date.now());
  }
}
