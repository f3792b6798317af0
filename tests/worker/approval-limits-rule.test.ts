import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from "~/lib/ledger";
import { ADMIN_SUM_WINDOW_MS, type AdminAct, adminLimitBroken, adminSums } from "~/lib/money/constraints";
import { withinApprovalLimitsSql } from "~/server/admin/approval-limits.server";
import { ADMIN_ENTRY_WALLET } from "../../db/enums";
import { createUser, db, insertTransaction } from "../support/fixtures";

/** Small limits, so that random histories land on both sides of them. */
const LIMITS = { FOUR_EYES_THRESHOLD: 100, ADMIN_DAILY_LIMIT: 250 };

const acts = fc.array(
  fc.record({
    kind: fc.constantFrom("entry" as const, "requestApproval" as const),
    transactionType: fc.constantFrom(...TRANSACTION_TYPES),
    status: fc.constantFrom(...TRANSACTION_STATUSES),
    amountCents: fc.integer({ min: 1, max: 8_000 }),
    // Which client (0 is the one acting on), which admin created and decided it (0 is the one acting).
    client: fc.integer({ min: 0, max: 2 }),
    creator: fc.integer({ min: 0, max: 1 }),
    decider: fc.integer({ min: 0, max: 1 }),
    ageMs: fc.constantFrom(0, 1_000, ADMIN_SUM_WINDOW_MS - 1_000, ADMIN_SUM_WINDOW_MS, ADMIN_SUM_WINDOW_MS + 1_000),
    approvedByProposal: fc.boolean(),
  }),
  { maxLength: 12 },
);

describe("the approval limits rule", () => {
  it("decides the same in SQL (on D1) as in TypeScript, on random histories of acts", async () => {
    await fc.assert(
      fc.asyncProperty(acts, fc.integer({ min: 1, max: 30_000 }), async (history, amountCents) => {
        // New admins each run: the daily limit counts an admin's acts on every client, so a run must not see the
        // acts an earlier run wrote for the same admin.
        const admins = [await createUser({ role: "admin" }), await createUser({ role: "admin" })];
        const clients = [await createUser(), await createUser(), await createUser()];
        const now = Date.now();
        const written: AdminAct[] = [];
        for (const act of history) {
          const userId = clients[act.client]?.id ?? "";
          // An entry is created by an admin; a client's request by nobody in the back office.
          const createdBy = act.kind === "entry" ? (admins[act.creator]?.id ?? null) : null;
          const decidedBy = act.status === "pending" ? null : (admins[act.decider]?.id ?? null);
          const decidedAt = decidedBy ? now - act.ageMs : null;
          const id = await insertTransaction(userId, {
            transactionType: act.transactionType,
            stock: act.transactionType === "stock_deposit" ? "TSLA" : null,
            status: act.status,
            amountCents: act.amountCents,
            walletAddress: act.kind === "entry" ? ADMIN_ENTRY_WALLET : "client-wallet",
            createdBy,
            decidedBy,
            decidedAt,
          });
          const viaProposal = act.approvedByProposal && act.status === "approved";
          if (viaProposal) {
            await db.run(sql`INSERT INTO proposals (kind, status, user_id, transaction_id, transaction_type, amount_cents,
                                                    note, proposed_by, proposed_at, expires_at, decided_by, decided_at)
                             VALUES ('ledger_entry', 'approved', ${userId}, ${id}, ${act.transactionType},
                                     ${act.amountCents}, 'why', ${admins[1]?.id}, ${now - 5_000}, ${now + 60_000},
                                     ${admins[0]?.id}, ${now - 1_000})`);
          }
          written.push({ ...act, userId, createdBy, decidedBy, decidedAt, approvedByProposal: viaProposal });
        }
        const admin = admins[0]?.id ?? "";
        const client = clients[0]?.id ?? "";
        const row = await db.get<{ holds: number }>(
          sql`SELECT CASE WHEN ${withinApprovalLimitsSql(LIMITS, admin, client, amountCents, now)} THEN 1 ELSE 0 END AS holds`,
        );
        const expected = adminLimitBroken(adminSums(written, admin, client, now), amountCents, LIMITS) === null;
        expect(row.holds === 1, JSON.stringify({ history: written, amountCents })).toBe(expected);
      }),
      { numRuns: 60 },
    );
    // Sixty histories, each written to D1: about 4 s alone, more on a busy machine.
  }, 30_000);
});
