import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN_SUM_WINDOW_MS } from "~/lib/money/constraints";
import { approvalLimitMessage, PROPOSAL_MESSAGES } from "~/lib/proposals";
import { ADMIN_ENTRY_WALLET } from "../../db/enums";
import {
  appEnv,
  countRows,
  createUser,
  fundedClient,
  getPage,
  insertTransaction,
  postForm,
  sessionCookieFor,
} from "../support/fixtures";
import { alerts, statuses, testIdTextWith } from "../support/places";

type Admin = { id: string; email: string; cookie: string };

const THRESHOLD_CENTS = appEnv.FOUR_EYES_THRESHOLD * 100;
const DAILY_CENTS = appEnv.ADMIN_DAILY_LIMIT * 100;

async function newAdmin(): Promise<Admin> {
  const created = await createUser({ role: "admin" });
  return { ...created, cookie: await sessionCookieFor(created.id) };
}

const entry = (admin: Admin, clientId: string, amount: string, reason = "Wire received") =>
  postForm(
    `/user/${clientId}`,
    { intent: "entry", type: "deposit", amount, idempotencyKey: crypto.randomUUID(), reason },
    { cookie: admin.cookie },
  );

const approve = (admin: Admin, clientId: string, transactionId: number) =>
  postForm(`/user/${clientId}`, { intent: "approve", transactionId: String(transactionId) }, { cookie: admin.cookie });

/** The client page's banner after an act: what the admin is told (a success's status, a refusal's alert). */
const told = async (reply: Response | Promise<Response>) => statuses(await (await reply).text());
const refused = async (reply: Response) => alerts(await reply.text());

/** What went through at once: the approved rows this admin decided alone for this client. */
async function postedBy(admin: Admin, clientId: string) {
  const row = await env.DB.prepare(
    `SELECT count(*) AS n, coalesce(sum(amount_cents), 0) AS cents FROM transactions
     WHERE user_id = ? AND decided_by = ? AND status = 'approved'`,
  )
    .bind(clientId, admin.id)
    .first<{ n: number; cents: number }>();
  return { count: row?.n ?? 0, cents: row?.cents ?? 0 };
}

const proposalsFor = (clientId: string) =>
  env.DB.prepare("SELECT kind, limit_reason, note, proposed_by FROM proposals WHERE user_id = ? ORDER BY id")
    .bind(clientId)
    .all<{ kind: string; limit_reason: string | null; note: string | null; proposed_by: string }>()
    .then((r) => r.results);

/** A verified client with money in and `count` pending withdrawals of `cents` each (asked before the limits). */
async function clientWithWithdrawals(count: number, cents: number) {
  const client = await fundedClient(count * cents + 100_000);
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    ids.push(await insertTransaction(client.id, { transactionType: "withdraw", amountCents: cents }));
  }
  return { client, ids };
}

let other: Admin;

beforeAll(async () => {
  other = await newAdmin();
});

describe("approval limits per admin: one client", () => {
  it("let two $4,000 entries post and turn the third into a proposal that says why", async () => {
    expect(appEnv.FOUR_EYES_THRESHOLD).toBe(10_000);
    const client = await fundedClient(100);
    const me = await newAdmin();
    for (const _ of [1, 2]) expect(await told(entry(me, client.id, "4000"))).toContain("Deposit of $4,000.00 recorded");

    // Without a reason, the entry that would wait is refused on its reason field and nothing changes.
    const noReason = await entry(me, client.id, "4000", "");
    expect(noReason.status).toBe(400);
    const limit = approvalLimitMessage("perClient", 1_200_000, THRESHOLD_CENTS);
    expect(limit).toBe("Would bring your approvals for this client today to $12,000.00.");
    expect(await refused(noReason)).toContain(`${limit} ${PROPOSAL_MESSAGES.limitReasonRequired}`);
    expect(await proposalsFor(client.id)).toEqual([]);

    const third = await entry(me, client.id, "4000");
    expect(third.status).toBe(200);
    expect(await told(third)).toContain(`Awaiting second approval. ${limit}`);
    expect(await postedBy(me, client.id)).toEqual({ count: 2, cents: 800_000 });
    expect(await proposalsFor(client.id)).toEqual([
      { kind: "ledger_entry", limit_reason: limit, note: "Wire received", proposed_by: me.id },
    ]);
    // The client's page shows the proposal and its reason on the card.
    const page = await (await getPage(`/user/${client.id}`, me.cookie)).text();
    expect(testIdTextWith(page, "proposal", "Deposit of $4,000.00 for Pat Tester")).toContain(
      `Over the approval limit: ${limit}`,
    );
  });

  it("never lets 20 parallel $4,000 entries post a sum at or above the threshold", async () => {
    const client = await fundedClient(100);
    const me = await newAdmin();
    const replies = await Promise.all(Array.from({ length: 20 }, () => entry(me, client.id, "4000")));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    const posted = await postedBy(me, client.id);
    expect(posted.count).toBeLessThanOrEqual(2);
    expect(posted.cents).toBeLessThan(THRESHOLD_CENTS);
    expect(await countRows("proposals", "user_id = ?", client.id)).toBe(20 - posted.count);
  });

  it("count withdrawal approvals the same way, the third and the parallel ones waiting", async () => {
    const me = await newAdmin();
    const { client, ids } = await clientWithWithdrawals(3, 400_000);
    for (const id of ids.slice(0, 2)) expect(await told(approve(me, client.id, id))).toContain("Transaction approved");
    const third = await approve(me, client.id, ids[2] ?? 0);
    expect(await told(third)).toContain(
      `Awaiting second approval. ${approvalLimitMessage("perClient", 1_200_000, THRESHOLD_CENTS)}`,
    );
    expect(await countRows("transactions", "id = ? AND status = 'pending'", ids[2])).toBe(1);
    expect((await proposalsFor(client.id))[0]).toMatchObject({ kind: "request_approval", proposed_by: me.id });

    const many = await clientWithWithdrawals(20, 400_000);
    const replies = await Promise.all(many.ids.map((id) => approve(me, many.client.id, id)));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    const posted = await postedBy(me, many.client.id);
    expect(posted.count).toBeLessThanOrEqual(2);
    expect(posted.cents).toBeLessThan(THRESHOLD_CENTS);
    expect(await countRows("proposals", "user_id = ?", many.client.id)).toBe(20 - posted.count);
  });

  it("count deposit and stock deposit approvals too: the third waits, saying why, and entries add to them", async () => {
    const me = await newAdmin();
    const client = await fundedClient(100);
    const deposit = (transactionType: "deposit" | "stock_deposit") =>
      insertTransaction(client.id, {
        transactionType,
        stock: transactionType === "stock_deposit" ? "AAPL" : null,
        amountCents: 400_000,
      });
    expect(await told(approve(me, client.id, await deposit("deposit")))).toContain("Transaction approved");
    expect(await told(approve(me, client.id, await deposit("stock_deposit")))).toContain("Transaction approved");
    const third = await deposit("deposit");
    expect(await told(approve(me, client.id, third))).toContain(
      `Awaiting second approval. ${approvalLimitMessage("perClient", 1_200_000, THRESHOLD_CENTS)}`,
    );
    expect(await countRows("transactions", "id = ? AND status = 'pending'", third)).toBe(1);
    expect((await proposalsFor(client.id))[0]).toMatchObject({ kind: "request_approval", proposed_by: me.id });
    // The two approvals count toward an entry as well.
    expect(await told(entry(me, client.id, "4000", "Wire"))).toContainEqual(
      expect.stringMatching(/^Awaiting second approval\. Would bring your approvals for this client today to /),
    );
  });
});

describe("approval limits per admin: what counts", () => {
  it("do not count another admin's acts toward mine", async () => {
    const me = await newAdmin();
    const client = await fundedClient(100);
    for (const _ of [1, 2]) await entry(other, client.id, "4000");
    expect(await told(entry(me, client.id, "4000"))).toContain("Deposit of $4,000.00 recorded");
    expect(await told(entry(me, client.id, "4000"))).toContain("Deposit of $4,000.00 recorded");
  });

  it("do not count acts older than 24 hours, nor an entry a second admin approved", async () => {
    const me = await newAdmin();
    const client = await fundedClient(100);
    const now = Date.now();
    const mine = {
      transactionType: "deposit" as const,
      status: "approved" as const,
      walletAddress: ADMIN_ENTRY_WALLET,
      amountCents: 900_000,
    };
    await insertTransaction(client.id, {
      ...mine,
      createdBy: me.id,
      decidedBy: me.id,
      decidedAt: now - ADMIN_SUM_WINDOW_MS - 1_000,
    });
    // My proposal, approved by another admin: it went through four eyes, so it counts for neither of us.
    await insertTransaction(client.id, { ...mine, createdBy: me.id, decidedBy: other.id, decidedAt: now - 1_000 });
    expect(await told(entry(me, client.id, "4000"))).toContain("Deposit of $4,000.00 recorded");
    // The same row an hour younger than the window would count: $9,000 + $4,000 reaches the threshold.
    const fresh = await fundedClient(100);
    await insertTransaction(fresh.id, { ...mine, createdBy: me.id, decidedBy: me.id, decidedAt: now - 3_600_000 });
    expect(await told(entry(me, fresh.id, "4000"))).toContain(
      `Awaiting second approval. ${approvalLimitMessage("perClient", 1_300_000, THRESHOLD_CENTS)}`,
    );
  });
});

describe("approval limits per admin: the daily limit across clients", () => {
  it("is five times the threshold unless set", () => {
    expect(appEnv.ADMIN_DAILY_LIMIT).toBe(appEnv.FOUR_EYES_THRESHOLD * 5);
  });

  it("turns the act that would go above it into a proposal, and holds in a parallel race", async () => {
    const me = await newAdmin();
    for (let i = 0; i < 5; i++) {
      const client = await fundedClient(100);
      expect(await told(entry(me, client.id, "9000"))).toContain("Deposit of $9,000.00 recorded");
    }
    const sixth = await fundedClient(100);
    const reply = await told(entry(me, sixth.id, "9000"));
    const limit = approvalLimitMessage("daily", 5_400_000, DAILY_CENTS);
    expect(limit).toBe("Would bring your approvals today to $54,000.00, above your daily limit of $50,000.00.");
    expect(reply).toContain(`Awaiting second approval. ${limit}`);

    const racer = await newAdmin();
    const clients = await Promise.all(Array.from({ length: 20 }, () => fundedClient(100)));
    const replies = await Promise.all(clients.map((client) => entry(racer, client.id, "9000")));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    const { results } = await env.DB.prepare(
      "SELECT count(*) AS n, coalesce(sum(amount_cents), 0) AS cents FROM transactions WHERE decided_by = ?",
    )
      .bind(racer.id)
      .all<{ n: number; cents: number }>();
    expect(results[0]?.n).toBeLessThanOrEqual(5);
    expect(results[0]?.cents).toBeLessThanOrEqual(DAILY_CENTS);
    expect(await countRows("proposals", "proposed_by = ?", racer.id)).toBe(20 - (results[0]?.n ?? 0));
  });
});
