import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "~/server/db.server";
import { formatGuards, GUARD_SECTIONS, type SchemaRow } from "../../db/guards";
import guardsFile from "../../db/guards.sql?raw";
import productRules from "../../docs/product.md?raw";
import { createUser, db, dbRefusal, insertTransaction } from "../support/fixtures";

const { transactions, transactionsArchive, auditLog } = schema;

describe("migrations on an empty D1", () => {
  it("create every table and guard", async () => {
    const { results } = await env.DB.prepare(
      "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'trigger') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_cf%' ESCAPE '\\' AND name <> 'd1_migrations' ORDER BY type, name",
    ).all<{ type: string; name: string }>();
    expect(results.filter((r) => r.type === "table").map((r) => r.name)).toEqual([
      "access_recovery_files",
      "access_recovery_requests",
      "admin_invitations",
      "admin_roles",
      "audit_archives",
      "audit_log",
      "auth_failures",
      "auth_tokens",
      "chain_blocks",
      "chain_payments",
      "chain_payouts",
      "chain_scans",
      "client_flags",
      "client_notes",
      // The client search's full-text index and the tables FTS5 keeps it in.
      "client_search",
      "client_search_config",
      "client_search_content",
      "client_search_data",
      "client_search_docsize",
      "client_search_idx",
      "deposit_addresses",
      "deposit_keys",
      "deposit_wallets",
      "desk_counts",
      "email_outbox",
      "ledger_days",
      "ledger_months",
      "ledger_totals",
      "mail_archive_recipients",
      "mail_archives",
      "mail_preferences",
      "monitoring_alerts",
      "notifications",
      "oauth_accounts",
      "oauth_pending",
      "passkeys",
      "position_closes",
      "positions",
      "profiles",
      "profiles_archive",
      "proposals",
      "recovery_codes",
      "sessions",
      "sign_in_challenges",
      "sign_in_events",
      "stock_sales",
      "team_proposals",
      "transactions",
      "transactions_archive",
      "two_factor",
      "users",
      "verification_cases",
      "verification_documents",
      "webauthn_challenges",
      "withdrawal_wallets",
    ]);
    expect(results.filter((r) => r.type === "trigger").map((r) => r.name)).toEqual([
      "access_recovery_requests_decided_by_role",
      "access_recovery_requests_ended_are_immutable",
      "access_recovery_requests_in_order",
      "access_recovery_requests_second_admin_approves",
      "admin_invitations_accepted_while_inviter_owns",
      "admin_roles_admins_only",
      "audit_archives_no_delete",
      "audit_archives_no_update",
      "audit_log_ids_only_grow",
      "audit_log_no_delete",
      "audit_log_no_update",
      "chain_payments_settled_are_final",
      "chain_payouts_keep_what_was_recorded",
      "chain_payouts_no_delete",
      "chain_payouts_pay_approved_withdrawals",
      "chain_payouts_recorded_by_role",
      "chain_payouts_settled_are_final",
      "client_notes_flags_after_insert",
      "client_notes_kept_until_retained",
      "client_notes_no_update",
      "client_notes_valid",
      "client_search_profiles_after_delete",
      "client_search_profiles_after_insert",
      "client_search_profiles_after_update",
      "client_search_users_after_update",
      "deposit_addresses_no_delete",
      "deposit_addresses_no_update",
      "desk_counts_profiles_after_delete",
      "desk_counts_profiles_after_insert",
      "desk_counts_profiles_after_update",
      "desk_counts_transactions_after_delete",
      "desk_counts_transactions_after_insert",
      "desk_counts_transactions_after_update",
      "email_outbox_leaves_only_findable",
      "email_outbox_notifies",
      "ledger_days_after_delete",
      "ledger_days_after_insert",
      "ledger_days_after_update",
      "ledger_months_after_delete",
      "ledger_months_after_insert",
      "ledger_months_after_update",
      "ledger_totals_after_delete",
      "ledger_totals_after_insert",
      "ledger_totals_after_update",
      "monitoring_alerts_decided_once",
      "monitoring_alerts_kept",
      "monitoring_alerts_only_grow",
      "passkeys_at_most_ten",
      "passkeys_counter_forward",
      "position_closes_are_final",
      "position_closes_no_delete",
      "position_closes_own_lots_while_selling",
      "positions_cancel_within_window",
      "positions_no_delete",
      "positions_open_part_only_shrinks",
      "positions_terms_are_final",
      "profiles_kept_while_positions_open",
      "proposals_decided_are_immutable",
      "proposals_decided_by_role",
      "proposals_deposit_approval_proposed_by_role",
      "proposals_entry_proposed_by_role",
      "proposals_no_delete",
      "proposals_pending_only_decides",
      "proposals_position_close_proposed_by_role",
      "proposals_second_admin_approves",
      "proposals_wallet_change_proposed_by_role",
      "proposals_withdrawal_approval_proposed_by_role",
      "stock_sales_no_delete",
      "stock_sales_settled_are_final",
      "stock_sales_sold_by_role",
      "team_proposals_approved_while_proposer_owns",
      "team_proposals_decided_are_immutable",
      "team_proposals_second_owner_approves",
      "transactions_cancel_by_owner",
      "transactions_cancel_own_requests_only",
      "transactions_decided_are_immutable",
      "transactions_decided_by_admin",
      "transactions_delete_requires_archive",
      "transactions_deposit_decided_by_role",
      "transactions_pending_only_decides",
      "transactions_withdrawal_approval_requires_verification",
      "transactions_withdrawal_decided_by_role",
      "verification_cases_kept_until_retained",
      "verification_documents_kept_until_retained",
    ]);
  });

  it("keep the ledger's projections in their keys' own b-tree (WITHOUT ROWID), with no second copy of the key", async () => {
    const { results } = await env.DB.prepare(
      "SELECT name, sql FROM sqlite_master WHERE tbl_name IN ('ledger_totals', 'ledger_months', 'ledger_days') ORDER BY name",
    ).all<{ name: string; sql: string | null }>();
    expect(results.map((r) => r.name)).toEqual(["ledger_days", "ledger_months", "ledger_totals"]);
    for (const table of results) expect(table.sql).toMatch(/\) WITHOUT ROWID$/);
  });
});

describe("db/guards.sql", () => {
  it("is the guards of the migrated D1, so a guard's change shows in that one file (npm run db:generate)", async () => {
    const { results } = await env.DB.prepare(
      "SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'trigger') AND name NOT LIKE '\\_cf%' ESCAPE '\\'",
    ).all<SchemaRow>();
    expect(formatGuards(results)).toBe(guardsFile);
  });

  it("heads every guard with a section docs/product.md has", () => {
    const headings = new Set([...productRules.matchAll(/^##+ (.+)$/gm)].map((match) => match[1]?.trim()));
    for (const [, section] of GUARD_SECTIONS) {
      for (const part of section.split(" › ")) expect(headings, section).toContain(part);
    }
  });
});

describe("ledger guards", () => {
  it("refuse any change to an approved transaction", async () => {
    const { id: userId } = await createUser();
    const id = await insertTransaction(userId, { status: "approved", amountCents: 5_000 });
    expect(
      await dbRefusal(db.update(transactions).set({ amountCents: 9_999 }).where(eq(transactions.id, id)).run()),
    ).toMatch(/transaction already decided/);
    expect(
      await dbRefusal(db.update(transactions).set({ status: "rejected" }).where(eq(transactions.id, id)).run()),
    ).toMatch(/transaction already decided/);
    const row = await db.select().from(transactions).where(eq(transactions.id, id)).get();
    expect(row).toMatchObject({ status: "approved", amountCents: 5_000 });
  });

  it("let a pending transaction be decided once: pending -> approved -> rejected fails", async () => {
    const { id: userId } = await createUser();
    const { id: adminId } = await createUser({ role: "admin" });
    const id = await insertTransaction(userId);
    await db
      .update(transactions)
      .set({ status: "approved", decidedBy: adminId, decidedAt: Date.now() })
      .where(eq(transactions.id, id))
      .run();
    expect(
      await dbRefusal(db.update(transactions).set({ status: "rejected" }).where(eq(transactions.id, id)).run()),
    ).toMatch(/transaction already decided/);
    expect((await db.select().from(transactions).where(eq(transactions.id, id)).get())?.status).toBe("approved");
  });

  it("refuse editing a pending transaction's amount or owner", async () => {
    const { id: userId } = await createUser();
    const { id: otherId } = await createUser();
    const { id: adminId } = await createUser({ role: "admin" });
    const id = await insertTransaction(userId, { amountCents: 1_000 });
    expect(
      await dbRefusal(
        db
          .update(transactions)
          .set({ status: "approved", decidedBy: adminId, amountCents: 100_000 })
          .where(eq(transactions.id, id))
          .run(),
      ),
    ).toMatch(/may only be approved, rejected or cancelled/);
    expect(
      await dbRefusal(db.update(transactions).set({ userId: otherId }).where(eq(transactions.id, id)).run()),
    ).toMatch(/may only be approved, rejected or cancelled/);
    expect(await db.select().from(transactions).where(eq(transactions.id, id)).get()).toMatchObject({
      status: "pending",
      amountCents: 1_000,
      userId,
    });
  });

  it("refuse giving a pending transaction a memo, with its decision or without, and any change of an entry's", async () => {
    const { id: userId } = await createUser();
    const { id: adminId } = await createUser({ role: "admin" });
    const id = await insertTransaction(userId);
    expect(
      await dbRefusal(
        db
          .update(transactions)
          .set({ status: "approved", decidedBy: adminId, decidedAt: Date.now(), memo: "Looks fine" })
          .where(eq(transactions.id, id))
          .run(),
      ),
    ).toMatch(/may only be approved, rejected or cancelled/);
    expect(
      await dbRefusal(db.update(transactions).set({ memo: "Added later" }).where(eq(transactions.id, id)).run()),
    ).toMatch(/may only be approved, rejected or cancelled/);
    expect(await db.select().from(transactions).where(eq(transactions.id, id)).get()).toMatchObject({
      status: "pending",
      memo: null,
    });
    // An entry is written approved with its memo, which then never changes.
    const entry = await insertTransaction(userId, { status: "approved", memo: "Referral bonus" });
    expect(
      await dbRefusal(db.update(transactions).set({ memo: "Something else" }).where(eq(transactions.id, entry)).run()),
    ).toMatch(/transaction already decided/);
  });

  it("refuse non-positive amounts, unknown types and stock deposits without a stock", async () => {
    const { id: userId } = await createUser();
    expect(await dbRefusal(insertTransaction(userId, { amountCents: 0 }))).toMatch(/CHECK constraint failed/);
    expect(await dbRefusal(insertTransaction(userId, { amountCents: -500 }))).toMatch(/CHECK constraint failed/);
    expect(
      await dbRefusal(
        env.DB.prepare("INSERT INTO transactions (user_id, transaction_type, amount_cents) VALUES (?, 'bonus', 100)")
          .bind(userId)
          .run(),
      ),
    ).toMatch(/CHECK constraint failed/);
    expect(await dbRefusal(insertTransaction(userId, { transactionType: "stock_deposit" }))).toMatch(
      /CHECK constraint failed/,
    );
    const { results } = await env.DB.prepare("SELECT count(*) AS n FROM transactions WHERE user_id = ?")
      .bind(userId)
      .all();
    expect(results[0]).toEqual({ n: 0 });
  });

  it("refuse the same idempotency key twice for one client", async () => {
    const { id: userId } = await createUser();
    await insertTransaction(userId, { idempotencyKey: "form-1" });
    expect(await dbRefusal(insertTransaction(userId, { idempotencyKey: "form-1" }))).toMatch(
      /UNIQUE constraint failed/,
    );
  });

  it("refuse deleting a transaction that was not archived, and allow it once archived", async () => {
    const { id: userId } = await createUser();
    const id = await insertTransaction(userId, { status: "approved" });
    expect(await dbRefusal(db.delete(transactions).where(eq(transactions.id, id)).run())).toMatch(
      /must be archived before it is deleted/,
    );
    expect(await db.select().from(transactions).where(eq(transactions.id, id)).get()).toBeDefined();

    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO transactions_archive (id, user_id, transaction_type, amount_cents, status, created_at)
         SELECT id, user_id, transaction_type, amount_cents, status, created_at FROM transactions WHERE id = ?`,
      ).bind(id),
      env.DB.prepare("DELETE FROM transactions WHERE id = ?").bind(id),
    ]);
    expect(await db.select().from(transactions).where(eq(transactions.id, id)).get()).toBeUndefined();
    expect(await db.select().from(transactionsArchive).where(eq(transactionsArchive.id, id)).get()).toMatchObject({
      userId,
      amountCents: 10_000,
    });
  });

  it("keep the audit log append-only", async () => {
    const row = await db
      .insert(auditLog)
      .values({ actorId: "admin-1", action: "transaction.approve", target: "tx:1", detail: { before: "pending" } })
      .returning()
      .get();
    expect(
      await dbRefusal(db.update(auditLog).set({ action: "nothing" }).where(eq(auditLog.id, row.id)).run()),
    ).toMatch(/append-only/);
    expect(await dbRefusal(db.delete(auditLog).where(eq(auditLog.id, row.id)).run())).toMatch(/append-only/);
    expect(await db.select().from(auditLog).where(eq(auditLog.id, row.id)).get()).toMatchObject({
      action: "transaction.approve",
      detail: { before: "pending" },
    });
  });

  it("store e-mail addresses lower-cased only", async () => {
    expect(
      await dbRefusal(
        env.DB.prepare(
          "INSERT INTO users (id, email, password_hash) VALUES ('u-upper', 'Someone@Example.com', 'x')",
        ).run(),
      ),
    ).toMatch(/CHECK constraint failed/);
  });
});
