import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { rolesFor } from "~/lib/permissions";
import { ROLE_GUARDS, roleGuardSql } from "../../db/role-guards";
import { createUser, dbRefusal, insertTransaction } from "../support/fixtures";

/** A trigger's statement as the migrated D1 holds it. */
async function triggerSql(name: string): Promise<string | undefined> {
  const trigger = await env.DB.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?")
    .bind(name)
    .first<{ sql: string }>();
  return trigger?.sql;
}

describe("the database's decision guards and the permission table", () => {
  it("guard every act the table gives to some roles and not others, once each", () => {
    expect(ROLE_GUARDS.map((guard) => guard.name).sort()).toEqual([
      "access_recovery_requests_decided_by_role",
      "chain_payouts_recorded_by_role",
      "proposals_decided_by_role",
      "proposals_deposit_approval_proposed_by_role",
      "proposals_entry_proposed_by_role",
      "proposals_position_close_proposed_by_role",
      "proposals_wallet_change_proposed_by_role",
      "proposals_withdrawal_approval_proposed_by_role",
      "stock_sales_sold_by_role",
      "transactions_deposit_decided_by_role",
      "transactions_withdrawal_decided_by_role",
    ]);
  });

  it.each(ROLE_GUARDS.map((guard) => [guard.name, guard.permission, guard] as const))(
    "%s is what the table makes of %s (npm run db:role-guards writes its migration)",
    async (name, permission, guard) => {
      const sql = await triggerSql(name);
      expect(sql, `trigger ${name}`).toBe(roleGuardSql(guard));
      for (const list of (sql ?? "").matchAll(/role`? IN \(([^)]*)\)/g)) {
        expect(list[1]).toBe(
          rolesFor(permission)
            .map((role) => `'${role}'`)
            .join(", "),
        );
      }
    },
  );

  it("refuse a withdrawal decided by an operator and a deposit decided by an approver, and take the right roles", async () => {
    const operator = await createUser({ role: "admin", roles: ["operator"] });
    const approver = await createUser({ role: "admin", roles: ["approver"] });
    const client = await createUser();
    const withdrawal = await insertTransaction(client.id, { transactionType: "withdraw", amountCents: 1_000 });
    const deposit = await insertTransaction(client.id, { transactionType: "deposit", amountCents: 1_000 });
    const decideAs = (id: number, adminId: string) =>
      env.DB.prepare("UPDATE transactions SET status = 'rejected', decided_by = ?, decided_at = ? WHERE id = ?")
        .bind(adminId, Date.now(), id)
        .run();
    expect(await dbRefusal(decideAs(withdrawal, operator.id))).toMatch(/do not allow deciding a withdrawal/);
    expect(await dbRefusal(decideAs(deposit, approver.id))).toMatch(/do not allow deciding a deposit/);
    await decideAs(withdrawal, approver.id);
    await decideAs(deposit, operator.id);
    const { results } = await env.DB.prepare("SELECT status FROM transactions WHERE id IN (?, ?)")
      .bind(withdrawal, deposit)
      .all<{ status: string }>();
    expect(results.map((row) => row.status)).toEqual(["rejected", "rejected"]);
  });

  it("refuse a ledger entry proposed by a support admin", async () => {
    const support = await createUser({ role: "admin", roles: ["support"] });
    const client = await createUser();
    const propose = env.DB.prepare(
      `INSERT INTO proposals (kind, user_id, transaction_type, amount_cents, note, proposed_by, expires_at)
       VALUES ('ledger_entry', ?, 'deposit', 100, 'why', ?, ?)`,
    )
      .bind(client.id, support.id, Date.now() + 60_000)
      .run();
    expect(await dbRefusal(propose)).toMatch(/do not allow proposing a ledger entry/);
  });
});
