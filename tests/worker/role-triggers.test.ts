import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type Permission, rolesFor } from "~/lib/permissions";
import { createUser, dbRefusal, insertTransaction } from "../support/fixtures";

/** The role lists a trigger names (`role IN ('…', …)`), each sorted. */
async function triggerRoleLists(name: string): Promise<string[][]> {
  const trigger = await env.DB.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?")
    .bind(name)
    .first<{ sql: string }>();
  expect(trigger, `trigger ${name}`).not.toBeNull();
  return [...(trigger?.sql ?? "").matchAll(/role`? IN \(([^)]*)\)/g)].map((match) =>
    (match[1] ?? "")
      .split(",")
      .map((value) => value.trim().replace(/^'|'$/g, ""))
      .sort(),
  );
}

const sorted = (permission: Permission) => [...rolesFor(permission)].sort();

describe("the database's decision guards and the permission table", () => {
  it.each([
    ["transactions_withdrawal_decided_by_role", "decideWithdrawals"],
    ["transactions_deposit_decided_by_role", "decideDeposits"],
    ["proposals_decided_by_role", "decideProposals"],
    ["proposals_entry_proposed_by_role", "postEntries"],
    ["proposals_withdrawal_approval_proposed_by_role", "decideWithdrawals"],
    ["proposals_deposit_approval_proposed_by_role", "decideDeposits"],
    ["proposals_wallet_change_proposed_by_role", "proposeWallets"],
    ["access_recovery_requests_decided_by_role", "restoreAccess"],
  ] as const)("%s names exactly the roles the table gives %s", async (name, permission) => {
    const lists = await triggerRoleLists(name);
    expect(lists.length).toBeGreaterThan(0);
    for (const list of lists) expect(list).toEqual(sorted(permission));
  });

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
