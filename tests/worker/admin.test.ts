import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { ledgerBalance, totalsFromRows } from "~/lib/ledger";
import { PROPOSAL_MESSAGES } from "~/lib/proposals";
import { transactionReference } from "~/lib/reference";
import { ADMIN_MESSAGES, ENTRY_MESSAGES } from "~/lib/schemas/admin";
import { LEVEL_MONEY_MESSAGES } from "~/lib/verification-money";
import { decideTransaction } from "~/server/admin/decisions.server";
import { postLedgerEntry } from "~/server/admin/entries.server";
import {
  appEnv,
  cookieFrom,
  countRows,
  createUser,
  db,
  ensureDepositWallets,
  getPage,
  insertTransaction,
  postForm,
  sessionCookieFor,
  signedInAdmin,
  TEST_PASSWORD,
} from "../support/fixtures";
import {
  alerts,
  cardTitled,
  elementsHolding,
  elementsWith,
  elementTexts,
  heading,
  statuses,
  termValue,
  testIdText,
} from "../support/places";
import { rowCells } from "../support/tables";
import { markVerified } from "../support/verification-state";

let admin: { id: string; email: string; cookie: string };

beforeAll(async () => {
  await ensureDepositWallets();
  admin = await signedInAdmin();
});

const newKey = () => crypto.randomUUID();
const actor = () => ({ id: admin.id, email: admin.email });

async function auditCount(action?: string) {
  return action ? countRows("audit_log", "action = ?", action) : countRows("audit_log");
}

async function profileBalance(userId: string) {
  const row = await env.DB.prepare("SELECT balance_cents FROM profiles WHERE user_id = ?").bind(userId).first<{
    balance_cents: number;
  }>();
  return row?.balance_cents;
}

async function ledgerOf(userId: string) {
  const { results } = await env.DB.prepare(
    "SELECT transaction_type AS transactionType, status, amount_cents AS amountCents FROM transactions WHERE user_id = ?",
  )
    .bind(userId)
    .all<{ transactionType: never; status: never; amountCents: number }>();
  return ledgerBalance(totalsFromRows(results));
}

describe("page titles", () => {
  it("name the page, then the back office, in one style on every admin page", async () => {
    const admin = await signedInAdmin();
    const client = await createUser({ firstName: "Jane" });
    const titles: Array<[string, string]> = [
      ["/admin", "Admin Panel"],
      ["/admin/transactions", "Transactions · Admin Panel"],
      ["/admin/audit", "Audit Log · Admin Panel"],
      ["/admin/mail", "Mail · Admin Panel"],
      [`/user/${client.id}`, "Jane Tester · Admin Panel"],
    ];
    for (const [path, title] of titles) {
      const html = await (await getPage(path, admin.cookie)).text();
      expect(/<title>([^<]*)<\/title>/.exec(html)?.[1], path).toBe(`${title} | ${appEnv.BRAND_NAME}`);
    }
  });
});

describe("access", () => {
  const adminRoutes = ["/admin", "/admin/audit", "/user/some-id", "/user/some-id/export"];

  it.each(adminRoutes)("%s sends a visitor to sign in and a client to the dashboard", async (path) => {
    expect((await getPage(path)).headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
    const client = await createUser();
    expect((await getPage(path, await sessionCookieFor(client.id))).headers.get("Location")).toBe("/dashboard");
  });

  it("refuses every admin action to a client, writing nothing", async () => {
    const client = await createUser();
    const victim = await createUser();
    const pending = await insertTransaction(victim.id, { amountCents: 5_000 });
    const cookie = await sessionCookieFor(client.id);
    const before = { audit: await auditCount(), tx: await countRows("transactions") };
    const attempts: Array<[string, Record<string, string>]> = [
      [`/user/${victim.id}`, { intent: "approve", transactionId: String(pending) }],
      [`/user/${victim.id}`, { intent: "entry", type: "deposit", amount: "100", idempotencyKey: newKey() }],
      [`/user/${victim.id}`, { intent: "suspend" }],
      ["/admin", { intent: "delete", userId: victim.id }],
      ["/admin", { intent: "wallets", "wallet-1": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" }],
    ];
    for (const [path, fields] of attempts) {
      const response = await postForm(path, fields, { cookie });
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/dashboard");
    }
    expect({ audit: await auditCount(), tx: await countRows("transactions") }).toEqual(before);
    expect(await env.DB.prepare("SELECT status FROM transactions WHERE id = ?").bind(pending).first()).toEqual({
      status: "pending",
    });
  });

  it("shows 'User not found' with a 404 for an unknown client", async () => {
    const response = await getPage("/user/00000000-0000-4000-8000-00000000dead", admin.cookie);
    expect(response.status).toBe(404);
    expect(heading(await response.text())).toBe("User not found");
    expect((await getPage("/user", admin.cookie)).headers.get("Location")).toBe("/dashboard");
  });
});

describe("decisions", () => {
  it("show where each withdrawal pays out: the currency and the whole address", async () => {
    const client = await createUser();
    await markVerified(client.id);
    await insertTransaction(client.id, { status: "approved", amountCents: 50_000 });
    const address = "0x2222222222222222222222222222222222222222";
    const requested = await postForm(
      "/withdraw",
      { amount: "100", cryptoCurrency: "ETH", walletAddress: address, idempotencyKey: newKey() },
      { cookie: await sessionCookieFor(client.id) },
    );
    expect(requested.status).toBe(302);
    const html = await (await getPage(`/user/${client.id}`, admin.cookie)).text();
    expect(testIdText(html, "payout-address")).toBe(address);
    expect(elementTexts(html, "span")).toContain("Pays out in ETH to");
    // And on the desk's pending list, before the admin opens the client.
    const desk = await (await getPage("/admin", admin.cookie)).text();
    expect(desk).toContain(`data-testid="pending-payout-address">${address}<`);
  });

  it("approve a pending deposit once: the balance moves, one audit row", async () => {
    const client = await createUser();
    const id = await insertTransaction(client.id, { amountCents: 12_345 });
    const response = await postForm(
      `/user/${client.id}`,
      { intent: "approve", transactionId: String(id) },
      { cookie: admin.cookie },
    );
    expect(response.status).toBe(200);
    expect(statuses(await response.text())).toContain("Transaction approved");
    expect(await profileBalance(client.id)).toBe(12_345);
    expect(await countRows("audit_log", "target = ?", `transaction:${id}`)).toBe(1);

    const again = await postForm(
      `/user/${client.id}`,
      { intent: "reject", transactionId: String(id) },
      { cookie: admin.cookie },
    );
    expect(again.status).toBe(409);
    expect(alerts(await again.text())).toContain(ADMIN_MESSAGES.alreadyDecided);
    expect(await env.DB.prepare("SELECT status FROM transactions WHERE id = ?").bind(id).first()).toEqual({
      status: "approved",
    });
    expect(await countRows("audit_log", "target = ?", `transaction:${id}`)).toBe(1);
  });

  it("records a rejection with before and after, and the row stays out of the balance", async () => {
    const client = await createUser();
    const id = await insertTransaction(client.id, { amountCents: 500 });
    await postForm(`/user/${client.id}`, { intent: "reject", transactionId: String(id) }, { cookie: admin.cookie });
    const row = await env.DB.prepare("SELECT actor_id, detail FROM audit_log WHERE target = ?")
      .bind(`transaction:${id}`)
      .first<{ actor_id: string; detail: string }>();
    expect(row?.actor_id).toBe(admin.id);
    expect(JSON.parse(row?.detail ?? "{}")).toMatchObject({ before: "pending", after: "rejected", amountCents: 500 });
    expect(await profileBalance(client.id)).toBe(0);
  });

  it("let exactly one of 10 parallel approvals of a withdrawal through, with one audit row", async () => {
    const client = await createUser();
    await markVerified(client.id);
    await insertTransaction(client.id, { status: "approved", amountCents: 10_000 });
    const id = await insertTransaction(client.id, { transactionType: "withdraw", amountCents: 4_000 });
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        decideTransaction(db, actor(), id, "approved", { limits: appEnv, userId: client.id }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.error)).toEqual(
      Array(9).fill(ADMIN_MESSAGES.alreadyDecided),
    );
    expect(await countRows("audit_log", "target = ?", `transaction:${id}`)).toBe(1);
    expect(await profileBalance(client.id)).toBe(6_000);
  });

  it("let one of an approval and a rejection racing win", async () => {
    const client = await createUser();
    const id = await insertTransaction(client.id, { amountCents: 700 });
    const [approve, reject] = await Promise.all([
      decideTransaction(db, actor(), id, "approved", { limits: appEnv }),
      decideTransaction(db, actor(), id, "rejected", { limits: appEnv }),
    ]);
    expect([approve.ok, reject.ok].filter(Boolean)).toHaveLength(1);
    const { status } = (await env.DB.prepare("SELECT status FROM transactions WHERE id = ?")
      .bind(id)
      .first<{ status: string }>()) ?? {
      status: "",
    };
    expect(status).toBe(approve.ok ? "approved" : "rejected");
    expect(await countRows("audit_log", "target = ?", `transaction:${id}`)).toBe(1);
  });

  it("refuse to approve a withdrawal the client can no longer cover", async () => {
    const client = await createUser();
    await markVerified(client.id);
    await insertTransaction(client.id, { status: "approved", amountCents: 10_000 });
    const id = await insertTransaction(client.id, { transactionType: "withdraw", amountCents: 8_000 });
    // Since the request, a loss was posted.
    await postLedgerEntry(
      db,
      actor(),
      client.id,
      {
        type: "loss",
        amountCents: 5_000,
        tradingPair: "EUR/USD",
        idempotencyKey: newKey(),
      },
      appEnv,
    );
    const response = await postForm(
      `/user/${client.id}`,
      { intent: "approve", transactionId: String(id) },
      { cookie: admin.cookie },
    );
    expect(alerts(await response.text())).toContain(ADMIN_MESSAGES.cannotCoverWithdrawal);
    expect(await env.DB.prepare("SELECT status FROM transactions WHERE id = ?").bind(id).first()).toEqual({
      status: "pending",
    });
  });

  it("refuse a transaction id that belongs to another client", async () => {
    const client = await createUser();
    const other = await createUser();
    const id = await insertTransaction(other.id, { amountCents: 900 });
    const response = await postForm(
      `/user/${client.id}`,
      { intent: "approve", transactionId: String(id) },
      { cookie: admin.cookie },
    );
    expect(alerts(await response.text())).toContain(ADMIN_MESSAGES.transactionNotFound);
    expect(await env.DB.prepare("SELECT status FROM transactions WHERE id = ?").bind(id).first()).toEqual({
      status: "pending",
    });
  });
});

describe("ledger entries", () => {
  const entry = (userId: string, fields: Record<string, string>) =>
    postForm(`/user/${userId}`, { intent: "entry", idempotencyKey: newKey(), ...fields }, { cookie: admin.cookie });

  const refusals: Array<[string, Record<string, string>, string]> = [
    ["no amount", { type: "profit", amount: "" }, ENTRY_MESSAGES.invalidAmount],
    ["a negative amount", { type: "deposit", amount: "-3" }, ENTRY_MESSAGES.invalidAmount],
    ["a zero fee deposit", { type: "fee_deposit", amount: "0" }, ENTRY_MESSAGES.invalidAmount],
    ["an amount with a comma", { type: "deposit", amount: "1,50" }, ENTRY_MESSAGES.invalidAmount],
    ["a withdrawal below a $0 balance", { type: "withdraw", amount: "10" }, ENTRY_MESSAGES.wouldGoNegative],
    [
      "a loss below a $0 balance",
      { type: "loss", amount: "10", tradingPair: "BTC/USD" },
      ENTRY_MESSAGES.wouldGoNegative,
    ],
    ["profit without a pair", { type: "profit", amount: "10", tradingPair: "" }, ENTRY_MESSAGES.tradingPairRequired],
    [
      "loss with an unknown pair",
      { type: "loss", amount: "10", tradingPair: "FOO/BAR" },
      ENTRY_MESSAGES.tradingPairRequired,
    ],
    ["stock deposit without a stock", { type: "stock_deposit", amount: "10", stock: "" }, ENTRY_MESSAGES.stockRequired],
    ["an unknown type", { type: "bonus", amount: "10" }, ENTRY_MESSAGES.failed],
  ];

  it.each(refusals)("refuse %s with the product's message, writing nothing", async (_name, fields, message) => {
    const client = await createUser();
    // Verified, so that only the entry's own rule can refuse it.
    await markVerified(client.id);
    const before = { tx: await countRows("transactions", "user_id = ?", client.id), audit: await auditCount() };
    const response = await entry(client.id, fields);
    expect(response.status).toBe(400);
    expect(alerts(await response.text())).toContain(message);
    expect({ tx: await countRows("transactions", "user_id = ?", client.id), audit: await auditCount() }).toEqual(
      before,
    );
  });

  it("refuse a withdrawal entry on an unverified client's account, directly and as a proposal, writing nothing", async () => {
    const client = await createUser();
    await insertTransaction(client.id, { status: "approved", amountCents: 2_000_000 });
    const before = { tx: await countRows("transactions", "user_id = ?", client.id), audit: await auditCount() };
    const direct = await entry(client.id, { type: "withdraw", amount: "50" });
    expect(direct.status).toBe(400);
    expect(alerts(await direct.text())).toContain(LEVEL_MONEY_MESSAGES.entryNeedsVerifiedClient);
    // At or above the second-approval threshold it would be a proposal: refused before one is made.
    const proposed = await entry(client.id, { type: "withdraw", amount: "12000", reason: "Paid out by wire" });
    expect(alerts(await proposed.text())).toContain(LEVEL_MONEY_MESSAGES.entryNeedsVerifiedClient);
    expect(await countRows("proposals", "user_id = ?", client.id)).toBe(0);
    expect({ tx: await countRows("transactions", "user_id = ?", client.id), audit: await auditCount() }).toEqual(
      before,
    );
    // Money in is still recorded, and once verified the withdrawal is too.
    expect((await entry(client.id, { type: "deposit", amount: "10" })).status).toBe(200);
    await markVerified(client.id);
    expect((await entry(client.id, { type: "withdraw", amount: "50" })).status).toBe(200);
  });

  it("refuse a withdrawal or loss that would take the balance below zero, and allow one that reaches it", async () => {
    const client = await createUser();
    await markVerified(client.id);
    await insertTransaction(client.id, { status: "approved", amountCents: 1_000 });
    await insertTransaction(client.id, { status: "pending", amountCents: 50_000 });
    const refused = await entry(client.id, { type: "withdraw", amount: "10.01" });
    expect(alerts(await refused.text())).toContain(ENTRY_MESSAGES.wouldGoNegative);
    const allowed = await entry(client.id, { type: "loss", amount: "10.00", tradingPair: "BTC/USD" });
    expect(statuses(await allowed.text())).toContain("Loss of $10.00 recorded");
    expect(await ledgerOf(client.id)).toBe(0);
  });

  it("let a credit through on a balance that is already below zero", async () => {
    const client = await createUser();
    // A ledger that went below zero before the rule existed.
    await insertTransaction(client.id, { status: "approved", amountCents: 5_000, transactionType: "withdraw" });
    const response = await entry(client.id, { type: "deposit", amount: "10.00" });
    expect(statuses(await response.text())).toContain("Deposit of $10.00 recorded");
    expect(await ledgerOf(client.id)).toBe(-4_000);
  });

  it("refuse entries on admin accounts, one's own included, writing nothing", async () => {
    const other = await createUser({ role: "admin" });
    for (const target of [other.id, admin.id]) {
      const before = { tx: await countRows("transactions", "user_id = ?", target), audit: await auditCount() };
      const response = await entry(target, { type: "deposit", amount: "100" });
      expect(response.status).toBe(400);
      expect(alerts(await response.text())).toContain(ENTRY_MESSAGES.clientsOnly);
      expect({ tx: await countRows("transactions", "user_id = ?", target), audit: await auditCount() }).toEqual(before);
    }
  });

  it("insert an approved profit with its pair, balance after, fixed wallet, projection and audit row", async () => {
    const client = await createUser();
    await insertTransaction(client.id, { status: "approved", amountCents: 20_000 });
    const response = await entry(client.id, {
      type: "profit",
      amount: "150.25",
      tradingPair: "EUR/USD",
      stock: "AAPL",
    });
    expect(statuses(await response.text())).toContain("Profit of $150.25 recorded");
    const row = await env.DB.prepare("SELECT * FROM transactions WHERE user_id = ? AND transaction_type = 'profit'")
      .bind(client.id)
      .first<Record<string, unknown>>();
    expect(row).toMatchObject({
      status: "approved",
      amount_cents: 15_025,
      balance_after_cents: 35_025,
      trading_pair: "EUR/USD",
      stock: null,
      wallet_address: "admin-ledger-entry",
      created_by: admin.id,
    });
    expect(await profileBalance(client.id)).toBe(35_025);
    expect(await countRows("audit_log", "action = 'ledger.entry' AND target = ?", `transaction:${row?.id}`)).toBe(1);
    const profile = await env.DB.prepare("SELECT total_trades, win_rate FROM profiles WHERE user_id = ?")
      .bind(client.id)
      .first();
    expect(profile).toEqual({ total_trades: 1, win_rate: 100 });
  });

  it("store the stock of a stock deposit, and one entry for a form submitted twice", async () => {
    const client = await createUser();
    const idempotencyKey = newKey();
    const fields = {
      intent: "entry",
      type: "stock_deposit",
      amount: "300",
      stock: "aapl",
      tradingPair: "EUR/USD",
      idempotencyKey,
    };
    await Promise.all([
      postForm(`/user/${client.id}`, fields, { cookie: admin.cookie }),
      postForm(`/user/${client.id}`, fields, { cookie: admin.cookie }),
    ]);
    const { results } = await env.DB.prepare("SELECT stock, trading_pair FROM transactions WHERE user_id = ?")
      .bind(client.id)
      .all();
    expect(results).toEqual([{ stock: "AAPL", trading_pair: null }]);
    expect(await countRows("audit_log", "action = 'ledger.entry' AND detail LIKE ?", `%${client.id}%`)).toBe(1);
  });

  it("keep the profile balance equal to the ledger after any sequence of operations", async () => {
    const operation = fc.oneof(
      fc.record({
        kind: fc.constant("entry" as const),
        type: fc.constantFrom("deposit", "stock_deposit", "fee_deposit", "withdraw", "profit", "loss" as const),
        cents: fc.integer({ min: 1, max: 500_000 }),
      }),
      fc.record({
        kind: fc.constant("request" as const),
        type: fc.constantFrom("deposit", "withdraw" as const),
        cents: fc.integer({ min: 1, max: 500_000 }),
      }),
      fc.record({ kind: fc.constant("decide" as const), pick: fc.nat(), approve: fc.boolean() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 25 }), async (operations) => {
        const client = await createUser();
        const pendingIds: number[] = [];
        for (const op of operations) {
          if (op.kind === "entry") {
            await postLedgerEntry(
              db,
              actor(),
              client.id,
              {
                type: op.type,
                amountCents: op.cents,
                tradingPair: op.type === "profit" || op.type === "loss" ? "BTC/USD" : undefined,
                stock: op.type === "stock_deposit" ? "TSLA" : undefined,
                idempotencyKey: newKey(),
              },
              appEnv,
            );
          } else if (op.kind === "request") {
            pendingIds.push(await insertTransaction(client.id, { transactionType: op.type, amountCents: op.cents }));
          } else if (pendingIds.length > 0) {
            const id = pendingIds.splice(op.pick % pendingIds.length, 1)[0] ?? 0;
            await decideTransaction(db, actor(), id, op.approve ? "approved" : "rejected", { limits: appEnv });
          }
        }
        expect(await profileBalance(client.id)).toBe(await ledgerOf(client.id));
      }),
      { numRuns: 15 },
    );
  });
});

describe("suspension", () => {
  it("suspends (ending the client's sessions) and activates, each audited", async () => {
    const client = await createUser();
    const clientCookie = await sessionCookieFor(client.id);
    const suspend = await postForm(`/user/${client.id}`, { intent: "suspend" }, { cookie: admin.cookie });
    expect(cardTitled(await suspend.text(), "Actions")).toContain("Activate User");
    expect(await env.DB.prepare("SELECT status FROM profiles WHERE user_id = ?").bind(client.id).first()).toEqual({
      status: "suspended",
    });
    expect(await countRows("sessions", "user_id = ?", client.id)).toBe(0);
    expect((await getPage("/dashboard", clientCookie)).headers.get("Location")).toBe("/");

    // Suspended clients can still sign in and look (docs/product.md, "Roles").
    const signIn = await postForm("/login", { email: client.email, password: TEST_PASSWORD });
    const dashboard = await (await getPage("/dashboard", cookieFrom(signIn))).text();
    expect(termValue(dashboard, "Account status")).toBe("suspended");

    const activate = await postForm(`/user/${client.id}`, { intent: "activate" }, { cookie: admin.cookie });
    expect(cardTitled(await activate.text(), "Actions")).toContain("Suspend User");
    expect(
      await countRows(
        "audit_log",
        "target = ? AND action IN ('client.suspend', 'client.activate')",
        `user:${client.id}`,
      ),
    ).toBe(2);
  });

  it("writes one audit row when the same suspension is sent twice", async () => {
    const client = await createUser();
    await Promise.all([
      postForm(`/user/${client.id}`, { intent: "suspend" }, { cookie: admin.cookie }),
      postForm(`/user/${client.id}`, { intent: "suspend" }, { cookie: admin.cookie }),
    ]);
    expect(await countRows("audit_log", "target = ? AND action = 'client.suspend'", `user:${client.id}`)).toBe(1);
  });

  it("of an admin is refused and signs nobody out: one admin cannot end another's (or their own) sessions", async () => {
    const other = await signedInAdmin();
    await sessionCookieFor(other.id);
    for (const target of [other.id, admin.id]) {
      const sessions = await countRows("sessions", "user_id = ?", target);
      const refused = await postForm(`/user/${target}`, { intent: "suspend" }, { cookie: admin.cookie });
      expect(refused.status).toBe(400);
      expect(alerts(await refused.text())).toContain("Failed to suspend user: Admins cannot be suspended");
      expect(await countRows("sessions", "user_id = ?", target)).toBe(sessions);
      expect(await countRows("audit_log", "target = ?", `user:${target}`)).toBe(0);
    }
    expect((await getPage("/admin", other.cookie)).status).toBe(200);
  });
});

describe("deleting a client's data", () => {
  it("archives, then removes, ends sessions, audits, and a later sign-in starts a fresh profile", async () => {
    const client = await createUser();
    const clientCookie = await sessionCookieFor(client.id);
    const ids = [
      await insertTransaction(client.id, { status: "approved", amountCents: 4_000, memo: "Opening bonus" }),
      await insertTransaction(client.id, { amountCents: 1_000 }),
    ];
    const response = await postForm("/admin", { intent: "delete", userId: client.id }, { cookie: admin.cookie });
    expect(statuses(await response.text())).toContain(ADMIN_MESSAGES.deleted);
    expect(await countRows("transactions", "user_id = ?", client.id)).toBe(0);
    expect(await countRows("profiles", "user_id = ?", client.id)).toBe(0);
    expect(await countRows("transactions_archive", `id IN (${ids.join(",")})`)).toBe(2);
    // The archive keeps what the client was told: an entry's reason too.
    expect(await countRows("transactions_archive", "id = ? AND memo = 'Opening bonus'", ids[0])).toBe(1);
    expect(await countRows("profiles_archive", "user_id = ?", client.id)).toBe(1);
    expect(await countRows("sessions", "user_id = ?", client.id)).toBe(0);
    expect((await getPage("/dashboard", clientCookie)).headers.get("Location")).toBe("/");
    // Until the client signs in again there is no profile to show.
    const page = await getPage(`/user/${client.id}`, admin.cookie);
    expect(page.status).toBe(404);
    expect(heading(await page.text())).toBe("User not found");
    const auditRow = await env.DB.prepare("SELECT detail FROM audit_log WHERE action = 'client.delete' AND target = ?")
      .bind(`user:${client.id}`)
      .first<{ detail: string }>();
    expect(JSON.parse(auditRow?.detail ?? "{}")).toMatchObject({ transactions: 2, email: client.email });

    const signIn = await postForm("/login", { email: client.email, password: TEST_PASSWORD });
    expect(signIn.status).toBe(302);
    // The new profile is made from what the client registered with, and greets them as new.
    const dashboard = await (await getPage("/dashboard", cookieFrom(signIn))).text();
    expect(testIdText(dashboard, "greeting")).toBe("Welcome, Pat");
    expect(
      await env.DB.prepare("SELECT first_name, last_name FROM profiles WHERE user_id = ?").bind(client.id).first(),
    ).toEqual({ first_name: "Pat", last_name: "Tester" });
    expect(
      await env.DB.prepare("SELECT balance_cents, status FROM profiles WHERE user_id = ?").bind(client.id).first(),
    ).toEqual({
      balance_cents: 0,
      status: "active",
    });
  });

  it("takes the client off the desk's list and its count together", async () => {
    const kept = await createUser();
    const deleted = await createUser();
    await postForm("/admin", { intent: "delete", userId: deleted.id }, { cookie: admin.cookie });
    const html = await (await getPage("/admin", admin.cookie)).text();
    const total = Number(/data-testid="total-users">(\d+)</.exec(html)?.[1]);
    const listed = new Set(html.match(/href="\/user\/[0-9a-f-]{36}"/g)).size;
    expect(elementsWith(html, "href", `/user/${kept.id}`)).not.toEqual([]);
    expect(elementsWith(html, "href", `/user/${deleted.id}`)).toEqual([]);
    expect(total).toBe(await countRows("profiles", "role = 'user'"));
    expect(listed).toBeLessThanOrEqual(total);
  });

  it("refuses to delete an admin", async () => {
    const other = await createUser({ role: "admin" });
    const response = await postForm("/admin", { intent: "delete", userId: other.id }, { cookie: admin.cookie });
    expect(response.status).toBe(400);
    expect(await countRows("profiles", "user_id = ?", other.id)).toBe(1);
  });
});

describe("deposit wallets", () => {
  const walletsForm = async (changes: Record<string, string>, rendered?: Record<string, string>) => {
    const wallets = await env.DB.prepare(
      "SELECT id, wallet_type, wallet_address FROM deposit_wallets ORDER BY id",
    ).all<{
      id: number;
      wallet_type: string;
      wallet_address: string;
    }>();
    const fields: Record<string, string> = { intent: "wallets" };
    for (const w of wallets.results) {
      fields[`wallet-${w.id}`] = changes[w.wallet_type] ?? w.wallet_address;
      // As the modal sends it: the address it showed.
      fields[`was-${w.id}`] = rendered?.[w.wallet_type] ?? w.wallet_address;
    }
    return postForm("/admin", fields, { cookie: admin.cookie });
  };
  // Every wallet change waits for a second admin: the other admin approves what waits, as from /admin.
  const approveWaitingWallets = async () => {
    const checker = await createUser({ role: "admin" });
    const cookie = await sessionCookieFor(checker.id);
    const waiting = await env.DB.prepare(
      "SELECT id FROM proposals WHERE kind = 'wallet_change' AND status = 'pending' ORDER BY id",
    ).all<{ id: number }>();
    for (const { id } of waiting.results) {
      const response = await postForm("/admin", { intent: "approveProposal", proposalId: String(id) }, { cookie });
      expect(statuses(await response.text())).toContain(PROPOSAL_MESSAGES.approved);
    }
    return waiting.results.length;
  };

  it("refuses a save from a form rendered before another admin's save, and keeps theirs", async () => {
    const shown = await env.DB.prepare("SELECT wallet_type, wallet_address FROM deposit_wallets ORDER BY id").all<{
      wallet_type: string;
      wallet_address: string;
    }>();
    const rendered = Object.fromEntries(shown.results.map((w) => [w.wallet_type, w.wallet_address]));
    const [first] = shown.results;
    if (!first) throw new Error("no wallets");
    const theirs =
      first.wallet_type === "BTC" ? "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy" : "0x4444444444444444444444444444444444444444";
    const ours =
      first.wallet_type === "BTC" ? "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2" : "0x5555555555555555555555555555555555555555";
    const audits = await auditCount("wallet.update");
    const mails = await countRows("email_outbox", "template = 'deposit_wallet_changed'");

    expect(statuses(await (await walletsForm({ [first.wallet_type]: theirs }, rendered)).text())).toContain(
      PROPOSAL_MESSAGES.awaiting,
    );
    expect(await approveWaitingWallets()).toBe(1);
    const stale = await walletsForm({ [first.wallet_type]: ours }, rendered);
    expect(stale.status).toBe(400);
    expect(alerts(await stale.text())).toContain(ADMIN_MESSAGES.walletChangedMeanwhile);
    const stored = await env.DB.prepare("SELECT wallet_address FROM deposit_wallets WHERE wallet_type = ?")
      .bind(first.wallet_type)
      .first();
    expect(stored).toEqual({ wallet_address: theirs });
    expect(await auditCount("wallet.update")).toBe(audits + 1);
    const admins = await countRows("users", "role = 'admin'");
    expect(await countRows("email_outbox", "template = 'deposit_wallet_changed'")).toBe(mails + admins);
  });

  it("says 'No changes to save' when nothing changed", async () => {
    const before = await auditCount("wallet.update");
    expect(alerts(await (await walletsForm({})).text())).toContain(ADMIN_MESSAGES.noWalletChanges);
    expect(await auditCount("wallet.update")).toBe(before);
  });

  it("refuses a malformed address and saves nothing", async () => {
    const before = await env.DB.prepare("SELECT wallet_address FROM deposit_wallets ORDER BY id").all();
    const response = await walletsForm({
      BTC: "bc1-not-a-real-address",
      ETH: "0x2222222222222222222222222222222222222222",
    });
    expect(response.status).toBe(400);
    expect(alerts(await response.text())).toContain("Please enter a valid BTC wallet address");
    expect((await env.DB.prepare("SELECT wallet_address FROM deposit_wallets ORDER BY id").all()).results).toEqual(
      before.results,
    );
  });

  it("saves two changes, audits each and tells every admin", async () => {
    const outboxBefore = await countRows("email_outbox", "template = 'deposit_wallet_changed'");
    const response = await walletsForm({
      BTC: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
      ETH: "0x3333333333333333333333333333333333333333",
    });
    expect(statuses(await response.text())).toContain(PROPOSAL_MESSAGES.awaiting);
    // Nothing changes until a second admin approves each change.
    expect(await countRows("deposit_wallets", "wallet_address = ?", "0x3333333333333333333333333333333333333333")).toBe(
      0,
    );
    expect(await approveWaitingWallets()).toBe(2);
    expect((await env.DB.prepare("SELECT wallet_address FROM deposit_wallets ORDER BY id").all()).results).toEqual([
      { wallet_address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" },
      { wallet_address: "0x3333333333333333333333333333333333333333" },
    ]);
    expect(
      await countRows(
        "audit_log",
        "action = 'wallet.update' AND detail LIKE ?",
        "%bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq%",
      ),
    ).toBe(1);
    const admins = await countRows("users", "role = 'admin'");
    expect(await countRows("email_outbox", "template = 'deposit_wallet_changed'")).toBe(outboxBefore + 2 * admins);
    // Each change is mailed to every admin's own address, not to a shared mailbox.
    const recipients = await env.DB.prepare(
      `SELECT to_address FROM email_outbox WHERE template = 'deposit_wallet_changed' AND payload LIKE ?
       ORDER BY to_address`,
    )
      .bind("%0x3333333333333333333333333333333333333333%")
      .all<{ to_address: string }>();
    const adminEmails = await env.DB.prepare("SELECT email FROM users WHERE role = 'admin' ORDER BY email").all<{
      email: string;
    }>();
    expect(recipients.results.map((row) => row.to_address)).toEqual(adminEmails.results.map((row) => row.email));
  });
});

describe("admin desk and statement", () => {
  it("sends the client page's rows without the columns it does not show, and still shows each reference", async () => {
    const client = await createUser();
    const depositAddress = "0xfeedfeedfeedfeedfeedfeedfeedfeedfeedfeed";
    const id = await insertTransaction(client.id, { amountCents: 4_321, walletAddress: depositAddress });
    // The loader's data as React Router sends it beside the HTML (single fetch): the row is there, its unused columns not.
    const data = await (await getPage(`/user/${client.id}.data`, admin.cookie)).text();
    expect(data).toContain("4321");
    expect(data).not.toContain(depositAddress);
    expect(data).not.toContain('"walletAddress"');
    expect(data).not.toContain('"reference"');
    const html = await (await getPage(`/user/${client.id}`, admin.cookie)).text();
    expect(rowCells(html, transactionReference(id))).toContainEqual(expect.stringContaining(transactionReference(id)));
    // The column the page does not show is not sent at all: the address is nowhere in the page, its data included.
    expect(html).not.toContain(depositAddress);
  });

  it("counts clients and pending requests by SQL and lists pending requests by client", async () => {
    const client = await createUser({ firstName: "Pending" });
    // Waiting longer than anyone else, so the client is on the desk's short list whatever other tests left pending.
    await insertTransaction(client.id, { amountCents: 1_111, createdAt: 1_000 });
    await insertTransaction(client.id, { amountCents: 2_222, transactionType: "withdraw", createdAt: 1_001 });
    const html = await (await getPage("/admin", admin.cookie)).text();
    const clients = await countRows("profiles", "role = 'user'");
    const pending = await countRows("transactions", "status = 'pending'");
    expect(testIdText(html, "total-users")).toBe(String(clients));
    expect(testIdText(html, "pending-requests")).toBe(String(pending));
    // Requests waiting for a decision are named so, apart from the monitoring alerts' own card.
    expect(cardTitled(html, "Pending requests")).toBe(`Pending requests ${pending}`);
    expect(cardTitled(html, "Active Alerts")).toBeNull();
    // The client's own line; money in and money out apart, never added together.
    const [line] = elementsHolding(html, "li", `href="/user/${client.id}"`);
    expect(line).toMatch(/^Pending Tester2 pending · in \$11\.11 · out \$22\.22 · since /);
  });

  it("finds clients by name or e-mail", async () => {
    const client = await createUser({ firstName: "Zebulon" });
    const byName = await (await getPage("/admin?q=zebul", admin.cookie)).text();
    expect(byName).toContain(`href="/user/${client.id}"`);
    const byEmail = await (
      await getPage(`/admin?q=${encodeURIComponent(client.email.slice(0, 12))}`, admin.cookie)
    ).text();
    expect(byEmail).toContain(`href="/user/${client.id}"`);
    const none = await (await getPage("/admin?q=nobody-matches-this", admin.cookie)).text();
    expect(none).toContain("No clients found.");
  });

  it("exports the statement with a running balance that only approved rows move", async () => {
    const client = await createUser();
    await insertTransaction(client.id, { status: "approved", amountCents: 10_000, createdAt: 1_000 });
    await insertTransaction(client.id, { status: "rejected", amountCents: 99_999, createdAt: 2_000 });
    await insertTransaction(client.id, {
      status: "approved",
      transactionType: "withdraw",
      amountCents: 2_500,
      createdAt: 3_000,
    });
    await insertTransaction(client.id, { status: "pending", amountCents: 700, createdAt: 4_000 });
    const response = await getPage(`/user/${client.id}/export`, admin.cookie);
    expect(response.headers.get("Content-Type")).toContain("text/csv");
    const lines = (await response.text()).trim().split("\r\n");
    expect(lines[0]).toBe(
      "id,date,type,status,direction,amount,trading_pair,stock,wallet_address,withdrawal_address,balance",
    );
    expect(
      lines.slice(1).map((line) =>
        line
          .split(",")
          .slice(2, 6)
          .concat(line.split(",").at(-1) ?? ""),
      ),
    ).toEqual([
      ["Deposit", "approved", "in", "100.00", "100.00"],
      ["Deposit", "rejected", "in", "999.99", "100.00"],
      ["Withdrawal", "approved", "out", "25.00", "75.00"],
      ["Deposit", "pending", "in", "7.00", "75.00"],
    ]);
  });

  it("leaves the wallet column empty for a desk entry, which used no address", async () => {
    // An admin of its own, as below: the shared admin's daily approval limit may be spent by earlier tests' random
    // amounts, and the entry would then be a proposal, which needs a reason.
    const admin = await signedInAdmin();
    const client = await createUser();
    const posted = await postForm(
      `/user/${client.id}`,
      { intent: "entry", type: "deposit", amount: "40", idempotencyKey: newKey() },
      { cookie: admin.cookie },
    );
    expect(posted.status).toBe(200);
    const response = await getPage(`/user/${client.id}/export`, admin.cookie);
    const text = await response.text();
    expect(text).not.toContain("admin-ledger-entry");
    const [, row] = text.trim().split("\r\n");
    const cells = (row ?? "").split(",");
    expect(cells.slice(2, 6)).toEqual(["Deposit", "approved", "in", "40.00"]);
    expect(cells.at(-3)).toBe(""); // wallet_address
    expect(cells.at(-1)).toBe("40.00");
  });

  it("shows every mutation in the audit log, filterable by action and client", async () => {
    // An admin of its own: the file's shared admin may have spent their daily approval limit on earlier tests'
    // random amounts, and this approval would then wait for a second admin instead.
    const admin = await signedInAdmin();
    const client = await createUser();
    const id = await insertTransaction(client.id, { amountCents: 4_321 });
    await postForm(`/user/${client.id}`, { intent: "approve", transactionId: String(id) }, { cookie: admin.cookie });
    const html = await (
      await getPage(`/admin/audit?action=transaction.approve&client=${client.id}`, admin.cookie)
    ).text();
    // The target by its reference, as everywhere else.
    expect(rowCells(html, `>${transactionReference(id)}</td>`)).toContain(transactionReference(id));
    expect(rowCells(html, `>${transactionReference(id)}</td>`)).toContainEqual(expect.stringContaining(admin.email));
    const other = await (await getPage(`/admin/audit?action=client.suspend&client=${client.id}`, admin.cookie)).text();
    expect(elementTexts(other, "p")).toContain("No entries.");
  });
});
