import { beforeAll, describe, expect, it } from "vitest";
import { transactionReference } from "~/lib/reference";
import { createUser, getPage, insertTransaction, sessionCookieFor, signedInAdmin } from "../support/fixtures";
import { csvRecords } from "../support/tables";

/**
 * Every CSV writes a transaction's money one way (docs/product.md, "CSV downloads"): `amount` always positive,
 * `direction` 'in' or 'out' by type, whatever the status, so an accountant never meets a sign that says money
 * moved when it did not.
 */
const AT = (day: number) => Date.UTC(2025, 9, day, 9);

let admin: Awaited<ReturnType<typeof signedInAdmin>>;
let client: { id: string; email: string; cookie: string };
/** A deposit (approved), then a withdrawal approved, one rejected and one cancelled, in October 2025. */
let ids: { deposit: number; approved: number; rejected: number; cancelled: number };

beforeAll(async () => {
  admin = await signedInAdmin();
  const created = await createUser({ firstName: "Ada" });
  client = { ...created, cookie: await sessionCookieFor(created.id) };
  const row = (day: number, transactionType: "deposit" | "withdraw", status: string, amountCents: number) =>
    insertTransaction(client.id, {
      transactionType,
      status: status as "approved",
      amountCents,
      createdAt: AT(day),
      // Decided the day it was asked for, as a statement dates a movement by its decision.
      decidedAt: status === "pending" ? null : AT(day) + 60_000,
    });
  ids = {
    deposit: await row(2, "deposit", "approved", 50_000),
    approved: await row(5, "withdraw", "approved", 10_000),
    rejected: await row(6, "withdraw", "rejected", 4_000),
    cancelled: await row(7, "withdraw", "cancelled", 3_050),
  };
});

const ref = (id: number) => transactionReference(id);
const download = async (path: string, cookie: string) => {
  const response = await getPage(path, cookie);
  expect(response.status).toBe(200);
  return csvRecords(await response.text());
};
/** Only the named columns of each record, in order. */
const pick = (records: Array<Record<string, string>>, columns: string[]) =>
  records.map((record) => columns.map((column) => record[column]));

describe("the money columns of every CSV", () => {
  it("History's CSV (/transactions.csv)", async () => {
    const records = await download("/transactions.csv", client.cookie);
    expect(pick(records, ["reference", "type", "status", "direction", "amount"])).toEqual([
      [ref(ids.cancelled), "Withdrawal", "cancelled", "out", "30.50"],
      [ref(ids.rejected), "Withdrawal", "rejected", "out", "40.00"],
      [ref(ids.approved), "Withdrawal", "approved", "out", "100.00"],
      [ref(ids.deposit), "Deposit", "approved", "in", "500.00"],
    ]);
  });

  it("the statement's CSV (/statements/{month}.csv), its balance moved by approved rows only", async () => {
    const records = await download("/statements/2025-10.csv", client.cookie);
    expect(pick(records, ["reference", "type", "status", "direction", "amount", "balance"])).toEqual([
      ["", "Opening balance", "", "", "", "0.00"],
      [ref(ids.deposit), "Deposit", "approved", "in", "500.00", "500.00"],
      [ref(ids.approved), "Withdrawal", "approved", "out", "100.00", "400.00"],
      [ref(ids.rejected), "Withdrawal", "rejected", "out", "40.00", ""],
      [ref(ids.cancelled), "Withdrawal", "cancelled", "out", "30.50", ""],
    ]);
  });

  it("the client page's export (/user/{id}/export)", async () => {
    const records = await download(`/user/${client.id}/export`, admin.cookie);
    expect(pick(records, ["id", "type", "status", "direction", "amount", "balance"])).toEqual([
      [String(ids.deposit), "Deposit", "approved", "in", "500.00", "500.00"],
      [String(ids.approved), "Withdrawal", "approved", "out", "100.00", "400.00"],
      [String(ids.rejected), "Withdrawal", "rejected", "out", "40.00", "400.00"],
      [String(ids.cancelled), "Withdrawal", "cancelled", "out", "30.50", "400.00"],
    ]);
  });

  it("all transactions' CSV (/admin/transactions.csv)", async () => {
    const records = await download(`/admin/transactions.csv?client=${encodeURIComponent(client.email)}`, admin.cookie);
    expect(pick(records, ["Reference", "Type", "Status", "Direction", "Amount (USD)"])).toEqual([
      [ref(ids.cancelled), "Withdrawal", "cancelled", "out", "30.50"],
      [ref(ids.rejected), "Withdrawal", "rejected", "out", "40.00"],
      [ref(ids.approved), "Withdrawal", "approved", "out", "100.00"],
      [ref(ids.deposit), "Deposit", "approved", "in", "500.00"],
    ]);
  });
});
