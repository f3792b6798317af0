/**
 * A client's statement as CSV (/user/{id}/export): every transaction, oldest first, with the running ledger
 * balance that only approved rows move. Read 1,000 rows at a time, so a long history streams instead of
 * filling memory.
 */
import { and, eq } from "drizzle-orm";
import { centsToAmount, signedCents } from "~/lib/ledger";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { afterCursor, type Keyset, keysetOrderBy } from "../paging.server";

const { transactions } = schema;
const keyset = { createdAt: transactions.createdAt, id: transactions.id };
const CHUNK = 1000;

export const STATEMENT_HEADER =
  "id,date,type,status,amount,trading_pair,stock,wallet_address,withdrawal_address,balance";

export function statementCsv(db: Db, userId: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: Keyset | undefined;
  let balance = 0;
  let headerSent = false;
  return new ReadableStream({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(`${STATEMENT_HEADER}\r\n`));
      }
      const rows = await db
        .select()
        .from(transactions)
        .where(and(eq(transactions.userId, userId), afterCursor(keyset, after, "oldest")))
        .orderBy(...keysetOrderBy(keyset, "oldest"))
        .limit(CHUNK);
      if (rows.length === 0) {
        controller.close();
        return;
      }
      const lines = rows.map((row) => {
        if (row.status === "approved") balance += signedCents(row.transactionType, row.amountCents);
        return [
          row.id,
          new Date(row.createdAt).toISOString(),
          row.transactionType,
          row.status,
          centsToAmount(row.amountCents),
          row.tradingPair ?? "",
          row.stock ?? "",
          row.walletAddress ?? "",
          row.withdrawalWalletAddress ?? "",
          centsToAmount(balance),
        ]
          .map(csvField)
          .join(",");
      });
      controller.enqueue(encoder.encode(`${lines.join("\r\n")}\r\n`));
      const last = rows.at(-1);
      after = last ? { createdAt: last.createdAt, id: last.id } : undefined;
    },
  });
}

/** RFC 4180 quoting, and no leading formula characters (a spreadsheet must not run a cell). */
function csvField(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
