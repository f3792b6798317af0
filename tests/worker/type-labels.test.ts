import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { TransactionType } from "~/lib/ledger";
import { transactionReference } from "~/lib/reference";
import { createUser, getPage, insertTransaction, postForm, sessionCookieFor, signedInAdmin } from "../support/fixtures";
import { buttonNames, elementsWith, readText } from "../support/places";
import { csvRecords, rowCells, tableRows } from "../support/tables";

/** The product's one name for each type (docs/product.md, "The ledger"), as a person reads it everywhere. */
const NAMES: Record<TransactionType, string> = {
  deposit: "Deposit",
  stock_deposit: "Stock deposit",
  fee_deposit: "Fee deposit",
  withdraw: "Withdrawal",
  profit: "Profit",
  loss: "Loss",
};

const OCTOBER = Date.UTC(2025, 9, 3, 10);
const HOUR = 3_600_000;

let admin: Awaited<ReturnType<typeof signedInAdmin>>;
let client: { id: string; email: string; cookie: string };
/** One approved row of each type in October 2025, by type: its reference and id. */
const rows = new Map<TransactionType, { id: number; reference: string }>();

beforeAll(async () => {
  admin = await signedInAdmin();
  const created = await createUser({ firstName: "Lena" });
  client = { ...created, cookie: await sessionCookieFor(created.id) };
  const extras: Partial<Record<TransactionType, { stock?: string; tradingPair?: string }>> = {
    stock_deposit: { stock: "AAPL" },
    profit: { tradingPair: "EUR/USD" },
    loss: { tradingPair: "EUR/USD" },
  };
  const order: TransactionType[] = ["deposit", "stock_deposit", "fee_deposit", "profit", "withdraw", "loss"];
  for (const [i, type] of order.entries()) {
    const id = await insertTransaction(client.id, {
      transactionType: type,
      status: "approved",
      amountCents: 10_000 - i * 100,
      createdAt: OCTOBER + i * HOUR,
      ...extras[type],
    });
    rows.set(type, { id, reference: transactionReference(id) });
  }
});

/** What each row's type reads as, by type, given where to find a row's type. */
function namesBy(typeOf: (row: { id: number; reference: string }) => string | undefined) {
  return Object.fromEntries([...rows].map(([type, row]) => [type, typeOf(row)]));
}

describe("every place names each transaction type the same way", () => {
  it("a statement's Movements and its Totals by type", async () => {
    const html = await (await getPage("/statements/2025-10", client.cookie)).text();
    const movements = tableRows(html, "statement-movements");
    // Date, reference, type: the type is the cell after the reference.
    expect(namesBy(({ reference }) => movements.find((cells) => cells[1] === reference)?.[2])).toEqual(NAMES);
    const totals = tableRows(html, "statement-totals").map((cells) => cells[0]);
    expect(totals).toEqual(["Type", ...Object.values(NAMES), "Closing balance"]);
  });

  it("History, the client page and /admin/transactions", async () => {
    const history = await (await getPage("/transactions", client.cookie)).text();
    expect(namesBy(({ reference }) => rowCells(history, reference)?.[2])).toEqual(NAMES);
    const clientPage = await (await getPage(`/user/${client.id}`, admin.cookie)).text();
    expect(namesBy(({ reference }) => rowCells(clientPage, reference)?.[1])).toEqual(NAMES);
    const all = await (
      await getPage(`/admin/transactions?client=${encodeURIComponent(client.email)}`, admin.cookie)
    ).text();
    expect(namesBy(({ reference }) => rowCells(all, reference)?.[2])).toEqual(NAMES);
  });

  it("every CSV", async () => {
    const csv = async (path: string, cookie: string) => csvRecords(await (await getPage(path, cookie)).text());
    const history = await csv("/transactions.csv", client.cookie);
    expect(namesBy(({ reference }) => history.find((r) => r.reference === reference)?.type)).toEqual(NAMES);
    const statement = await csv("/statements/2025-10.csv", client.cookie);
    expect(namesBy(({ reference }) => statement.find((r) => r.reference === reference)?.type)).toEqual(NAMES);
    const exported = await csv(`/user/${client.id}/export`, admin.cookie);
    expect(namesBy(({ id }) => exported.find((r) => r.id === String(id))?.type)).toEqual(NAMES);
    const all = await csv(`/admin/transactions.csv?client=${encodeURIComponent(client.email)}`, admin.cookie);
    expect(namesBy(({ reference }) => all.find((r) => r.Reference === reference)?.Type)).toEqual(NAMES);
  });

  it("the Approve button, its entry buttons and the client's decision mail", async () => {
    const id = await insertTransaction(client.id, {
      transactionType: "stock_deposit",
      stock: "MSFT",
      amountCents: 64_000,
      createdAt: Date.UTC(2025, 10, 1),
    });
    const page = await (await getPage(`/user/${client.id}`, admin.cookie)).text();
    // Inside a sentence the label is lower case; alone, as written.
    expect(buttonNames(page)).toContain("Approve stock deposit of $640.00");
    // The Actions card's entry buttons, one per type, none chosen yet.
    const entryButtons = elementsWith(page, "aria-pressed", "false").map(readText);
    for (const name of Object.values(NAMES)) expect(entryButtons).toContain(name);

    await postForm(`/user/${client.id}`, { intent: "approve", transactionId: String(id) }, { cookie: admin.cookie });
    const notice = await env.DB.prepare(
      "SELECT payload FROM email_outbox WHERE template = 'request_decided' AND dedupe_key = ?",
    )
      .bind(`request_decided:tx:${id}`)
      .first<{ payload: string }>();
    expect(JSON.parse(notice?.payload ?? "{}")).toMatchObject({ requestType: "Stock deposit" });
  });
});
