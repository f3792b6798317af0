import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { formatMediumDate } from "~/lib/format";
import { findStock } from "~/lib/stocks";
import { refreshProfileProjection } from "~/server/ledger/figures.server";
import { portfolioData } from "~/server/ledger/portfolio.server";
import {
  createUser,
  db,
  fundedClient,
  getPage,
  insertTransaction,
  postForm,
  requestWithdrawalAs,
  sessionCookieFor,
  signedInAdmin,
} from "../support/fixtures";
import { cardTitled, elementTexts, errorShown, imageNames, linkHref, REFUSED } from "../support/places";
import { rowCells } from "../support/tables";
import { markVerified } from "../support/verification-state";

const DAY = 86_400_000;
const NOW = Date.now();

/** A page's HTML as text, without React's markers between adjacent text pieces. */
const pageText = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");

/**
 * A client with a $1,000.00 deposit and stock deposits: AAPL approved twice ($200 then $100, 30 and 5 days ago),
 * once pending and once rejected (neither counts), MSFT approved once ($50): a balance of $1,350.00.
 */
async function clientWithStocks() {
  const admin = await createUser({ role: "admin" });
  const client = await createUser();
  await markVerified(client.id);
  const approved = (type: "deposit" | "stock_deposit", cents: number, stock: string | null, at: number) =>
    insertTransaction(client.id, {
      transactionType: type,
      amountCents: cents,
      stock,
      status: "approved",
      createdAt: at,
      decidedAt: at,
      decidedBy: admin.id,
    });
  await approved("deposit", 100_000, null, NOW - 60 * DAY);
  await approved("stock_deposit", 20_000, "AAPL", NOW - 30 * DAY);
  await approved("stock_deposit", 10_000, "AAPL", NOW - 5 * DAY);
  await approved("stock_deposit", 5_000, "MSFT", NOW - 2 * DAY);
  await insertTransaction(client.id, { transactionType: "stock_deposit", amountCents: 70_000, stock: "AAPL" });
  const rejected = await insertTransaction(client.id, {
    transactionType: "stock_deposit",
    amountCents: 80_000,
    stock: "AAPL",
  });
  // A rejection as the desk writes it.
  await db.run(
    sql`UPDATE transactions SET status = 'rejected', decided_by = ${admin.id}, decided_at = ${NOW} WHERE id = ${rejected}`,
  );
  // The profile's stored balance, as every batch that moves money ends (the client page reads it).
  await db.run(refreshProfileProjection(client.id, NOW));
  return { ...client, cookie: await sessionCookieFor(client.id) };
}

describe("positions", () => {
  it("give per stock the approved deposits, their first and last, the share of the balance and the watchlist price", async () => {
    const client = await clientWithStocks();
    const { positions, balanceCents } = await portfolioData(db, client.id, "30d");
    expect(balanceCents).toBe(135_000);
    expect(positions).toEqual([
      {
        symbol: "AAPL",
        name: findStock("AAPL")?.name,
        priceUsd: findStock("AAPL")?.price,
        cents: 30_000,
        count: 2,
        firstAt: NOW - 30 * DAY,
        lastAt: NOW - 5 * DAY,
        sharePercent: 22.2,
      },
      {
        symbol: "MSFT",
        name: findStock("MSFT")?.name,
        priceUsd: findStock("MSFT")?.price,
        cents: 5_000,
        count: 1,
        firstAt: NOW - 2 * DAY,
        lastAt: NOW - 2 * DAY,
        sharePercent: 3.7,
      },
    ]);
  });

  it("show on /portfolio, each stock linking to its page, and on the admin's client page", async () => {
    const client = await clientWithStocks();
    const page = await pageText(await getPage("/portfolio", client.cookie));
    expect(linkHref(page, "AAPL")).toBe("/stocks/AAPL");
    const apple = rowCells(page, 'href="/stocks/AAPL"');
    expect(apple?.[1]).toBe("$300.00");
    expect(apple?.[5]).toBe("22.2%");
    const admin = await signedInAdmin();
    const clientPage = await getPage(`/user/${client.id}`, admin.cookie);
    expect(clientPage.status).toBe(200);
    const adminText = await pageText(clientPage);
    expect(cardTitled(adminText, "Stock deposits")).not.toBeNull();
    expect(linkHref(adminText, "MSFT")).toBe("/stocks/MSFT");
    expect(rowCells(adminText, 'href="/stocks/AAPL"')?.[5]).toBe("22.2%");
    expect(rowCells(adminText, 'href="/stocks/MSFT"')?.[5]).toBe("3.7%");
  });
});

describe("/portfolio", () => {
  it("is for clients: a visitor goes to sign in and back, an admin to the back office", async () => {
    const signedOut = await getPage("/portfolio?range=12m");
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toBe(`/login?redirectTo=${encodeURIComponent("/portfolio?range=12m")}`);
    const admin = await signedInAdmin();
    const asAdmin = await getPage("/portfolio", admin.cookie);
    expect(asAdmin.status).toBe(302);
    expect(asAdmin.headers.get("Location")).toBe("/admin");
  });

  it("offers three ranges and refuses any other with a clear message", async () => {
    const client = await clientWithStocks();
    for (const range of ["", "?range=30d", "?range=12m", "?range=all"]) {
      const response = await getPage(`/portfolio${range}`, client.cookie);
      expect(response.status, range).toBe(200);
      const text = await pageText(response);
      expect(elementTexts(text, "summary")).toContain("Show the figures as a table");
      expect(elementTexts(text, "p")).toContain("Balance now: $1,350.00");
    }
    for (const range of ["5y", "ALL", "30d%20", ""]) {
      const response = await getPage(`/portfolio?range=${range}`, client.cookie);
      expect(response.status, range).toBe(400);
      expect(errorShown(await pageText(response))).toEqual({
        title: REFUSED,
        text: "There is no such range: choose 30 days, 12 months or all time.",
      });
    }
  });

  it("shows the 30-day line on the dashboard, with the way to /portfolio", async () => {
    const client = await clientWithStocks();
    const text = await pageText(await getPage("/dashboard", client.cookie));
    expect(cardTitled(text, "Balance, last 30 days")).not.toBeNull();
    expect(linkHref(text, "Open portfolio")).toBe("/portfolio");
    expect(imageNames(text)).toContainEqual(expect.stringMatching(/^[A-Z][a-z]{2} \d{1,2}, \d{4}: \$1,350\.00$/));
  });
});

describe("today's point", () => {
  it("moves when an admin approves a request on the client page, and not when a request is cancelled or waits", async () => {
    const client = await fundedClient(10_000);
    const today = formatMediumDate(Date.now());
    const todaysPoint = async () => {
      const html = await pageText(await getPage("/portfolio", client.cookie));
      const mark = imageNames(html).find((name) => name.startsWith(`${today}: `));
      return mark?.slice(`${today}: `.length);
    };
    expect(await todaysPoint()).toBe("$100.00");

    const admin = await signedInAdmin();
    const deposit = await insertTransaction(client.id, { amountCents: 12_345 });
    const approval = await postForm(
      `/user/${client.id}`,
      { intent: "approve", transactionId: String(deposit) },
      { cookie: admin.cookie },
    );
    expect(approval.status).toBe(200);
    expect(await todaysPoint()).toBe("$223.45");

    // A withdrawal waiting for a decision, then cancelled by its owner: no money moved either time.
    const withdrawal = await requestWithdrawalAs(client, { amount: "50.00" });
    expect(await todaysPoint()).toBe("$223.45");
    const cancel = await postForm(
      `/requests/${withdrawal}/cancel`,
      { redirectTo: "/portfolio" },
      { cookie: client.cookie },
    );
    expect(cancel.status).toBe(302);
    expect(await todaysPoint()).toBe("$223.45");
  });
});
