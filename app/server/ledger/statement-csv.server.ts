/**
 * A monthly statement as CSV (/statements/{month}.csv), streamed: the opening balance, then the movements with the
 * running balance, then the requests that moved nothing, read by the statement's own queries
 * (./statements.server.ts). Amounts follow the CSV convention of docs/product.md (positive, with a direction).
 */

import { typeLabel } from "~/lib/labels";
import { centsToAmount } from "~/lib/ledger";
import { signedCents } from "~/lib/money/rules";
import { transactionReference } from "~/lib/reference";
import { csvStream, MONEY_COLUMNS, moneyCells } from "../csv.server";
import type { Db } from "../db.server";
import {
  type MovedKey,
  movementsQuery,
  openingQuery,
  requestsQuery,
  type StatementPeriod,
  type StatementRow,
} from "./statements.server";

export const STATEMENT_CSV_COLUMNS = [
  "date",
  "reference",
  "type",
  "status",
  "trading_pair",
  "stock",
  ...MONEY_COLUMNS,
  "balance",
] as const;

type CsvRow = { kind: "opening"; cents: number } | { kind: "movement" | "request"; row: StatementRow };
type CsvKey = { kind: "movement" | "request"; at: number; id: number } | { kind: "opening" };

/**
 * The statement as CSV, streamed: the opening balance, then the movements with the running balance, then the
 * requests that moved nothing. Each page is one keyset range of the month.
 */
export function monthlyStatementCsv(db: Db, userId: string, period: StatementPeriod): ReadableStream<Uint8Array> {
  let balance = 0;
  const requestsFrom = async (after: { createdAt: number; id: number } | undefined, limit: number) =>
    (await requestsQuery(db, userId, period, after, limit)).map(
      (row): CsvRow => ({ kind: "request", row: row as StatementRow }),
    );
  const movementsThenRequests = async (after: MovedKey | undefined, limit: number) => {
    const moved = (await movementsQuery(db, userId, period, after, limit)).map(
      (row): CsvRow => ({ kind: "movement", row: row as StatementRow }),
    );
    return moved.length < limit ? [...moved, ...(await requestsFrom(undefined, limit - moved.length))] : moved;
  };
  return csvStream<CsvRow, CsvKey>({
    header: STATEMENT_CSV_COLUMNS,
    readPage: async (after, limit) => {
      if (!after) {
        const [opening] = await openingQuery(db, userId, period.month);
        return [
          { kind: "opening", cents: Number(opening?.cents ?? 0) },
          ...(await movementsThenRequests(undefined, limit)),
        ];
      }
      if (after.kind === "opening") return movementsThenRequests(undefined, limit);
      if (after.kind === "movement") return movementsThenRequests({ movedAt: after.at, id: after.id }, limit);
      return requestsFrom({ createdAt: after.at, id: after.id }, limit);
    },
    keyOf: (item) =>
      item.kind === "opening"
        ? { kind: "opening" }
        : { kind: item.kind, at: item.kind === "movement" ? item.row.movedAt : item.row.createdAt, id: item.row.id },
    cells: (item) => {
      if (item.kind === "opening") {
        balance = item.cents;
        return [
          new Date(period.start).toISOString(),
          "",
          "Opening balance",
          "",
          "",
          "",
          "",
          "",
          centsToAmount(balance),
        ];
      }
      const { row } = item;
      const moved = item.kind === "movement";
      if (moved) balance += signedCents(row.transactionType, row.amountCents);
      return [
        new Date(moved ? row.movedAt : row.createdAt).toISOString(),
        transactionReference(row.id),
        typeLabel(row.transactionType),
        row.status,
        row.tradingPair,
        row.stock,
        ...moneyCells(row.transactionType, row.amountCents),
        moved ? centsToAmount(balance) : "",
      ];
    },
  });
}
