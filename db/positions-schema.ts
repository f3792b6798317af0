/**
 * Orders and positions (docs/product.md, "Orders and positions"): each buy order opens a position at the ask of
 * the server's quote; each sell order closes the client's open positions of a stock oldest first, at the bid, and
 * writes its result to the ledger as a profit or loss entry. Shares are integers in ten-thousandths of a share and
 * prices in ten-thousandths of a dollar; money is integer cents, as everywhere.
 */
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { POSITION_STATUSES } from "./enums";
import { users } from "./schema";

const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));

/**
 * One position: its id is its serial number (P-000123; AUTOINCREMENT never reuses one). Its open shares and the
 * cost they carry are reserved: taken off what the client may withdraw or spend until they are sold.
 */
export const positions = sqliteTable(
  "positions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    symbol: text("symbol").notNull(),
    /** Shares bought, in ten-thousandths. */
    sharesE4: integer("shares_e4").notNull(),
    /** The ask it was bought at, in ten-thousandths of a dollar, and the time of that quote. */
    priceE4: integer("price_e4").notNull(),
    quoteAt: integer("quote_at").notNull(),
    /** What it cost: shares x price, rounded to the cent. */
    costCents: integer("cost_cents").notNull(),
    /** What is still open, and the part of the cost it carries. */
    openSharesE4: integer("open_shares_e4").notNull(),
    openCostCents: integer("open_cost_cents").notNull(),
    status: text("status", { enum: POSITION_STATUSES }).notNull().default("open"),
    /** The form's key: a double click or a retried request is one position. */
    idempotencyKey: text("idempotency_key").notNull(),
    openedAt: integer("opened_at").notNull(),
    /** When its last shares were sold, or when the client cancelled it. */
    endedAt: integer("ended_at"),
  },
  (t) => [
    check("positions_status", sql`${t.status} IN (${inList(POSITION_STATUSES)})`),
    check("positions_bought", sql`${t.sharesE4} > 0 AND ${t.priceE4} > 0 AND ${t.costCents} > 0`),
    check(
      "positions_open_part",
      sql`${t.openSharesE4} BETWEEN 0 AND ${t.sharesE4} AND ${t.openCostCents} BETWEEN 0 AND ${t.costCents}`,
    ),
    check(
      "positions_open_until_sold",
      sql`(${t.status} = 'open') = (${t.openSharesE4} > 0) AND (${t.openSharesE4} > 0 OR ${t.openCostCents} = 0)`,
    ),
    uniqueIndex("positions_user_idempotency_uq").on(t.userId, t.idempotencyKey),
    // The reserve and a sale's lots, oldest first: one client's open positions of one stock.
    index("positions_open_idx").on(t.userId, t.symbol, t.openedAt, t.id).where(sql`status = 'open'`),
    // A client's orders, newest first (History, the admin's client page).
    index("positions_user_recent_idx").on(t.userId, t.openedAt, t.id),
  ],
);

/**
 * One sell order: the shares sold at the bid, the cost of the lots it closed (oldest first) and the result, which
 * is the ledger row `transaction_id` (none when the result is zero). Its id is its serial number (S-000045).
 */
export const stockSales = sqliteTable(
  "stock_sales",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    symbol: text("symbol").notNull(),
    sharesE4: integer("shares_e4").notNull(),
    priceE4: integer("price_e4").notNull(),
    quoteAt: integer("quote_at").notNull(),
    /** Shares x bid, rounded to the cent. */
    proceedsCents: integer("proceeds_cents").notNull(),
    /** The cost of the lots it closed, and proceeds - cost; both set by the batch that writes the sale. */
    costCents: integer("cost_cents").notNull().default(0),
    resultCents: integer("result_cents").notNull().default(0),
    transactionId: integer("transaction_id"),
    /** The client, or the admin who closed the client's position. */
    soldBy: text("sold_by").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    soldAt: integer("sold_at").notNull(),
    /** Set by the batch's last statement: the lots are closed and the result written, once. */
    settledAt: integer("settled_at"),
  },
  (t) => [
    check("stock_sales_sold", sql`${t.sharesE4} > 0 AND ${t.priceE4} > 0 AND ${t.proceedsCents} >= 0`),
    uniqueIndex("stock_sales_user_idempotency_uq").on(t.userId, t.idempotencyKey),
    index("stock_sales_user_recent_idx").on(t.userId, t.soldAt, t.id),
  ],
);

/** Which lots a sale closed, and how much of each: the FIFO record the realized gains are read from. */
export const positionCloses = sqliteTable(
  "position_closes",
  {
    saleId: integer("sale_id").notNull(),
    positionId: integer("position_id").notNull(),
    sharesE4: integer("shares_e4").notNull(),
    costCents: integer("cost_cents").notNull(),
  },
  (t) => [
    check("position_closes_part", sql`${t.sharesE4} > 0 AND ${t.costCents} >= 0`),
    uniqueIndex("position_closes_uq").on(t.saleId, t.positionId),
    index("position_closes_position_idx").on(t.positionId),
  ],
);
