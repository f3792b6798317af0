/**
 * /admin/transactions.csv: the filtered view of /admin/transactions as CSV, newest first, streamed a keyset page at
 * a time. A page's rows are read without their clients, and each client's name and e-mail once per download (a
 * look-up of the clients a page brings that the download has not met yet): a client's rows are many, and a look-up
 * per row, at random over a client table ten times as large, was most of the whole-firm file's time at 100,000
 * clients (docs/performance.md, the growth run).
 */
import { sql } from "drizzle-orm";
import type { AdminTransactionFilters } from "~/lib/admin-transaction-filters";
import { typeLabel } from "~/lib/labels";
import { displayName } from "~/lib/person-name";
import { transactionReference } from "~/lib/reference";
import { CSV_PAGE_SIZE, csvStream, moneyCells } from "../csv.server";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { historyColumns } from "../ledger/history.server";
import type { Keyset } from "../paging.server";
import { type TransactionsRead, transactionsReadOf } from "./transaction-reads.server";
import { adminTransactionsPageClauses } from "./transactions.server";

const { transactions } = schema;

/** Clients a download keeps at most: beyond, it starts again (memory stays bounded whatever the firm's size). */
const CLIENTS_KEPT = 50_000;

interface Client {
  name: string;
  email: string;
}

/** The clients of `ids` not met yet, read in one statement into `known`: afterwards every one of `ids` is there. */
async function meetClients(db: Db, known: Map<string, Client>, ids: string[], clientsKept: number) {
  const page = [...new Set(ids)];
  if (known.size + page.length > clientsKept) known.clear();
  const unmet = page.filter((id) => !known.has(id));
  if (unmet.length === 0) return;
  const found = await db.all<{ id: string; email: string; firstName: string | null; lastName: string | null }>(
    sql`SELECT u.id, u.email, p.first_name AS firstName, p.last_name AS lastName
        FROM users u LEFT JOIN profiles p ON p.user_id = u.id
        WHERE u.id IN (SELECT value FROM json_each(${JSON.stringify(unmet)}))`,
  );
  for (const client of found)
    known.set(client.id, { name: displayName(client.firstName, client.lastName, client.email), email: client.email });
}

/** The filtered view as CSV, newest first, streamed a keyset page at a time. */
export function adminTransactionsCsv(
  db: Db,
  filters: AdminTransactionFilters,
  { clientsKept = CLIENTS_KEPT, pageSize = CSV_PAGE_SIZE } = {},
): ReadableStream<Uint8Array> {
  let read: Promise<TransactionsRead> | undefined;
  const clients = new Map<string, Client>();
  return csvStream({
    header: [
      "Reference",
      "Date (UTC)",
      "Client",
      "E-mail",
      "Type",
      "Pair/Stock",
      "Direction",
      "Amount (USD)",
      "Status",
    ],
    readPage: async (after: Keyset | undefined, limit) => {
      read ??= transactionsReadOf(db, filters);
      const { where, orderBy } = adminTransactionsPageClauses(filters, await read, { after }, limit);
      const rows = await db
        .select(historyColumns)
        .from(transactions)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit);
      await meetClients(
        db,
        clients,
        rows.map((row) => row.userId),
        clientsKept,
      );
      return rows.map((row) => ({ ...row, client: clients.get(row.userId) }));
    },
    keyOf: (row) => ({ createdAt: row.createdAt, id: row.id }),
    cells: (row) => [
      transactionReference(row.id),
      new Date(row.createdAt).toISOString(),
      row.client?.name ?? "",
      row.client?.email ?? "",
      typeLabel(row.transactionType),
      row.tradingPair ?? row.stock ?? "",
      ...moneyCells(row.transactionType, row.amountCents),
      row.status,
    ],
    pageSize,
  });
}
