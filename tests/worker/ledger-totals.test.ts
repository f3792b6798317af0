import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from "~/lib/ledger";
import { decideTransaction } from "~/server/admin/decisions.server";
import { deleteClientData } from "~/server/admin/deletion.server";
import { adminDesk, WAITING_CLIENTS } from "~/server/admin/desk.server";
import { postLedgerEntry } from "~/server/admin/entries.server";
import { appEnv, createUser, db, insertLedger, insertTransaction } from "../support/fixtures";
import { projectionPair } from "../support/projections";

/** What `ledger_totals` must hold for a client: the GROUP BY of its ledger rows. */
const totalsPair = (userId: string) =>
  projectionPair(
    `SELECT status, transaction_type, stock, count, cents FROM ledger_totals WHERE user_id = ?
     ORDER BY status, transaction_type, stock`,
    `SELECT status, transaction_type, coalesce(stock, '') AS stock, count(*) AS count, sum(amount_cents) AS cents
     FROM transactions WHERE user_id = ? GROUP BY status, transaction_type, coalesce(stock, '')
     ORDER BY status, transaction_type, stock`,
    userId,
  );

/** What `desk_counts` must hold: clients with a profile and pending requests, counted. */
const deskCountsPair = () =>
  projectionPair(
    "SELECT name, n FROM desk_counts ORDER BY name",
    `SELECT 'clients' AS name, count(*) AS n FROM profiles WHERE role = 'user'
     UNION ALL SELECT 'pending', count(*) FROM transactions WHERE status = 'pending'`,
  );

describe("ledger totals", () => {
  it("equal the ledger's GROUP BY through requests, decisions, entries and the deletion of a client's data", async () => {
    const admin = await createUser({ role: "admin" });
    const actor = { id: admin.id, email: admin.email };
    const operations = fc.record({
      rows: fc.array(
        fc.record({
          transactionType: fc.constantFrom(...TRANSACTION_TYPES),
          status: fc.constantFrom(...TRANSACTION_STATUSES),
          amountCents: fc.integer({ min: 1, max: 5_000_000 }),
        }),
        { maxLength: 30 },
      ),
      decisions: fc.array(fc.constantFrom("approved" as const, "rejected" as const), { maxLength: 12 }),
      entries: fc.array(
        fc.record({
          type: fc.constantFrom("profit" as const, "loss" as const, "stock_deposit" as const, "deposit" as const),
          amountCents: fc.integer({ min: 1, max: 100_000 }),
          stock: fc.constantFrom("AAPL", "TSLA"),
        }),
        { maxLength: 5 },
      ),
    });
    await fc.assert(
      fc.asyncProperty(operations, async ({ rows, decisions, entries }) => {
        const client = await createUser();
        await insertLedger(client.id, rows);
        for (const entry of entries) {
          await postLedgerEntry(
            db,
            actor,
            client.id,
            {
              ...entry,
              tradingPair: "EUR/USD",
              idempotencyKey: crypto.randomUUID(),
            },
            appEnv,
          );
        }
        const { results: pending } = await env.DB.prepare(
          "SELECT id FROM transactions WHERE user_id = ? AND status = 'pending' ORDER BY id",
        )
          .bind(client.id)
          .all<{ id: number }>();
        for (const [i, decision] of decisions.entries()) {
          const row = pending[i];
          if (row) await decideTransaction(db, actor, row.id, decision, { limits: appEnv });
        }
        const { projected, counted } = await totalsPair(client.id);
        expect(projected).toEqual(counted);
        const desk = await deskCountsPair();
        expect(desk.projected).toEqual(desk.counted);

        expect(await deleteClientData(db, actor, client.id)).toEqual({ ok: true });
        expect(await totalsPair(client.id)).toEqual({ projected: [], counted: [] });
        const afterDeletion = await deskCountsPair();
        expect(afterDeletion.projected).toEqual(afterDeletion.counted);
      }),
      { numRuns: 25 },
    );
  });

  it("are rebuilt from the ledger by the migration that introduced them", async () => {
    const client = await createUser();
    await insertLedger(client.id, [
      { transactionType: "deposit", status: "approved", amountCents: 10_000 },
      { transactionType: "stock_deposit", status: "approved", amountCents: 2_500 },
      { transactionType: "withdraw", status: "pending", amountCents: 700 },
    ]);
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0003_"));
    const backfill = migration?.queries.find(
      (q) => q.includes("INSERT INTO `ledger_totals`") && q.includes("GROUP BY"),
    );
    expect(backfill).toBeDefined();
    await env.DB.prepare("DELETE FROM ledger_totals").run();
    await env.DB.prepare(backfill ?? "").run();
    const { projected, counted } = await totalsPair(client.id);
    expect(projected).toEqual(counted);
    expect(projected).toHaveLength(3);
  });
});

describe("the desk's totals", () => {
  it("follow new clients, their requests, decisions, a change of role and a deletion, as the desk shows them", async () => {
    const admin = await createUser({ role: "admin" });
    const actor = { id: admin.id, email: admin.email };
    const before = (await adminDesk(db, appEnv.VERIFICATION_INTRODUCED_AT)).counts;
    const clients = await Promise.all([createUser(), createUser(), createUser()]);
    const [first, second, third] = clients.map((client) => client.id) as [string, string, string];
    const waiting = await insertTransaction(first, { amountCents: 100 });
    await insertTransaction(first, { amountCents: 200, transactionType: "withdraw" });
    await insertTransaction(second, { amountCents: 300 });
    await insertTransaction(second, { amountCents: 400, status: "approved" });
    expect((await adminDesk(db, appEnv.VERIFICATION_INTRODUCED_AT)).counts).toMatchObject({
      totalUsers: before.totalUsers + 3,
      pendingRequests: before.pendingRequests + 3,
    });

    await decideTransaction(db, actor, waiting, "approved", { limits: appEnv });
    await env.DB.prepare("UPDATE profiles SET role = 'admin' WHERE user_id = ?").bind(third).run();
    expect((await adminDesk(db, appEnv.VERIFICATION_INTRODUCED_AT)).counts).toMatchObject({
      totalUsers: before.totalUsers + 2,
      pendingRequests: before.pendingRequests + 2,
    });

    expect(await deleteClientData(db, actor, second)).toEqual({ ok: true });
    expect((await adminDesk(db, appEnv.VERIFICATION_INTRODUCED_AT)).counts).toMatchObject({
      totalUsers: before.totalUsers + 1,
      pendingRequests: before.pendingRequests + 1,
    });
    const { projected, counted } = await deskCountsPair();
    expect(projected).toEqual(counted);
  });

  it("are counted from the tables by the migration that introduced them", async () => {
    const client = await createUser();
    await insertTransaction(client.id, { amountCents: 100 });
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0026_"));
    const backfill = migration?.queries.find((q) => q.includes("INSERT INTO `desk_counts`"));
    expect(backfill).toBeDefined();
    await env.DB.prepare("DELETE FROM desk_counts").run();
    await env.DB.prepare(backfill ?? "").run();
    const { projected, counted } = await deskCountsPair();
    expect(projected).toEqual(counted);
    expect(projected).toHaveLength(2);
  });
});

describe("the desk's waiting list", () => {
  it("shows the clients waiting longest, oldest first, with each one's count and money in and out", async () => {
    // 60 clients, created in an order unrelated to the age of their requests.
    const clients = await Promise.all(Array.from({ length: 60 }, () => createUser()));
    const ageOf = (i: number) => 1_000 + ((i * 37) % 60) * 1_000;
    for (const [i, client] of clients.entries()) {
      await insertTransaction(client.id, { amountCents: 100, createdAt: ageOf(i) + 500 });
      await insertTransaction(client.id, { amountCents: 250, createdAt: ageOf(i), transactionType: "withdraw" });
      await insertTransaction(client.id, { amountCents: 9_999, status: "approved", createdAt: ageOf(i) - 1 });
    }
    const { pending: waiting } = await adminDesk(db, appEnv.VERIFICATION_INTRODUCED_AT);
    const expected = clients
      .map((client, i) => ({ userId: client.id, oldest: ageOf(i) }))
      .sort((a, b) => a.oldest - b.oldest)
      .slice(0, WAITING_CLIENTS);
    expect(waiting).toHaveLength(WAITING_CLIENTS);
    expect(waiting.map((w) => ({ userId: w.userId, oldest: w.oldest }))).toEqual(expected);
    expect(waiting.every((w) => w.count === 2 && w.incomingCents === 100 && w.outgoingCents === 250)).toBe(true);
  });
});
