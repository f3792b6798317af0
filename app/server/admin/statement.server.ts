/**
 * A client's statement as CSV (/user/{id}/export): every transaction, oldest first, with the running ledger
 * balance that only approved rows move, streamed a page at a time (app/server/csv.server.ts).
 */
import { eq } from "drizzle-orm";
import { centsToAmount, signedCents } from "~/lib/ledger";
import { ADMIN_ENTRY_WALLET } from "../../../db/enums";
import { csvStream, TRANSACTION_COLUMNS, transactionCells } from "../csv.server";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { type Keyset, keysetOf, readKeyset } from "../paging.server";

const { transactions } = schema;
const keyset = { createdAt: transactions.createdAt, id: transactions.id };

export const STATEMENT_COLUMNS = [
  "id",
  ...TRANSACTION_COLUMNS,
  "wallet_address",
  "withdrawal_address",
  "balance",
] as const;

export function statementCsv(db: Db, userId: string): ReadableStream<Uint8Array> {
  let balance = 0;
  return csvStream({
    header: STATEMENT_COLUMNS,
    readPage: (after: Keyset | undefined, limit) =>
      readKeyset(
        db.select().from(transactions).$dynamic(),
        keyset,
        eq(transactions.userId, userId),
        after,
        "oldest",
        limit,
      ),
    keyOf: keysetOf,
    cells: (row) => {
      if (row.status === "approved") balance += signedCents(row.transactionType, row.amountCents);
      // A desk entry's row keeps a marker where a deposit keeps the firm's wallet: no address was used.
      const wallet = row.walletAddress === ADMIN_ENTRY_WALLET ? "" : row.walletAddress;
      return [row.id, ...transactionCells(row), wallet, row.withdrawalWalletAddress, centsToAmount(balance)];
    },
  });
}
