/**
 * The Orders section of a monthly statement (/statements/{month}): the month's buys and sales, oldest first, with
 * what each traded and a sale's result, which the movements above carry as a Profit or Loss entry.
 */
import { Result } from "~/components/orders/result";
import { formatCents } from "~/lib/format";
import { formatPrice, formatShares } from "~/lib/money/orders";
import { ORDER_COLUMN_LABELS, ORDER_SIDE_LABELS, type OrderLine, orderSerial } from "~/lib/order-lines";
import { MONTH_ORDERS_EMPTY, MONTH_ORDERS_NOTE } from "~/lib/statement-orders";
import { Moment } from "../moment";
import { cell, numberCell, numeric, StatementTable } from "./statement-table";

const FIGURES = new Set<string>(["Shares", "Price", "Amount", "Result"]);
const COLUMNS = ["Date", ...ORDER_COLUMN_LABELS.map((label) => (FIGURES.has(label) ? numeric(label) : label))];

export function StatementOrders({ orders }: { orders: OrderLine[] }) {
  return (
    <section aria-labelledby="orders-title" className="space-y-2">
      <h2 id="orders-title" className="text-lg font-semibold">
        Orders
      </h2>
      <p className="text-sm text-ink-muted">{MONTH_ORDERS_NOTE}</p>
      {orders.length === 0 ? (
        <p className="text-ink-muted">{MONTH_ORDERS_EMPTY}</p>
      ) : (
        <StatementTable testId="statement-orders" columns={COLUMNS}>
          {orders.map((order) => (
            <tr key={orderSerial(order)} className="border-b border-border last:border-0">
              <td className={`${cell} whitespace-nowrap`}>
                <Moment at={order.at} />
              </td>
              <td className={`${cell} font-mono`}>{orderSerial(order)}</td>
              <td className={cell}>{ORDER_SIDE_LABELS[order.side]}</td>
              <td className={cell}>{order.symbol}</td>
              <td className={numberCell}>{formatShares(order.sharesE4)}</td>
              <td className={numberCell}>{formatPrice(order.priceE4)}</td>
              <td className={numberCell}>{formatCents(order.cents)}</td>
              <td className={numberCell}>{order.resultCents === null ? "" : <Result cents={order.resultCents} />}</td>
            </tr>
          ))}
        </StatementTable>
      )}
    </section>
  );
}
