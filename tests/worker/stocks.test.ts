import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { MONEY_MESSAGES, STOCK_MESSAGES } from "~/lib/schemas/money";
import { SUSPENDED_MESSAGE } from "~/server/ledger/requests.server";
import {
  appEnv,
  createUser,
  ensureDepositWallets,
  getPage,
  moneyCounts,
  postForm,
  sessionCookieFor,
} from "../support/fixtures";
import {
  alerts,
  controlAttribute,
  elementTexts,
  fieldValue,
  heading,
  imageSource,
  linkHref,
  refusals as refusalsOf,
} from "../support/places";

beforeAll(async () => {
  await ensureDepositWallets();
});

const symbolsOn = (html: string) => [...html.matchAll(/href="\/stocks\/([A-Z.]+)"/g)].map((m) => m[1]);

describe("/stocks", () => {
  it("lists the watchlist with Buy Now links", async () => {
    const html = await (await getPage("/stocks")).text();
    expect(heading(html)).toBe("Stock market watchlist");
    expect(controlAttribute(html, "q", "placeholder")).toBe("Search stocks by symbol or name...");
    expect(symbolsOn(html).length).toBeGreaterThanOrEqual(100);
    expect(linkHref(html, "Buy Now: AAPL")).toBe("/stocks/AAPL/deposit");
  });

  it("filters by ?q= without JavaScript, on symbol or name, whatever the case", async () => {
    const bySymbol = symbolsOn(await (await getPage("/stocks?q=tsl")).text());
    expect(bySymbol).toContain("TSLA");
    expect(bySymbol).not.toContain("AAPL");
    const byName = symbolsOn(await (await getPage("/stocks?q=APPLE")).text());
    expect(byName).toContain("AAPL");
    const none = await (await getPage("/stocks?q=zzzz-none")).text();
    expect(elementTexts(none, "p")).toContain("No stocks available.");
  });
});

describe("/stocks/{symbol}", () => {
  it("shows a known stock with its logo, sector, chart and at most 5 similar stocks", async () => {
    const response = await getPage("/stocks/aapl");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(heading(html)).toBe("Apple Inc. (AAPL)");
    expect(linkHref(html, "Back to Watchlist")).toBe("/stocks");
    expect(elementTexts(html, "p")).toContain("Technology");
    expect(imageSource(html, "Apple Inc. logo")).toBe("https://logo.clearbit.com/apple.com");
    const similar = html.slice(html.indexOf("Similar Stocks"));
    const links = symbolsOn(similar);
    expect(links.length).toBeGreaterThan(0);
    expect(links.length).toBeLessThanOrEqual(5);
    expect(links).not.toContain("AAPL");
    expect(response.headers.get("Content-Security-Policy")).toContain("https://logo.clearbit.com");
  });

  it("shows the product's placeholder for an unknown symbol, with a 404", async () => {
    const response = await getPage("/stocks/NOPE");
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(elementTexts(html, "p")).toEqual(
      expect.arrayContaining(["No detailed information available.", "Unknown", "$0.00"]),
    );
  });
});

describe("/stocks/{symbol}/deposit", () => {
  const client = async () => {
    const user = await createUser({ firstName: "Sam" });
    return { ...user, cookie: await sessionCookieFor(user.id) };
  };
  const deposit = (symbol: string, fields: Record<string, string>, cookie?: string) =>
    postForm(
      `/stocks/${symbol}/deposit`,
      { amount: "500", walletType: "BTC", stock: symbol.toUpperCase(), idempotencyKey: crypto.randomUUID(), ...fields },
      { cookie },
    );

  it("sends a signed-out visitor to sign in", async () => {
    expect((await getPage("/stocks/AAPL/deposit")).headers.get("Location")).toBe(
      "/login?redirectTo=%2Fstocks%2FAAPL%2Fdeposit",
    );
  });

  it("shows the heading and the stock locked to the URL", async () => {
    const { cookie } = await client();
    const html = await (await getPage("/stocks/msft/deposit", cookie)).text();
    expect(heading(html)).toBe("Make a Deposit to buy MSFT stock");
    expect(fieldValue(html, "stock")).toBe("MSFT");
  });

  const refusals: Array<[string, string, Record<string, string>, string]> = [
    ["no amount", "AAPL", { amount: "", walletType: "", stock: "" }, MONEY_MESSAGES.invalidAmount],
    ["an amount with a comma", "AAPL", { amount: "1,50" }, MONEY_MESSAGES.invalidAmount],
    ["no wallet", "AAPL", { walletType: "", stock: "" }, MONEY_MESSAGES.selectDepositWallet],
    ["no stock", "AAPL", { stock: "" }, STOCK_MESSAGES.selectStock],
    ["an unknown symbol in the URL", "NOPE", {}, STOCK_MESSAGES.invalidSymbol],
    ["a stock other than the URL's", "AAPL", { stock: "TSLA" }, STOCK_MESSAGES.invalidSymbol],
  ];

  it.each(refusals)(
    "refuses %s with the product's message, storing nothing",
    async (_name, symbol, fields, message) => {
      const { id, cookie } = await client();
      const before = await moneyCounts(id);
      const response = await deposit(symbol, fields, cookie);
      expect(response.status).toBe(400);
      expect(refusalsOf(await response.text())).toContain(message);
      expect(await moneyCounts(id)).toEqual(before);
    },
  );

  it("refuses a suspended client", async () => {
    const { id, cookie } = await client();
    await env.DB.prepare("UPDATE profiles SET status = 'suspended' WHERE user_id = ?").bind(id).run();
    const response = await deposit("AAPL", {}, cookie);
    expect(alerts(await response.text())).toContain(SUSPENDED_MESSAGE);
    expect(await moneyCounts(id)).toMatchObject({ transactions: 0 });
  });

  it("stores a pending stock deposit carrying the stock, with the notice naming it, once per form", async () => {
    const { id, cookie } = await client();
    const idempotencyKey = crypto.randomUUID();
    const [first, second] = await Promise.all([
      deposit("aapl", { idempotencyKey, stock: "aapl" }, cookie),
      deposit("aapl", { idempotencyKey, stock: "aapl" }, cookie),
    ]);
    expect([first?.headers.get("Location"), second?.headers.get("Location")]).toEqual(["/dashboard", "/dashboard"]);
    const rows = await env.DB.prepare(
      "SELECT id, transaction_type, stock, status, amount_cents FROM transactions WHERE user_id = ?",
    )
      .bind(id)
      .all<{ id: number }>();
    expect(rows.results).toEqual([
      {
        id: expect.any(Number),
        transaction_type: "stock_deposit",
        stock: "AAPL",
        status: "pending",
        amount_cents: 50_000,
      },
    ]);
    const notice = await env.DB.prepare("SELECT to_address, payload FROM email_outbox WHERE dedupe_key = ?")
      .bind(`deposit_request:tx:${rows.results[0]?.id}`)
      .first<{ to_address: string; payload: string }>();
    expect(notice?.to_address).toBe(appEnv.ADMIN_MAILBOX);
    expect(JSON.parse(notice?.payload ?? "{}")).toMatchObject({ stock: "AAPL", name: "Sam Tester", amount: 500 });
  });
});
