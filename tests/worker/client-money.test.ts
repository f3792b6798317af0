import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { formatCents } from "~/lib/format";
import { summarize, totalsFromRows } from "~/lib/ledger";
import { MONEY_MESSAGES } from "~/lib/schemas/money";
import { withdrawableCents } from "~/server/ledger/figures.server";
import { SUSPENDED_MESSAGE } from "~/server/ledger/requests.server";
import {
  appEnv,
  createUser,
  db,
  ensureDepositWallets,
  getPage,
  insertLedger,
  insertTransaction,
  moneyCounts,
  postForm,
  sessionCookieFor,
  TEST_WALLETS,
} from "../support/fixtures";
import {
  alerts,
  cardTitled,
  disabledButtonTexts,
  elementsWith,
  fieldError,
  heading,
  linkHref,
  readText,
  testIdText,
} from "../support/places";
import { markVerified } from "../support/verification-state";

beforeAll(async () => {
  await ensureDepositWallets();
});

async function signedInClient(options: { firstName?: string } = {}) {
  const client = await createUser(options);
  return { ...client, cookie: await sessionCookieFor(client.id) };
}

const newKey = () => crypto.randomUUID();

async function suspend(userId: string) {
  await env.DB.prepare("UPDATE profiles SET status = 'suspended' WHERE user_id = ?").bind(userId).run();
}

describe("deposit", () => {
  const deposit = (fields: Record<string, string>, cookie?: string) =>
    postForm("/deposit", { amount: "250.00", walletType: "BTC", idempotencyKey: newKey(), ...fields }, { cookie });

  it("sends a signed-out visitor to /login and refuses their POST with the product's message", async () => {
    expect((await getPage("/deposit?amount=10")).headers.get("Location")).toBe(
      "/login?redirectTo=%2Fdeposit%3Famount%3D10",
    );
    const before = await countAll();
    // The page's own submission (a data request) answers the action's message; nothing is stored.
    const response = await postForm("/deposit.data", { amount: "250.00", walletType: "BTC", idempotencyKey: newKey() });
    expect(await response.text()).toContain(MONEY_MESSAGES.notAuthenticated);
    // A plain form post from a stale page ends on the sign-in page.
    const documentPost = await deposit({});
    expect(documentPost.headers.get("Location")).toMatch(/^\/login/);
    expect(await countAll()).toEqual(before);
  });

  it.each([[""], ["0"], ["-5"], ["abc"], ["1.234"], ["1,50"], ["1,234.56"]])(
    "refuses the amount %j with 'Please enter a valid amount'",
    async (amount) => {
      const client = await signedInClient();
      const before = await moneyCounts(client.id);
      const response = await deposit({ amount, walletType: "" }, client.cookie);
      expect(response.status).toBe(400);
      const html = await response.text();
      expect(fieldError(html, "amount")).toBe(MONEY_MESSAGES.invalidAmount);
      expect(alerts(html)).toContain(MONEY_MESSAGES.invalidAmount);
      expect(await moneyCounts(client.id)).toEqual(before);
    },
  );

  it.each([[""], ["DOGE"]])("refuses the wallet %j with the product's message", async (walletType) => {
    const client = await signedInClient();
    const before = await moneyCounts(client.id);
    const response = await deposit({ walletType }, client.cookie);
    const html = await response.text();
    expect(fieldError(html, "walletType")).toBe(MONEY_MESSAGES.selectDepositWallet);
    expect(alerts(html)).toContain(MONEY_MESSAGES.selectDepositWallet);
    expect(await moneyCounts(client.id)).toEqual(before);
  });

  it("refuses a suspended client", async () => {
    const client = await signedInClient();
    await suspend(client.id);
    const before = await moneyCounts(client.id);
    const response = await deposit({}, client.cookie);
    expect(response.status).toBe(403);
    expect(alerts(await response.text())).toContain(SUSPENDED_MESSAGE);
    expect(await moneyCounts(client.id)).toEqual(before);
  });

  it("stores a pending deposit with its admin notice, and goes to the dashboard with a toast", async () => {
    const client = await signedInClient({ firstName: "Dana" });
    const response = await deposit({ amount: "1234.5", walletType: "ETH" }, client.cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard");
    expect(response.headers.getSetCookie().some((c) => c.startsWith("toast="))).toBe(true);
    const rows = await env.DB.prepare("SELECT * FROM transactions WHERE user_id = ?").bind(client.id).all();
    expect(rows.results).toEqual([
      expect.objectContaining({
        transaction_type: "deposit",
        amount_cents: 123_450,
        status: "pending",
        wallet_address: TEST_WALLETS[1]?.walletAddress,
        created_by: client.id,
      }),
    ]);
    const notice = await env.DB.prepare("SELECT to_address, template, payload FROM email_outbox WHERE dedupe_key = ?")
      .bind(`deposit_request:tx:${rows.results[0]?.id}`)
      .first<{ to_address: string; template: string; payload: string }>();
    expect(notice?.to_address).toBe(appEnv.ADMIN_MAILBOX);
    // The desk's notice names the client in full, as the desk's pages do.
    expect(JSON.parse(notice?.payload ?? "{}")).toMatchObject({
      name: "Dana Tester",
      amount: 1234.5,
      walletType: "ETH",
    });
  });

  it("creates one deposit from 20 parallel submissions of one form", async () => {
    const client = await signedInClient();
    const idempotencyKey = newKey();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => deposit({ idempotencyKey, amount: "99.99" }, client.cookie)),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(302));
    expect(await moneyCounts(client.id)).toMatchObject({ transactions: 1 });
    expect(
      await env.DB.prepare(
        "SELECT count(*) AS n FROM email_outbox WHERE dedupe_key LIKE 'deposit_request:tx:%' AND payload LIKE '%99.99%'",
      ).first(),
    ).toEqual({ n: 1 });
  });

  it("prefills the amount from the query and renders a fresh idempotency key each time", async () => {
    const client = await signedInClient();
    const first = await (await getPage("/deposit?amount=2500", client.cookie)).text();
    const second = await (await getPage("/deposit", client.cookie)).text();
    expect(first).toContain('value="2500.00"');
    const key = (html: string) => /name="idempotencyKey" value="([^"]+)"/.exec(html)?.[1];
    expect(key(first)).toBeTruthy();
    expect(key(first)).not.toBe(key(second));
    expect(first).toContain(TEST_WALLETS[0]?.walletType);
  });

  it("ignores a user id smuggled into the form: the session decides whose deposit it is", async () => {
    const client = await signedInClient();
    const other = await createUser();
    expect((await deposit({ userId: other.id, user_id: other.id }, client.cookie)).status).toBe(302);
    expect(await moneyCounts(other.id)).toMatchObject({ transactions: 0 });
    expect(await moneyCounts(client.id)).toMatchObject({ transactions: 1 });
  });
});

async function countAll() {
  const row = await env.DB.prepare(
    "SELECT (SELECT count(*) FROM transactions) AS t, (SELECT count(*) FROM email_outbox) AS o, (SELECT count(*) FROM withdrawal_wallets) AS w",
  ).first();
  return row;
}

describe("withdraw", () => {
  const withdraw = (fields: Record<string, string>, cookie?: string) =>
    postForm(
      "/withdraw",
      {
        amount: "80.00",
        cryptoCurrency: "ETH",
        walletAddress: "0x1111111111111111111111111111111111111111",
        idempotencyKey: newKey(),
        ...fields,
      },
      { cookie },
    );

  /** A client whose withdrawable balance is exactly $100. */
  async function fundedClient() {
    const client = await signedInClient({ firstName: "Wes" });
    await markVerified(client.id);
    await insertTransaction(client.id, { transactionType: "deposit", status: "approved", amountCents: 15_000 });
    await insertTransaction(client.id, {
      transactionType: "profit",
      status: "approved",
      amountCents: 2_000,
      tradingPair: "EUR/USD",
    });
    await insertTransaction(client.id, {
      transactionType: "loss",
      status: "approved",
      amountCents: 7_000,
      tradingPair: "BTC/USD",
    });
    // Counted in the ledger balance but not withdrawable (docs/product.md, "Figures"), and a rejected deposit counts for nothing.
    await insertTransaction(client.id, { transactionType: "fee_deposit", status: "approved", amountCents: 50_000 });
    await insertTransaction(client.id, { transactionType: "deposit", status: "rejected", amountCents: 90_000 });
    expect(await withdrawableCents(db, client.id)).toBe(10_000);
    return client;
  }

  it("shows the withdrawable balance with 2 decimals", async () => {
    const client = await fundedClient();
    const html = await (await getPage("/withdraw", client.cookie)).text();
    expect(heading(html)).toBe("Withdraw Funds");
    expect(testIdText(html, "available-balance")).toBe("$100.00");
  });

  /** Each refusal, the message, and the field it shows under (as well as in the form's banner). */
  const refusals: Array<[string, Record<string, string>, string, string]> = [
    ["no amount", { amount: "", cryptoCurrency: "", walletAddress: "" }, MONEY_MESSAGES.invalidAmount, "amount"],
    ["a zero amount", { amount: "0", cryptoCurrency: "" }, MONEY_MESSAGES.invalidAmount, "amount"],
    [
      "more than the balance",
      { amount: "100.01", cryptoCurrency: "", walletAddress: "" },
      MONEY_MESSAGES.exceedsBalance,
      "amount",
    ],
    ["no currency", { cryptoCurrency: "", walletAddress: "" }, MONEY_MESSAGES.selectCryptoAndAddress, "cryptoCurrency"],
    ["an unknown currency", { cryptoCurrency: "DOGE" }, MONEY_MESSAGES.selectCryptoAndAddress, "cryptoCurrency"],
    ["no address", { walletAddress: "  " }, MONEY_MESSAGES.selectCryptoAndAddress, "walletAddress"],
    [
      "an address of another network",
      { cryptoCurrency: "BTC" },
      "Please enter a valid BTC wallet address",
      "walletAddress",
    ],
  ];

  it.each(refusals)("refuses %s with the product's message, storing nothing", async (_name, fields, message, field) => {
    const client = await fundedClient();
    const before = await moneyCounts(client.id);
    const response = await withdraw(fields, client.cookie);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(fieldError(html, field)).toBe(message);
    expect(alerts(html)).toContain(message);
    expect(await moneyCounts(client.id)).toEqual(before);
  });

  it("refuses a suspended client", async () => {
    const client = await fundedClient();
    await suspend(client.id);
    const before = await moneyCounts(client.id);
    const response = await withdraw({}, client.cookie);
    expect(alerts(await response.text())).toContain(SUSPENDED_MESSAGE);
    expect(await moneyCounts(client.id)).toEqual(before);
  });

  it("stores the pending withdrawal, its wallet record, the admin notice and the client's receipt together", async () => {
    const client = await fundedClient();
    const response = await withdraw({ amount: "60" }, client.cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard");
    const tx = await env.DB.prepare("SELECT * FROM transactions WHERE user_id = ? AND transaction_type = 'withdraw'")
      .bind(client.id)
      .first<Record<string, unknown>>();
    expect(tx).toMatchObject({
      status: "pending",
      amount_cents: 6_000,
      wallet_address: TEST_WALLETS[0]?.walletAddress, // the first deposit wallet's address (docs/product.md, "The ledger")
      withdrawal_wallet_address: "0x1111111111111111111111111111111111111111",
    });
    expect(
      await env.DB.prepare(
        "SELECT wallet_address, crypto_currency, amount_cents, transaction_id FROM withdrawal_wallets WHERE user_id = ?",
      )
        .bind(client.id)
        .all()
        .then((r) => r.results),
    ).toEqual([
      {
        wallet_address: "0x1111111111111111111111111111111111111111",
        crypto_currency: "ETH",
        amount_cents: 6_000,
        transaction_id: tx?.id,
      },
    ]);
    const notices = await env.DB.prepare(
      "SELECT to_address, template, json_extract(payload, '$.name') AS name FROM email_outbox WHERE dedupe_key LIKE ? ORDER BY id",
    )
      .bind(`%:tx:${tx?.id}`)
      .all();
    const firstName = (await env.DB.prepare("SELECT first_name FROM profiles WHERE user_id = ?")
      .bind(client.id)
      .first<string>("first_name")) as string;
    expect(notices.results).toEqual([
      // The desk's notice names the client in full; the client's own mails greet them by first name.
      { to_address: appEnv.ADMIN_MAILBOX, template: "withdrawal_request", name: `${firstName} Tester` },
      { to_address: client.email, template: "withdrawal_receipt", name: firstName },
      // The client was never paid to this address: the warning with its cancel link.
      { to_address: client.email, template: "withdrawal_new_address", name: firstName },
    ]);
    // The request is reserved: only $40 is left to withdraw.
    expect(await withdrawableCents(db, client.id)).toBe(4_000);
  });

  it("accepts exactly one of 50 parallel $80 requests against $100", async () => {
    const client = await fundedClient();
    const responses = await Promise.all(Array.from({ length: 50 }, () => withdraw({ amount: "80" }, client.cookie)));
    const accepted = responses.filter((r) => r.status === 302);
    const refused = responses.filter((r) => r.status !== 302);
    expect(accepted).toHaveLength(1);
    expect(refused).toHaveLength(49);
    for (const response of refused) expect(alerts(await response.text())).toContain(MONEY_MESSAGES.exceedsBalance);
    expect(await countRowsOf(client.id, "withdraw", "pending")).toBe(1);
    expect(await withdrawableCents(db, client.id)).toBe(2_000);
    expect(await moneyCounts(client.id)).toMatchObject({ withdrawalWallets: 1 });
  });

  it("creates one withdrawal when the same form is submitted twice", async () => {
    const client = await fundedClient();
    const idempotencyKey = newKey();
    const [first, second] = await Promise.all([
      withdraw({ idempotencyKey, amount: "30" }, client.cookie),
      withdraw({ idempotencyKey, amount: "30" }, client.cookie),
    ]);
    expect([first?.status, second?.status]).toEqual([302, 302]);
    expect(await countRowsOf(client.id, "withdraw", "pending")).toBe(1);
    expect(await withdrawableCents(db, client.id)).toBe(7_000);
  });
});

async function countRowsOf(userId: string, type: string, status: string) {
  const row = await env.DB.prepare(
    "SELECT count(*) AS n FROM transactions WHERE user_id = ? AND transaction_type = ? AND status = ?",
  )
    .bind(userId, type, status)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

describe("dashboard", () => {
  it("colours only approved money: a pending request is neutral, a declined one grey and struck through", async () => {
    const client = await createUser();
    await insertTransaction(client.id, { status: "approved", amountCents: 11_111 });
    await insertTransaction(client.id, { status: "pending", amountCents: 22_222 });
    await insertTransaction(client.id, { status: "rejected", amountCents: 32_109 });
    await insertTransaction(client.id, { status: "rejected", amountCents: 4_400, transactionType: "withdraw" });
    const html = await (await getPage("/dashboard", await sessionCookieFor(client.id))).text();
    const escaped = (text: string) => text.replace(/[$.]/g, (c) => `\\${c}`);
    // Each look is one class of app/tailwind.css: amount-credit green, amount-debit red, amount-pending the text's
    // own colour, amount-void grey and struck through.
    const classOf = (amount: string) =>
      new RegExp(`<span class="([^"]*)">[+−](?:<!-- -->)?${escaped(amount)}<`).exec(html)?.[1];
    expect(classOf("$111.11")).toBe("amount-credit");
    expect(classOf("$222.22")).toBe("amount-pending");
    expect(classOf("$321.09")).toBe("amount-void");
    expect(classOf("$44.00")).toBe("amount-void");
  });

  it("shows the product's empty texts and 'Welcome' to a new client", async () => {
    const client = await createUser({ firstName: "Nova" });
    await env.DB.prepare("UPDATE users SET last_login_at = created_at WHERE id = ?").bind(client.id).run();
    const html = await (await getPage("/dashboard", await sessionCookieFor(client.id))).text();
    expect(testIdText(html, "greeting")).toBe("Welcome, Nova");
    for (const [panel, empty] of [
      ["Recent Activity", "No recent completed activity"],
      ["Open Positions", "No recent open positions"],
      ["Total Withdrawals & Deposits", "No completed deposits or withdrawals"],
      ["Stocks", "No recent stock deposits"],
      ["Pending & Declined Transactions", "No pending or declined transactions"],
    ] as const) {
      expect(cardTitled(html, panel)).toContain(empty);
    }
    expect(linkHref(html, "Fund Account")).toBe("/deposit");
    expect(cardTitled(html, "Win Rate")).toBe("Win Rate 0.0%");
  });

  it("shows the figures of the formulas for a 20,000-row ledger, and only this client's rows", async () => {
    const client = await signedInClient();
    const other = await createUser();
    await insertTransaction(other.id, { transactionType: "deposit", status: "approved", amountCents: 987_654_321 });
    const rows = Array.from({ length: 20_000 }, (_, i) => ({
      transactionType:
        (["deposit", "stock_deposit", "fee_deposit", "withdraw", "profit", "loss"] as const)[i % 6] ?? "deposit",
      status: (["approved", "pending", "rejected"] as const)[(i * 7) % 3] ?? "approved",
      amountCents: 100 + ((i * 7919) % 50_000),
    }));
    await insertLedger(client.id, rows);
    const expected = summarize(totalsFromRows(rows));
    const html = await (await getPage("/dashboard", client.cookie)).text();
    expect(testIdText(html, "balance-available")).toBe(formatCents(expected.available));
    expect(testIdText(html, "balance-gross")).toBe(formatCents(expected.gross));
    expect(cardTitled(html, "Total Profit")).toBe(`Total Profit ${formatCents(expected.totalProfit)}`);
    expect(cardTitled(html, "Win Rate")).toBe(`Win Rate ${expected.winRate.toFixed(1)}%`);
    expect(cardTitled(html, "Total Withdrawals & Deposits")).toContain(
      `Total Deposits ${formatCents(expected.deposits)}`,
    );
    // Another client's figure reaches this page nowhere, its data included.
    expect(html).not.toContain(formatCents(987_654_321));
    expect(cardTitled(html, "Recent Activity")).toContain("Show All");
  });

  it("pages through approved activity for Show All, newest first, without another client's rows", async () => {
    const client = await signedInClient();
    const other = await createUser();
    await insertTransaction(other.id, { status: "approved", amountCents: 777 });
    for (let i = 0; i < 25; i++) {
      await insertTransaction(client.id, {
        status: "approved",
        amountCents: 1_000 + i,
        createdAt: 1_700_000_000_000 + i,
      });
    }
    await insertTransaction(client.id, { status: "pending", amountCents: 5 });
    const first = (await (await getPage("/dashboard/activity", client.cookie)).json()) as {
      rows: Array<{ amountCents: number }>;
      nextCursor: string;
    };
    expect(first.rows.map((r) => r.amountCents)).toEqual(Array.from({ length: 20 }, (_, i) => 1_024 - i));
    const second = (await (await getPage(`/dashboard/activity?before=${first.nextCursor}`, client.cookie)).json()) as {
      rows: Array<{ amountCents: number }>;
      nextCursor: string | null;
    };
    expect(second.rows.map((r) => r.amountCents)).toEqual([1_004, 1_003, 1_002, 1_001, 1_000]);
    expect(second.nextCursor).toBeNull();
  });

  it("sends a signed-out visitor home", async () => {
    expect((await getPage("/dashboard")).headers.get("Location")).toBe("/");
    expect((await getPage("/dashboard/activity")).headers.get("Location")).toBe("/");
  });
});

describe("trading plans and trading room", () => {
  it("list three plans whose Get Started prefills the deposit amount", async () => {
    const html = await (await getPage("/trading-plan")).text();
    expect(heading(html)).toBe("Select Your Trading Plan");
    for (const [plan, minimum] of [
      ["Standard Plan", 2500],
      ["Master Plan", 11000],
      ["Premium Plan", 51000],
    ] as const) {
      expect(cardTitled(html, plan)).toContain("Get Started");
      const links = elementsWith(html, "href", `/deposit?amount=${minimum}`).filter((tag) => tag.startsWith("<a"));
      expect(links.map(readText)).toEqual(["Get Started"]);
    }
    expect(cardTitled(html, "Premium Plan")).toContain("Maximum Unlimited");
  });

  it("keep the trading room for signed-in users, with its button disabled", async () => {
    expect((await getPage("/trading-room")).headers.get("Location")).toBe("/login?redirectTo=%2Ftrading-room");
    const client = await signedInClient();
    const html = await (await getPage("/trading-room", client.cookie)).text();
    expect(cardTitled(html, "Join Trading Room")).toContain("The trading room is not open for new members yet.");
    expect(disabledButtonTexts(html)).toEqual(["Join Trading Room"]);
  });
});
