import { describe, expect, it } from "vitest";
import { transactionReference } from "~/lib/reference";
import { adminTransactionsCsv } from "~/server/admin/transactions-csv.server";
import { createUser, db, getPage, insertTransaction, signedInAdmin } from "../support/fixtures";

/**
 * The whole-firm CSV reads each client once per download, not once per row: every row still names its own
 * client, across pages, when a client comes back pages later, and when the download has met more clients than it
 * keeps and starts its list again.
 */
describe("/admin/transactions.csv's clients", () => {
  it("names each row's own client, whatever page it is on and however many clients the download met", async () => {
    const names = ["Ada Csvclients", "Bo Csvclients", "Cy Csvclients"];
    const people = [];
    for (const firstName of names) people.push({ firstName, ...(await createUser({ firstName })) });
    const expected: string[] = [];
    const start = Date.parse("2024-02-01T00:00:00Z");
    // Eleven rows, the clients in an order that brings each back after the others: A B C A C B A B C A A.
    for (const [i, who] of [0, 1, 2, 0, 2, 1, 0, 1, 2, 0, 0].entries()) {
      const person = people[who] as (typeof people)[number];
      const id = await insertTransaction(person.id, { amountCents: 100 * (i + 1), createdAt: start + i * 60_000 });
      expected.unshift(`${transactionReference(id)},${person.firstName} Tester,${person.email}`);
    }
    const filters = { client: "csvclients" };
    const lines = async (stream: ReadableStream<Uint8Array>) =>
      (await new Response(stream).text())
        .split("\r\n")
        .slice(1, -1)
        .map((line) =>
          line
            .split(",")
            .filter((_, column) => column === 0 || column === 2 || column === 3)
            .join(","),
        );

    // Pages of 2 rows; a download that keeps at most 2 clients starts its list again on most pages.
    expect(await lines(adminTransactionsCsv(db, filters, { pageSize: 2, clientsKept: 2 }))).toEqual(expected);
    expect(await lines(adminTransactionsCsv(db, filters, { pageSize: 3, clientsKept: 3 }))).toEqual(expected);
    // The download itself (its own page size and list) says the same.
    const admin = await signedInAdmin();
    const response = await getPage("/admin/transactions.csv?client=csvclients", admin.cookie);
    expect(await lines(response.body as ReadableStream<Uint8Array>)).toEqual(expected);
  });
});
