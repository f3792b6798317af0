import { describe, expect, it } from "vitest";
import { formatDateTimeUtc } from "~/lib/format";
import { positionSerial, saleSerial } from "~/lib/money/orders";
import { transactionReference } from "~/lib/reference";
import { monthlyStatementCsv } from "~/server/ledger/statement-csv.server";
import { parseStatementMonth, type StatementPeriod } from "~/server/ledger/statements.server";
import { clientOrders } from "~/server/positions/order-history.server";
import { db, fundedClient, getPage } from "../support/fixtures";
import { buyAt, sellAt } from "../support/orders";
import { pdfPages, pdfPieces, piecesByLine } from "../support/pdf-text";
import { testIdText } from "../support/places";
import { csvRows, rowCells, tableRows } from "../support/tables";

/**
 * Orders on History and in the statements, and the yearly summary's realized gains, through the real routes, on a
 * case worked out by hand (docs/product.md, "Orders and positions"): two buys of AAPL in March 2025, then two sales
 * that close them oldest first.
 *   Buy 3.5 at the ask $190.02 = $665.07 (P1); buy 2 at $200.02 = $400.04 (P2).
 *   Sell 4 at the bid $210.00 = $840.00: all of P1 ($665.07) and half of P2 ($200.02), cost $765.08, +$74.92.
 *   Sell 1.5 at $190.00 = $285.00: the rest of P2, cost $300.03 (its cost less the half sold), −$15.03.
 *   The year: proceeds $1,125.00, cost $1,065.11, result +$59.89.
 */

const at = (day: number, hour: number) => Date.UTC(2025, 2, day, hour);
const TIMES = { buy1: at(3, 10), buy2: at(4, 10), sale1: at(10, 15), sale2: at(20, 15), april: Date.UTC(2025, 3, 2) };
/** A moment as a page's text shows it (the narrow space before AM/PM read as a space). */
const shown = (moment: number) => formatDateTimeUtc(moment).replace(/\s+/g, " ");
/** The ASCII minus and spaces the PDF's fonts write. */
const printed = (text: string) => text.replace(/\u2212/g, "-").replace(/\p{Zs}/gu, " ");
const text = async (path: string, cookie: string) => {
  const response = await getPage(path, cookie);
  expect(response.status).toBe(200);
  return (await response.text()).replaceAll("<!-- -->", "");
};
const pdfLines = async (path: string, cookie: string) => {
  const response = await getPage(path, cookie);
  expect(response.status).toBe(200);
  return (await pdfPages(await response.arrayBuffer())).flat();
};

async function handCase() {
  const client = await fundedClient(500_000);
  const p1 = await buyAt(client, "AAPL", 35_000, 190.02, TIMES.buy1);
  const p2 = await buyAt(client, "AAPL", 20_000, 200.02, TIMES.buy2);
  const s1 = await sellAt(client, "AAPL", 40_000, 210, TIMES.sale1);
  const s2 = await sellAt(client, "AAPL", 15_000, 190, TIMES.sale2);
  // An open position in April: on History, in no statement of March.
  const p3 = await buyAt(client, "MSFT", 10_000, 400, TIMES.april);
  // Another client's orders in the same month never show on this client's pages.
  const other = await fundedClient(500_000);
  const theirs = await buyAt(other, "TSLA", 10_000, 250, at(5, 9));
  const theirSale = await sellAt(other, "TSLA", 10_000, 260, at(6, 9));
  return {
    client,
    serials: {
      p1: positionSerial(p1.id),
      p2: positionSerial(p2.id),
      p3: positionSerial(p3.id),
      s1: saleSerial(s1.sale.id),
      s2: saleSerial(s2.sale.id),
    },
    entries: { profit: transactionReference(s1.entry?.id ?? 0), loss: transactionReference(s2.entry?.id ?? 0) },
    sales: [s1.sale, s2.sale],
    others: [positionSerial(theirs.id), saleSerial(theirSale.sale.id)],
  };
}

describe("the hand-computed FIFO case", () => {
  it("closes the lots oldest first, to the cent", async () => {
    const { sales } = await handCase();
    expect(sales.map(({ proceedsCents, costCents, resultCents }) => [proceedsCents, costCents, resultCents])).toEqual([
      [84_000, 76_508, 7_492],
      [28_500, 30_003, -1_503],
    ]);
  });

  it("lists the orders on History, newest first, with results in words and statuses", async () => {
    const { client, serials, others } = await handCase();
    const html = await text("/transactions", client.cookie);
    expect(html).toContain("<h2");
    expect(tableRows(html, "order-history").slice(1)).toEqual([
      [shown(TIMES.april), serials.p3, "Buy", "MSFT", "1", "$400.00", "$400.00", "Open"],
      [shown(TIMES.sale2), serials.s2, "Sell", "AAPL", "1.5", "$190.00", "$285.00", "−$15.03 loss"],
      [shown(TIMES.sale1), serials.s1, "Sell", "AAPL", "4", "$210.00", "$840.00", "+$74.92 gain"],
      [shown(TIMES.buy2), serials.p2, "Buy", "AAPL", "2", "$200.02", "$400.04", "Closed"],
      [shown(TIMES.buy1), serials.p1, "Buy", "AAPL", "3.5", "$190.02", "$665.07", "Closed"],
    ]);
    expect(html).toContain('href="/stocks/AAPL"');
    for (const serial of others) expect(html).not.toContain(serial);
  });

  it("pages History's orders by keyset, older after newer, none twice", async () => {
    const { client, serials } = await handCase();
    const seen: string[] = [];
    let url = new URL("http://localhost/transactions");
    for (let page = 0; page < 5; page++) {
      const { orders, olderOrders } = await clientOrders(db, client.id, url, 2);
      seen.push(...orders.map((order) => (order.side === "buy" ? positionSerial(order.id) : saleSerial(order.id))));
      if (!olderOrders) break;
      url = new URL(`http://localhost/transactions?ordersBefore=${olderOrders}`);
    }
    expect(seen).toEqual([serials.p3, serials.s2, serials.s1, serials.p2, serials.p1]);
  });

  it("says so when there are no orders", async () => {
    const client = await fundedClient(10_000);
    expect(testIdText(await text("/transactions", client.cookie), "orders-empty")).toBe("No orders yet.");
    expect(await text("/statements/2025-03", client.cookie)).toContain("No orders this month.");
    expect(await text("/statements/year/2025", client.cookie)).toContain("No sales this year.");
  });

  it("lists the month's orders on its statement, oldest first, beside the sales' movements", async () => {
    const { client, serials, entries, others } = await handCase();
    const html = await text("/statements/2025-03", client.cookie);
    expect(tableRows(html, "statement-orders").slice(1)).toEqual([
      [shown(TIMES.buy1), serials.p1, "Buy", "AAPL", "3.5", "$190.02", "$665.07", ""],
      [shown(TIMES.buy2), serials.p2, "Buy", "AAPL", "2", "$200.02", "$400.04", ""],
      [shown(TIMES.sale1), serials.s1, "Sell", "AAPL", "4", "$210.00", "$840.00", "+$74.92 gain"],
      [shown(TIMES.sale2), serials.s2, "Sell", "AAPL", "1.5", "$190.00", "$285.00", "−$15.03 loss"],
    ]);
    expect(rowCells(html, entries.profit)).toContain("+$74.92");
    expect(rowCells(html, entries.loss)).toContain("−$15.03");
    for (const serial of [serials.p3, ...others]) expect(html).not.toContain(serial);
  });

  it("adds the orders to the statement's CSV as a second block, the first one unchanged", async () => {
    const { client, serials, entries } = await handCase();
    const response = await getPage("/statements/2025-03.csv", client.cookie);
    expect(response.status).toBe(200);
    expect(csvRows(await response.text())).toEqual([
      ["date", "reference", "type", "status", "trading_pair", "stock", "direction", "amount", "balance"],
      ["2025-03-01T00:00:00.000Z", "", "Opening balance", "", "", "", "", "", "0.00"],
      ["2025-03-10T15:00:00.000Z", entries.profit, "Profit", "approved", "AAPL", "", "in", "74.92", "74.92"],
      ["2025-03-20T15:00:00.000Z", entries.loss, "Loss", "approved", "AAPL", "", "out", "15.03", "59.89"],
      [""],
      ["date", "order", "side", "stock", "shares", "price", "amount", "result", "result_amount"],
      ["2025-03-03T10:00:00.000Z", serials.p1, "Buy", "AAPL", "3.5", "190.02", "665.07", "", ""],
      ["2025-03-04T10:00:00.000Z", serials.p2, "Buy", "AAPL", "2", "200.02", "400.04", "", ""],
      ["2025-03-10T15:00:00.000Z", serials.s1, "Sell", "AAPL", "4", "210.00", "840.00", "Profit", "74.92"],
      ["2025-03-20T15:00:00.000Z", serials.s2, "Sell", "AAPL", "1.5", "190.00", "285.00", "Loss", "15.03"],
    ]);
  });

  it("streams the same CSV whatever the page size, across each turn from one part to the next", async () => {
    const { client } = await handCase();
    const whole = await (await getPage("/statements/2025-03.csv", client.cookie)).text();
    const period = parseStatementMonth("2025-03") as StatementPeriod;
    for (const size of [1, 2, 3, 4, 5]) {
      expect(await new Response(monthlyStatementCsv(db, client.id, period, size)).text(), `pages of ${size}`).toBe(
        whole,
      );
    }
  });

  it("offers older orders past 50, keeping the transactions' view", async () => {
    const client = await fundedClient(1_000_000);
    for (let i = 0; i < 51; i++) await buyAt(client, "AMD", 10_000, 100, at(1, 0) + i * 60_000);
    const first = await text("/transactions?type=deposit", client.cookie);
    expect(tableRows(first, "order-history")).toHaveLength(51);
    const older = /href="([^"]*ordersBefore=[^"]*)"[^>]*>Show older orders/.exec(first)?.[1]?.replaceAll("&amp;", "&");
    expect(older).toMatch(/^\/transactions\?type=deposit&ordersBefore=\d+\.buy\.\d+#orders$/);
    const second = await text((older ?? "").replace("#orders", ""), client.cookie);
    expect(tableRows(second, "order-history").slice(1)).toEqual([
      [shown(at(1, 0)), expect.stringMatching(/^P-\d{6}$/), "Buy", "AMD", "1", "$100.00", "$100.00", "Open"],
    ]);
    expect(second).toContain("Newest orders");
    expect(second).not.toContain("Show older orders");
  });

  it("prints the orders in the statement's PDF after the movements", async () => {
    const { client, serials, others } = await handCase();
    const lines = await pdfLines("/statements/2025-03.pdf", client.cookie);
    const titles = lines.map((line) => line[0]);
    expect(titles.indexOf("Orders")).toBeGreaterThan(titles.indexOf("Movements"));
    const orderLine = (serial: string) => lines.find((line) => line.includes(serial));
    expect(orderLine(serials.p1)).toEqual([
      printed(shown(TIMES.buy1)),
      serials.p1,
      "Buy",
      "AAPL",
      "3.5",
      "$190.02",
      "$665.07",
    ]);
    expect(orderLine(serials.s1)).toEqual([
      printed(shown(TIMES.sale1)),
      serials.s1,
      "Sell",
      "AAPL",
      "4",
      "$210.00",
      "$840.00",
      "+$74.92",
    ]);
    expect(orderLine(serials.s2)?.slice(-2)).toEqual(["$285.00", "-$15.03"]);
    for (const serial of [serials.p3, ...others]) expect(orderLine(serial)).toBeUndefined();
    // Every column clear of the next, as the statement's other tables (wider than two figures).
    const pieces = (await pdfPieces(await (await getPage("/statements/2025-03.pdf", client.cookie)).arrayBuffer()))
      .flatMap((page) => piecesByLine(page))
      .filter((line) => line.some((piece) => piece.text === serials.s1 || piece.text === "Order"));
    expect(pieces).toHaveLength(2);
    for (const line of pieces)
      for (let index = 1; index < line.length; index++) {
        const [left, right] = [line[index - 1], line[index]];
        expect((right?.x ?? 0) - (left?.right ?? 0), `${left?.text} then ${right?.text}`).toBeGreaterThanOrEqual(10);
      }
  });

  it("sums the year's sales by stock in the yearly summary, on its page and in its PDF", async () => {
    const { client } = await handCase();
    const html = await text("/statements/year/2025", client.cookie);
    expect(tableRows(html, "summary-realized")).toEqual([
      ["Stock", "Sales", "Lots closed", "Shares sold", "Proceeds", "Cost (FIFO)", "Result"],
      ["AAPL", "2", "2", "5.5", "$1,125.00", "$1,065.11", "+$59.89 gain"],
      ["Year 2025", "2", "2", "", "$1,125.00", "$1,065.11", "+$59.89 gain"],
    ]);
    expect(html).toContain("The total result equals the year&#x27;s profit minus loss from sales");
    const lines = await pdfLines("/statements/year/2025.pdf", client.cookie);
    expect(lines.find((line) => line[0] === "AAPL")).toEqual([
      "AAPL",
      "2",
      "2",
      "5.5",
      "$1,125.00",
      "$1,065.11",
      "+$59.89",
    ]);
    // The last 'Year 2025' line: the By month table's comes first, its Profit and loss the same +$59.89.
    expect(lines.filter((line) => line[0] === "Year 2025").at(-1)).toEqual([
      "Year 2025",
      "2",
      "2",
      "$1,125.00",
      "$1,065.11",
      "+$59.89",
    ]);
    expect(
      lines.some((line) => line.join(" ").startsWith("The total result equals the year's profit minus loss")),
    ).toBe(true);
  });
});
