/**
 * The database's guards in one reviewable file, db/guards.sql: every trigger and CHECK constraint of the migrated
 * schema, grouped under the section of docs/product.md whose rule each keeps. `npm run db:generate` writes it from
 * the migrations (scripts/guards.ts); tests/worker/migrations.test.ts builds the same text from a D1 migrated by
 * wrangler's migrations and fails when the file is not current. Plain TypeScript with no imports, so that both the
 * Node script and the Workers test can use it.
 */

/** A row of `sqlite_master`. */
export interface SchemaRow {
  type: string;
  name: string;
  sql: string | null;
}

/**
 * Which section of docs/product.md a trigger keeps, by its name; the first match wins. A new trigger that matches
 * none stops `npm run db:generate` until it is given its section here.
 */
export const GUARD_SECTIONS: ReadonlyArray<readonly [RegExp, string]> = [
  [/_by_role$/, "Back-office roles › Where the table is enforced"],
  [/^access_recovery_requests_/, "Account security › Access recovery"],
  [/^(admin_invitations|admin_roles|team_proposals)_/, "Back-office roles › The team page"],
  [/^(chain_payments|deposit_addresses)_/, "Money rules › Deposits on chain"],
  [/^chain_payouts_/, "Money rules › Payouts on chain"],
  [/^client_search_/, "Screens › Desk (`/admin`)"],
  [/^client_notes_/, "Back-office roles › Client notes"],
  [/^audit_(log|archives)_/, "Money rules › Audit log"],
  [/^desk_counts_/, "Screens › Desk (`/admin`)"],
  [/^email_outbox_notifies$/, "Messages › Notifications and mail preferences"],
  [/^email_outbox_leaves_only_findable$/, "Screens › Mail queue (`/admin/mail`)"],
  [/^ledger_totals_/, "Money rules › Figures"],
  [/^ledger_days_/, "Screens › Portfolio (`/portfolio`)"],
  [/^ledger_months_/, "Money rules › Statements"],
  [/^monitoring_alerts_/, "Money rules › Transaction monitoring"],
  [/^passkeys_/, "Account security › Passkeys"],
  [/^proposals_/, "Money rules › Second approval"],
  [/^(positions|stock_sales|position_closes)_/, "Money rules › Orders and positions"],
  [/^profiles_kept_while_positions_open$/, "Money rules › Orders and positions"],
  [/^transactions_cancel_(by_owner|own_requests_only)$/, "Money rules › Cancelling"],
  [/^transactions_delete_requires_archive$/, "Money rules › Other admin changes"],
  [/^transactions_withdrawal_approval_requires_verification$/, "Identity verification › Money by level"],
  [/^transactions_/, "Money rules › Decisions"],
  [/^verification_(cases|documents)_/, "Identity verification › Retention"],
];

export function sectionOf(trigger: string): string {
  const match = GUARD_SECTIONS.find(([pattern]) => pattern.test(trigger));
  if (!match) throw new Error(`The trigger ${trigger} has no section of docs/product.md in db/guards.ts.`);
  return match[1];
}

/** The `CHECK (…)` clauses of a CREATE TABLE statement, parentheses balanced and quoted text skipped. */
export function checksOf(createTable: string): string[] {
  const checks: string[] = [];
  const start = /\bCHECK\s*\(/gi;
  for (let found = start.exec(createTable); found; found = start.exec(createTable)) {
    let depth = 0;
    let quote: string | null = null;
    let end = found.index + found[0].length - 1;
    for (; end < createTable.length; end++) {
      const char = createTable[end];
      if (quote) {
        if (char === quote) quote = null;
      } else if (char === "'" || char === '"' || char === "`") quote = char;
      else if (char === "(") depth++;
      else if (char === ")" && --depth === 0) break;
    }
    checks.push(createTable.slice(found.index, end + 1).replace(/\s+/g, " "));
    start.lastIndex = end + 1;
  }
  return checks;
}

const HEADER = `-- The database's guards: every trigger and CHECK constraint of the schema that db/migrations builds, grouped
-- under the section of docs/product.md whose rule each keeps. Written by \`npm run db:generate\` (db/guards.ts); the
-- migrations test fails when it is not current. For review, not to be run: a guard changes by a new migration, and
-- this file shows the change in one diff.`;

/** db/guards.sql's text, from the rows of a migrated database's `sqlite_master`. */
export function formatGuards(rows: readonly SchemaRow[]): string {
  const bySection = new Map<string, SchemaRow[]>();
  for (const row of rows.filter((r) => r.type === "trigger" && r.sql)) {
    const section = sectionOf(row.name);
    bySection.set(section, [...(bySection.get(section) ?? []), row]);
  }
  const parts = [HEADER];
  for (const section of [...bySection.keys()].sort()) {
    parts.push(`-- ${"=".repeat(8)} ${section}`);
    const triggers = bySection.get(section) ?? [];
    triggers.sort((a, b) => a.name.localeCompare(b.name));
    for (const trigger of triggers) parts.push(`${trigger.sql?.trim()};`);
  }
  const tables = rows
    .filter((r) => r.type === "table" && r.sql)
    .map((r) => ({ name: r.name, checks: checksOf(r.sql ?? "") }))
    .filter((t) => t.checks.length > 0)
    .sort((a, b) => a.name.localeCompare(b.name));
  parts.push(`-- ${"=".repeat(8)} CHECK constraints, per table`);
  for (const table of tables) parts.push([`-- ${table.name}`, ...table.checks].join("\n"));
  return `${parts.join("\n\n")}\n`;
}
