/**
 * The database's own check of the permission table: the triggers that refuse a decision or a proposal by an admin
 * whose roles do not allow it, whatever the code does. Their role lists come from `PERMISSIONS`
 * (app/lib/permissions.ts), never typed by hand: `npm run db:role-guards -- <name>` writes a migration that makes
 * them again from this table, and tests/worker/role-triggers.test.ts fails while the migrated database's triggers
 * differ from what this table makes.
 */
import { type Permission, rolesFor } from "../app/lib/permissions.ts";

interface RoleGuard {
  name: string;
  /** The trigger's event: `BEFORE INSERT ON …` or `BEFORE UPDATE OF … ON …`. */
  on: string;
  permission: Permission;
  /** The WHEN condition; `roles` is the permission's list as SQL (`'operator', 'owner'`). */
  when: (roles: string) => string;
  message: string;
}

/** A decision's maker, or the proposer of a pending approval of the row, holds one of `roles`. */
const decidedBy = (type: "= 'withdraw'" | "<> 'withdraw'") => (roles: string) =>
  `OLD.status = 'pending' AND NEW.status IN ('approved', 'rejected') AND OLD.transaction_type ${type}
  AND NOT EXISTS (SELECT 1 FROM \`admin_roles\` WHERE \`user_id\` = NEW.decided_by AND \`role\` IN (${roles}))
  AND NOT EXISTS (SELECT 1 FROM \`proposals\` p JOIN \`admin_roles\` r ON r.user_id = p.proposed_by
                  WHERE p.kind = 'request_approval' AND p.status = 'pending' AND p.transaction_id = OLD.id
                    AND r.role IN (${roles}))
  AND EXISTS (SELECT 1 FROM \`users\` WHERE \`id\` = NEW.decided_by AND \`role\` = 'admin')`;

const proposedBy = (condition: string) => (roles: string) =>
  `${condition}
  AND NOT EXISTS (SELECT 1 FROM \`admin_roles\` WHERE \`user_id\` = NEW.proposed_by AND \`role\` IN (${roles}))`;

export const ROLE_GUARDS: readonly RoleGuard[] = [
  {
    name: "transactions_withdrawal_decided_by_role",
    on: "BEFORE UPDATE OF `status` ON `transactions`",
    permission: "decideWithdrawals",
    when: decidedBy("= 'withdraw'"),
    message: "this admin's roles do not allow deciding a withdrawal",
  },
  {
    name: "transactions_deposit_decided_by_role",
    on: "BEFORE UPDATE OF `status` ON `transactions`",
    permission: "decideDeposits",
    when: decidedBy("<> 'withdraw'"),
    message: "this admin's roles do not allow deciding a deposit",
  },
  {
    name: "proposals_decided_by_role",
    on: "BEFORE UPDATE OF `status` ON `proposals`",
    permission: "decideProposals",
    when: (roles) =>
      `OLD.status = 'pending' AND NEW.status IN ('approved', 'rejected')
  AND NOT EXISTS (SELECT 1 FROM \`admin_roles\` WHERE \`user_id\` = NEW.decided_by AND \`role\` IN (${roles}))`,
    message: "this admin's roles do not allow deciding a proposal",
  },
  {
    name: "proposals_entry_proposed_by_role",
    on: "BEFORE INSERT ON `proposals`",
    permission: "postEntries",
    when: proposedBy("NEW.kind = 'ledger_entry'"),
    message: "this admin's roles do not allow proposing a ledger entry",
  },
  {
    name: "proposals_withdrawal_approval_proposed_by_role",
    on: "BEFORE INSERT ON `proposals`",
    permission: "decideWithdrawals",
    when: proposedBy("NEW.kind = 'request_approval' AND NEW.transaction_type = 'withdraw'"),
    message: "this admin's roles do not allow deciding a withdrawal",
  },
  {
    name: "proposals_deposit_approval_proposed_by_role",
    on: "BEFORE INSERT ON `proposals`",
    permission: "decideDeposits",
    when: proposedBy("NEW.kind = 'request_approval' AND NEW.transaction_type IS NOT 'withdraw'"),
    message: "this admin's roles do not allow deciding a deposit",
  },
  {
    name: "proposals_wallet_change_proposed_by_role",
    on: "BEFORE INSERT ON `proposals`",
    permission: "proposeWallets",
    when: proposedBy("NEW.kind = 'wallet_change'"),
    message: "this admin's roles do not allow proposing a deposit wallet change",
  },
  {
    name: "proposals_position_close_proposed_by_role",
    on: "BEFORE INSERT ON `proposals`",
    permission: "closePositions",
    when: proposedBy("NEW.kind = 'position_close'"),
    message: "this admin's roles do not allow closing a client's position",
  },
  {
    // A sale is the client's own, or the desk's close of their position by an admin whose roles allow it.
    name: "stock_sales_sold_by_role",
    on: "BEFORE INSERT ON `stock_sales`",
    permission: "closePositions",
    when: (roles) =>
      `NEW.sold_by <> NEW.user_id
  AND NOT EXISTS (SELECT 1 FROM \`admin_roles\` WHERE \`user_id\` = NEW.sold_by AND \`role\` IN (${roles}))`,
    message: "this admin's roles do not allow closing a client's position",
  },
  {
    name: "access_recovery_requests_decided_by_role",
    on: "BEFORE UPDATE OF `status` ON `access_recovery_requests`",
    permission: "restoreAccess",
    when: (roles) =>
      `(NEW.status = 'first_approved' AND NOT EXISTS (
        SELECT 1 FROM \`admin_roles\` WHERE \`user_id\` = NEW.first_approved_by AND \`role\` IN (${roles})))
  OR (NEW.status IN ('approved', 'refused') AND NOT EXISTS (
        SELECT 1 FROM \`admin_roles\` WHERE \`user_id\` = NEW.decided_by AND \`role\` IN (${roles})))`,
    message: "the admin's roles do not allow deciding an access recovery",
  },
  {
    name: "chain_payouts_recorded_by_role",
    on: "BEFORE INSERT ON `chain_payouts`",
    permission: "decideWithdrawals",
    when: (roles) =>
      `NOT EXISTS (SELECT 1 FROM \`admin_roles\` WHERE \`user_id\` = NEW.recorded_by AND \`role\` IN (${roles}))`,
    message: "this admin's roles do not allow recording a payout",
  },
];

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** One guard's CREATE TRIGGER statement, its roles the permission table's. */
export function roleGuardSql(guard: RoleGuard): string {
  const roles = rolesFor(guard.permission).map(quote).join(", ");
  return `CREATE TRIGGER \`${guard.name}\`
${guard.on}
WHEN ${guard.when(roles)}
BEGIN
  SELECT RAISE(ABORT, ${quote(guard.message)});
END`;
}

/** The migration that makes every role guard again from the table. */
export function roleGuardsMigration(): string {
  return `${ROLE_GUARDS.map((guard) => `DROP TRIGGER IF EXISTS \`${guard.name}\`;\n--> statement-breakpoint\n${roleGuardSql(guard)};`).join("\n--> statement-breakpoint\n")}\n`;
}
