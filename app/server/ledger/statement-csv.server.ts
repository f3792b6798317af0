/**
 * A monthly statement as CSV (/statements/{month}.csv), streamed: the opening balance, then the movements with the
 * running balance, then the requests that moved nothing, read by the statement's own queries
 * (./statements.server.ts). Amounts follow the CSV convention of docs/product.md (positive, with a direction).
 * A month with orders ends with a second block after a blank line: its own header, then the orders oldest first,
 * so the first block's columns and rows stay as every reader of it knows them.
 */

import { typeLabel } from "~/lib/labels";
import { centsToAmount } from "~/lib/ledger";
import { priceDecimal, sharesDecimal } from "~/lib/money/orders";
import { signedCents } from "~/lib/money/rules";
import { ORDER_SIDE_LABELS, orderSerial } from "~/lib/order-lines";
import { transactionReference } from "~/lib/reference";
import { csvStream, MONEY_COLUMNS, moneyCells } from "../csv.server";
import type { Db } from "../db.server";
import type { OrderKey, OrderRow } from "../positions/reads.server";
import {
  type MovedKey,
  monthOrdersQuery,
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

/** The orders block's header, after the blank line that ends the statement's rows. */
export const STATEMENT_ORDER_CSV_COLUMNS = [
  "date",
  "order",
  "side",
  "stock",
  "shares",
  "price",
  "amount",
  "result",
  "result_amount",
] as const;

type CsvRow =
  | { kind: "opening"; cents: number }
  | { kind: "movement" | "request"; row: StatementRow }
  | { kind: "gap" }
  | { kind: "ordersHeader" }
  | { kind: "order"; order: OrderRow };
type CsvKey =
  | { kind: "movement" | "request"; at: number; id: number }
  | { kind: "opening" | "gap" | "ordersHeader" }
  | { kind: "order"; key: OrderKey };

/** An order's cells: a sale's result as the ledger entry it wrote (Profit or Loss) and its amount, positive. */
function orderCells(order: OrderRow) {
  const result = order.resultCents;
  return [
    new Date(order.at).toISOString(),
    orderSerial(order),
    ORDER_SIDE_LABELS[order.side],
    order.symbol,
    sharesDecimal(order.sharesE4),
    priceDecimal(order.priceE4),
    centsToAmount(order.cents),
    result === null || result === 0 ? "" : typeLabel(result > 0 ? "profit" : "loss"),
    result === null ? "" : centsToAmount(Math.abs(result)),
  ];
}

/**
 * The statement as CSV, streamed: the opening balance, then the movements with the running balance, then the
 * requests that moved nothing, then the orders' block. Each page is one keyset range of the month, `pageSize` rows
 * a read (the module's default; small in tests, so that every turn from one part to the next is crossed).
 */
export function monthlyStatementCsv(
  db: Db,
  userId: string,
  period: StatementPeriod,
  pageSize?: number,
): ReadableStream<Uint8Array> {
  let balance = 0;
  const ordersFrom = async (after: OrderKey | undefined, limit: number): Promise<CsvRow[]> => {
    const orders = (await monthOrdersQuery(db, userId, period, { after, limit })).map(
      (order): CsvRow => ({ kind: "order", order }),
    );
    // The block opens only on a month with orders, so a month without keeps its file as it was.
    return after || orders.length === 0 ? orders : [{ kind: "gap" }, { kind: "ordersHeader" }, ...orders];
  };
  const requestsFrom = async (after: { createdAt: number; id: number } | undefined, limit: number) => {
    const requests = (await requestsQuery(db, userId, period, after, limit)).map(
      (row): CsvRow => ({ kind: "request", row: row as StatementRow }),
    );
    return requests.length < limit
      ? [...requests, ...(await ordersFrom(undefined, limit - requests.length))]
      : requests;
  };
  const movementsThenRequests = async (after: MovedKey | undefined, limit: number) => {
    const moved = (await movementsQuery(db, userId, period, after, limit)).map(
      (row): CsvRow => ({ kind: "movement", row: row as StatementRow }),
    );
    return moved.length < limit ? [...moved, ...(await requestsFrom(undefined, limit - moved.length))] : moved;
  };
  return csvStream<CsvRow, CsvKey>({
    header: STATEMENT_CSV_COLUMNS,
    pageSize,
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
      if (after.kind === "request") return requestsFrom({ createdAt: after.at, id: after.id }, limit);
      return ordersFrom(after.kind === "order" ? after.key : undefined, limit);
    },
    keyOf: (item): CsvKey => {
      if (item.kind === "order")
        return { kind: "order", key: { at: item.order.at, side: item.order.side, id: item.order.id } };
      if (item.kind === "movement") return { kind: item.kind, at: item.row.movedAt, id: item.row.id };
      if (item.kind === "request") return { kind: item.kind, at: item.row.createdAt, id: item.row.id };
      return { kind: item.kind };
    },
    cells: (item) => {
      if (item.kind === "gap") return [];
      if (item.kind === "ordersHeader") return [...STATEMENT_ORDER_CSV_COLUMNS];
      if (item.kind === "order") return orderCells(item.order);
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
