/**
 * A client's own history (/transactions) and its CSV (/transactions.csv): the same filters from the same
 * query, always narrowed to the signed-in client, so no parameter reaches another client's rows (a reference
 * of theirs finds nothing, like one that does not exist).
 */
import { and } from "drizzle-orm";
import type { HistoryFilters } from "~/lib/history-filters";
import { transactionReference } from "~/lib/reference";
import { csvStream, TRANSACTION_COLUMNS, transactionCells } from "../csv.server";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { type Keyset, keysetOf } from "../paging.server";
import {
  historyColumns,
  historyConditions,
  historyPage,
  historyPageClauses,
  historyRequest,
  onHistoryPage,
} from "./history.server";
import { madeByClient } from "./reads.server";

const { transactions } = schema;

/**
 * The client's History page: the history's rows with the reason the desk gave for its own entries, and whether the
 * client made each (only then is Cancel offered).
 */
export async function clientHistory(db: Db, userId: string, url: URL) {
  const { filters, submitted, errors, position } = historyRequest(url);
  const select = db
    .select({ ...historyColumns, memo: transactions.memo, madeByClient })
    .from(transactions)
    .$dynamic();
  return {
    filters,
    submitted,
    errors,
    ...historyPage(await onHistoryPage(select, { filters, userId }, position), position),
  };
}

export const CLIENT_HISTORY_COLUMNS = ["reference", ...TRANSACTION_COLUMNS] as const;

/** The filtered history as CSV, newest first like the page, read a keyset page at a time as the reader pulls. */
export function clientHistoryCsv(db: Db, userId: string, filters: HistoryFilters): ReadableStream<Uint8Array> {
  const where = historyConditions({ filters, userId });
  return csvStream({
    header: CLIENT_HISTORY_COLUMNS,
    readPage: (after: Keyset | undefined, limit) => {
      const { cursor, orderBy } = historyPageClauses({ after });
      return db
        .select(historyColumns)
        .from(transactions)
        .where(and(where, cursor))
        .orderBy(...orderBy)
        .limit(limit);
    },
    keyOf: keysetOf,
    cells: (row) => [transactionReference(row.id), ...transactionCells(row)],
  });
}
