import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { auditFacts, auditTarget, factsText } from "~/lib/audit-details";
import { transactionReference } from "~/lib/reference";
import {
  createUser,
  ensureDepositWallets,
  getPage,
  insertTransaction,
  postForm,
  sessionCookieFor,
  signedInAdmin,
} from "../support/fixtures";
import { fieldLabel, linkHref } from "../support/places";
import { csvRecords, csvRows, rowCells } from "../support/tables";

const JANE = { name: "Jane Doe", email: "jane@example.com" };
const EXPIRES = 1_795_870_018_761;

/**
 * What each action stores (the code's own audit inserts), and how a person reads it: names for ids, dollars for
 * cents, UTC moments for epoch milliseconds, words for keys.
 */
const KINDS: Array<[string, { target: string; detail: Record<string, unknown> }, string]> = [
  [
    "ledger.entry",
    {
      target: "transaction:42",
      detail: {
        by: "ops@firm.example",
        client: "u-1",
        type: "deposit",
        amountCents: 100_000,
        tradingPair: null,
        stock: null,
        balanceAfterCents: 2_742_525,
      },
    },
    "Client: Jane Doe (jane@example.com) · Type: Deposit · Amount: $1,000.00 · Balance after: $27,425.25",
  ],
  [
    "ledger.entry",
    {
      target: "transaction:43",
      detail: {
        client: "u-1",
        type: "fee_deposit",
        amountCents: 2_500,
        tradingPair: null,
        stock: null,
        balanceAfterCents: 2_745_025,
        memo: "Wire fee refund",
      },
    },
    "Client: Jane Doe (jane@example.com) · Type: Fee deposit · Amount: $25.00 · Balance after: $27,450.25 · Reason: Wire fee refund",
  ],
  [
    "transaction.approve",
    {
      target: "transaction:42",
      detail: {
        by: "ops@firm.example",
        client: "u-1",
        type: "withdraw",
        amountCents: 5_000,
        before: "pending",
        after: "approved",
        proposal: 7,
      },
    },
    "Client: Jane Doe (jane@example.com) · Type: Withdrawal · Amount: $50.00 · Status: Pending → Approved · Proposal: #7",
  ],
  [
    "transaction.reject",
    {
      target: "transaction:42",
      detail: {
        client: "u-1",
        type: "stock_deposit",
        amountCents: 64_000,
        before: "pending",
        after: "rejected",
        reason: "No funds arrived",
      },
    },
    "Client: Jane Doe (jane@example.com) · Type: Stock deposit · Amount: $640.00 · Status: Pending → Rejected · Reason: No funds arrived",
  ],
  [
    "transaction.cancel",
    {
      target: "transaction:42",
      detail: {
        client: "u-1",
        type: "withdraw",
        amountCents: 1_250,
        before: "pending",
        after: "cancelled",
        via: "link",
      },
    },
    "Client: Jane Doe (jane@example.com) · Type: Withdrawal · Amount: $12.50 · Status: Pending → Cancelled · Via: E-mail link",
  ],
  [
    "client.suspend",
    { target: "user:u-1", detail: { before: "active", after: "suspended" } },
    "Status: Active → Suspended",
  ],
  [
    "client.delete",
    { target: "user:u-1", detail: { transactions: 3, balanceCents: 12_345, email: "jane@example.com" } },
    "Transactions: 3 · Balance: $123.45 · E-mail: jane@example.com",
  ],
  [
    "wallet.update",
    {
      target: "wallet:2",
      detail: { walletType: "BTC", before: "bc1qold", after: "bc1qnew", proposal: 4, proposedBy: "a@firm.example" },
    },
    "Wallet: BTC · Address: bc1qold → bc1qnew · Proposal: #4 · Proposed by: a@firm.example",
  ],
  [
    "email.resend",
    {
      target: "email:9",
      detail: { template: "welcome", to: "x@example.com", attempts: 30, lastError: "503: down", failedAt: EXPIRES },
    },
    "Template: welcome · Recipient: x@example.com · Attempts: 30 · Last error: 503: down · Failed: Nov 28, 2026, 12:46 PM UTC",
  ],
  [
    "proposal.propose",
    {
      target: "proposal:5",
      detail: {
        kind: "ledger_entry",
        client: "u-1",
        type: "loss",
        amountCents: 2_000_000,
        transaction: null,
        wallet: null,
        before: null,
        after: null,
        reason: "Wire",
        expiresAt: EXPIRES,
      },
    },
    "Kind: Ledger entry · Client: Jane Doe (jane@example.com) · Type: Loss · Amount: $20,000.00 · Reason: Wire · Expires: Nov 28, 2026, 12:46 PM UTC",
  ],
  [
    "proposal.propose",
    {
      target: "proposal:6",
      detail: {
        kind: "wallet_change",
        wallet: 2,
        before: "0xold",
        after: "0xnew",
        reason: "Rotation",
        expiresAt: EXPIRES,
      },
    },
    "Kind: Wallet change · Wallet: ETH · Address: 0xold → 0xnew · Reason: Rotation · Expires: Nov 28, 2026, 12:46 PM UTC",
  ],
  [
    "proposal.approve",
    {
      target: "proposal:5",
      detail: {
        kind: "request_approval",
        proposedBy: "a@firm.example",
        client: "u-1",
        transaction: 42,
        wallet: null,
        reason: null,
      },
    },
    `Kind: Request approval · Proposed by: a@firm.example · Client: Jane Doe (jane@example.com) · Transaction: ${transactionReference(42)}`,
  ],
  [
    "proposal.expire",
    { target: "proposal:5", detail: { kind: "ledger_entry", proposedBy: "a@firm.example", expiresAt: EXPIRES } },
    "Kind: Ledger entry · Proposed by: a@firm.example · Expires: Nov 28, 2026, 12:46 PM UTC",
  ],
  [
    "admin.create",
    { target: "user:u-9", detail: { email: "new@firm.example", passwordChanged: true } },
    "E-mail: new@firm.example · Password set: Yes",
  ],
];

describe("the audit log's details, as people read them", () => {
  it.each(KINDS)("%s", (action, { target, detail }, expected) => {
    const text = factsText(auditFacts({ action, target, detail }, { person: JANE, walletType: "ETH" }));
    expect(text).toBe(expected);
  });

  it("names targets: a reference, a person, a wallet, a notice, a proposal", () => {
    expect(auditTarget("transaction:42")).toBe(transactionReference(42));
    expect(auditTarget("user:u-1", { person: JANE })).toBe("Jane Doe (jane@example.com)");
    expect(auditTarget("user:u-1", { person: { name: null, email: "jane@example.com" } })).toBe("jane@example.com");
    expect(auditTarget("wallet:2", { walletType: "BTC" })).toBe("BTC wallet");
    expect(auditTarget("email:9")).toBe("Notice #9");
    expect(auditTarget("proposal:5")).toBe("Proposal #5");
  });

  it("reads an unknown key by its words and its suffix, and leaves out the acting admin and empty values", () => {
    const facts = auditFacts({
      action: "x",
      target: null,
      detail: { by: "a@b", refundCents: 250, settledAt: EXPIRES, note: null, itemCount: 2 },
    });
    expect(factsText(facts)).toBe("Refund cents: $2.50 · Settled at: Nov 28, 2026, 12:46 PM UTC · Item count: 2");
  });
});

let admin: Awaited<ReturnType<typeof signedInAdmin>>;

beforeAll(async () => {
  await ensureDepositWallets();
  admin = await signedInAdmin();
});

describe("/admin/audit", () => {
  it("shows a ledger entry with the client's name, dollars and the reference, not ids and cents", async () => {
    const client = await createUser({ firstName: "Lena", email: "lena.audit@example.com" });
    await insertTransaction(client.id, { status: "approved", amountCents: 2_642_525 });
    const posted = await postForm(
      `/user/${client.id}`,
      { intent: "entry", type: "deposit", amount: "1000", idempotencyKey: crypto.randomUUID() },
      { cookie: admin.cookie },
    );
    expect(posted.status).toBe(200);
    const html = await (await getPage(`/admin/audit?action=ledger.entry&client=${client.id}`, admin.cookie)).text();
    const cells = rowCells(html, "ledger.entry") ?? [];
    expect(cells[0]).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M UTC$/);
    expect(cells[1]).toBe(`Admin · ${admin.email}`);
    expect(cells[3]).toMatch(/^TX-\w{6}$/);
    expect(cells[4]).toBe(
      "Client: Lena Tester (lena.audit@example.com) · Type: Deposit · Amount: $1,000.00 · Balance after: $27,425.25",
    );
    // The entry's raw detail is not sent: its keys are nowhere in the page, its data included.
    expect(html).not.toContain("amountCents");
  });

  it("filters by a range of UTC days, names a bad date, and links the CSV with the view's filters", async () => {
    const client = await createUser();
    for (const day of [1, 2, 3]) {
      await env.DB.prepare(
        "INSERT INTO audit_log (actor_id, action, target, detail, created_at) VALUES (?, 'client.suspend', ?, '{}', ?)",
      )
        .bind(admin.id, `user:${client.id}`, Date.UTC(2026, 0, day, 12))
        .run();
    }
    const page = await (
      await getPage(`/admin/audit?client=${client.id}&from=2026-01-02&to=2026-01-02`, admin.cookie)
    ).text();
    expect(page.match(/client\.suspend<\/td>/g)).toHaveLength(1);
    expect(page).toContain(`href="/admin/audit.csv?client=${client.id}&amp;from=2026-01-02&amp;to=2026-01-02"`);
    const bad = await (await getPage(`/admin/audit?client=${client.id}&from=2026-02-30`, admin.cookie)).text();
    expect(bad).toContain("&quot;2026-02-30&quot; is not a date: use YYYY-MM-DD, e.g. 2026-01-31.");
  });
});

describe("/admin/audit.csv", () => {
  let client: { id: string; email: string };
  const at = (day: number, minute = 0) => Date.UTC(2026, 4, day, 9, minute);

  beforeAll(async () => {
    client = await createUser({ firstName: "Csv", email: "csv.audit@example.com" });
    const insert = env.DB.prepare(
      "INSERT INTO audit_log (actor_id, action, target, detail, created_at) VALUES (?, ?, ?, ?, ?)",
    );
    await env.DB.batch([
      insert.bind(
        admin.id,
        "client.suspend",
        `user:${client.id}`,
        JSON.stringify({ by: admin.email, before: "active", after: "suspended" }),
        at(1),
      ),
      insert.bind(
        admin.id,
        "ledger.entry",
        "transaction:77",
        JSON.stringify({
          by: admin.email,
          client: client.id,
          type: "profit",
          amountCents: 1_050,
          tradingPair: "EUR/USD",
          balanceAfterCents: 1_050,
        }),
        at(2),
      ),
      insert.bind(
        "cron",
        "proposal.expire",
        '=HYPERLINK("x")',
        JSON.stringify({ client: client.id, kind: "ledger_entry", expiresAt: at(3) }),
        at(3),
      ),
      insert.bind(
        admin.id,
        "client.activate",
        `user:${client.id}`,
        JSON.stringify({ before: "suspended", after: "active" }),
        at(4),
      ),
    ]);
  });

  it("exports the entries of a range of UTC days, newest first, as the page reads them and as stored", async () => {
    const response = await getPage(`/admin/audit.csv?client=${client.id}&from=2026-05-02&to=2026-05-03`, admin.cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe(
      'attachment; filename="audit-log-2026-05-02-to-2026-05-03.csv"',
    );
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const text = await response.text();
    expect(csvRows(text)[0]).toEqual([
      "Time (UTC)",
      "By",
      "Action",
      "Target",
      "Details",
      "Stored target",
      "Stored detail",
    ]);
    const records = csvRecords(text);
    expect(records).toEqual([
      {
        "Time (UTC)": "2026-05-03T09:00:00.000Z",
        By: "System · cron",
        Action: "proposal.expire",
        // A target a spreadsheet would run is defused, like every cell of every CSV.
        Target: `'=HYPERLINK("x")`,
        Details: "Client: Csv Tester (csv.audit@example.com) · Kind: Ledger entry · Expires: May 3, 2026, 9:00 AM UTC",
        "Stored target": `'=HYPERLINK("x")`,
        "Stored detail": JSON.stringify({ client: client.id, kind: "ledger_entry", expiresAt: at(3) }),
      },
      {
        "Time (UTC)": "2026-05-02T09:00:00.000Z",
        By: `Admin · ${admin.email}`,
        Action: "ledger.entry",
        Target: transactionReference(77),
        Details:
          "Client: Csv Tester (csv.audit@example.com) · Type: Profit · Amount: $10.50 · Pair: EUR/USD · Balance after: $10.50",
        "Stored target": "transaction:77",
        "Stored detail": JSON.stringify({
          by: admin.email,
          client: client.id,
          type: "profit",
          amountCents: 1_050,
          tradingPair: "EUR/USD",
          balanceAfterCents: 1_050,
        }),
      },
    ]);
  });

  it("streams a long range page after page, every entry once", async () => {
    const other = await createUser();
    const values = Array.from(
      { length: 1_203 },
      (_, i) => `('${admin.id}', 'client.suspend', 'user:${other.id}', '{}', ${at(20) + Math.floor(i / 2)})`,
    );
    await env.DB.batch(
      [0, 400, 800, 1_200].map((start) =>
        env.DB.prepare(
          `INSERT INTO audit_log (actor_id, action, target, detail, created_at) VALUES ${values.slice(start, start + 400).join(",")}`,
        ),
      ),
    );
    const records = csvRecords(await (await getPage(`/admin/audit.csv?client=${other.id}`, admin.cookie)).text());
    expect(records).toHaveLength(1_203);
    const times = records.map((r) => r["Time (UTC)"] ?? "");
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("refuses a bad date with its message, and is for admins only", async () => {
    const bad = await getPage("/admin/audit.csv?from=2026-05-04&to=2026-05-01", admin.cookie);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toBe("The start date 2026-05-04 is after the end date 2026-05-01.");

    const visitor = await getPage("/admin/audit.csv");
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
    const asClient = await getPage("/admin/audit.csv", await sessionCookieFor(client.id));
    expect(asClient.status).toBe(302);
    expect(asClient.headers.get("Location")).toBe("/dashboard");
    expect(asClient.headers.get("Content-Type") ?? "").not.toContain("text/csv");
  });
});

describe("who acted, on the page and in the CSV", () => {
  it("names the actor's kind: a client's own act, an admin's and the scheduled job's", async () => {
    const client = await createUser({ firstName: "Kit", email: "kit.actor@example.com" });
    const insert = env.DB.prepare(
      "INSERT INTO audit_log (actor_id, action, target, detail, created_at) VALUES (?, ?, ?, ?, ?)",
    );
    await env.DB.batch([
      insert.bind(
        client.id,
        "passkey.counter_went_back",
        `user:${client.id}`,
        JSON.stringify({ passkey: "Kit's laptop", credential: "abcdefabcdef", storedCounter: 9 }),
        Date.UTC(2026, 6, 1, 9),
      ),
      insert.bind(
        admin.id,
        "client.suspend",
        `user:${client.id}`,
        JSON.stringify({ by: admin.email }),
        Date.UTC(2026, 6, 2, 9),
      ),
      insert.bind(
        "cron",
        "client.notes_purge",
        `user:${client.id}`,
        JSON.stringify({ notes: 1 }),
        Date.UTC(2026, 6, 3, 9),
      ),
    ]);
    const html = await (await getPage(`/admin/audit?client=${client.id}`, admin.cookie)).text();
    expect(rowCells(html, "Time")?.slice(0, 3)).toEqual(["Time", "By", "Action"]);
    expect(rowCells(html, "passkey.counter_went_back")?.[1]).toBe("Client · kit.actor@example.com");
    expect(rowCells(html, "client.suspend")?.[1]).toBe(`Admin · ${admin.email}`);
    expect(rowCells(html, "client.notes_purge")?.[1]).toBe("System · cron");

    const records = csvRecords(await (await getPage(`/admin/audit.csv?client=${client.id}`, admin.cookie)).text());
    expect(records.map((record) => [record.Action, record.By])).toEqual([
      ["client.notes_purge", "System · cron"],
      ["client.suspend", `Admin · ${admin.email}`],
      ["passkey.counter_went_back", "Client · kit.actor@example.com"],
    ]);
  });
});

describe("the Client filter", () => {
  /** Two clients whose names and e-mails nobody else's share, each with one row about them. */
  async function twoClients() {
    const tag = crypto.randomUUID().slice(0, 8);
    const wren = await createUser({ firstName: `Wren${tag}`, email: `wren.${tag}@example.com` });
    const otto = await createUser({ firstName: `Otto${tag}`, email: `otto_${tag}@example.com` });
    const insert = env.DB.prepare(
      "INSERT INTO audit_log (actor_id, action, target, detail, created_at) VALUES (?, ?, ?, ?, ?)",
    );
    await env.DB.batch([
      insert.bind(admin.id, "client.suspend", `user:${wren.id}`, "{}", Date.UTC(2026, 7, 1)),
      // About Wren through its detail, not its target.
      insert.bind(
        admin.id,
        "ledger.entry",
        "transaction:88",
        JSON.stringify({ client: wren.id, type: "deposit", amountCents: 100 }),
        Date.UTC(2026, 7, 2),
      ),
      insert.bind(admin.id, "client.activate", `user:${otto.id}`, "{}", Date.UTC(2026, 7, 3)),
    ]);
    return { tag, wren, otto };
  }

  const actionsFor = async (client: string) => {
    const html = await (await getPage(`/admin/audit?client=${encodeURIComponent(client)}`, admin.cookie)).text();
    return [...html.matchAll(/<td>([a-z_]+\.[a-z_]+)<\/td>/g)].map((match) => match[1]).sort();
  };

  it("finds a client by part of the name or the e-mail, in any case, or by the exact id", async () => {
    const { tag, wren, otto } = await twoClients();
    expect(await actionsFor(`wren${tag.toUpperCase()} tes`)).toEqual(["client.suspend", "ledger.entry"]);
    expect(await actionsFor(`WREN.${tag}@EXAMPLE`)).toEqual(["client.suspend", "ledger.entry"]);
    expect(await actionsFor(wren.id)).toEqual(["client.suspend", "ledger.entry"]);
    expect(await actionsFor(otto.email)).toEqual(["client.activate"]);
    expect(await actionsFor(tag)).toEqual(["client.activate", "client.suspend", "ledger.entry"]);
  });

  it("reads LIKE's wildcards as the characters they are", async () => {
    const { tag } = await twoClients();
    // "_" is Otto's own character; as a wildcard it would find Wren's "." too.
    expect(await actionsFor(`_${tag}@`)).toEqual(["client.activate"]);
    expect(await actionsFor(`%${tag}`)).toEqual([]);
  });

  it("keeps the filter on the page's links and in its field, labelled for what it takes", async () => {
    const { wren } = await twoClients();
    const html = await (await getPage(`/admin/audit?client=${encodeURIComponent(wren.email)}`, admin.cookie)).text();
    expect(linkHref(html, "Download CSV")).toBe(`/admin/audit.csv?client=${encodeURIComponent(wren.email)}`);
    expect(fieldLabel(html, "client")).toBe("Client (name, e-mail or id)");
    const records = csvRecords(
      await (await getPage(`/admin/audit.csv?client=${encodeURIComponent(wren.email)}`, admin.cookie)).text(),
    );
    expect(records.map((record) => record.Action)).toEqual(["ledger.entry", "client.suspend"]);
  });
});
