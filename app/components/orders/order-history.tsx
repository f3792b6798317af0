/**
 * The Orders section of History (/transactions): the client's buys and sales newest first, 50 a page, each with
 * its serial, side in words, stock, shares, price, amount, and a sale's result (signed, in words to a screen
 * reader) or a buy's position status. "Show older orders" pages by keyset and keeps the rest of the address.
 */
import { Link, useLocation } from "react-router";
import { Moment } from "~/components/moment";
import { Result } from "~/components/orders/result";
import { LIST_ROWS, type StackedColumn, StackedTable } from "~/components/stacked-table";
import { formatCents } from "~/lib/format";
import { formatPrice, formatShares } from "~/lib/money/orders";
import { ORDER_SIDE_LABELS, type OrderLine, orderSerial, POSITION_STATUS_LABELS } from "~/lib/order-lines";
import { CLIENT_LINK_BUTTON } from "../history-filter-form";

const FIGURE = { className: "py-2 pr-4 text-right font-medium" };
const COLUMNS: StackedColumn[] = [
  "Date and time",
  "Order",
  "Side",
  "Stock",
  { label: "Shares", ...FIGURE },
  { label: "Price", ...FIGURE },
  { label: "Amount", ...FIGURE },
  { label: "Result or status", ...FIGURE },
];

export function OrderHistory({
  orders,
  olderOrders,
  olderPage,
  caption = "Your orders, newest first",
}: {
  orders: OrderLine[];
  olderOrders: string | null;
  olderPage: boolean;
  caption?: string;
}) {
  const location = useLocation();
  const pageHref = (cursor: string | null) => {
    const search = new URLSearchParams(location.search);
    if (cursor) search.set("ordersBefore", cursor);
    else search.delete("ordersBefore");
    const query = search.toString();
    return `${location.pathname}${query ? `?${query}` : ""}#orders`;
  };
  return (
    <article id="orders" aria-labelledby="orders-title" className="rounded-xl border border-border bg-surface p-5">
      <h2 id="orders-title" className="text-xl font-semibold">
        Orders
      </h2>
      {orders.length === 0 ? (
        <p className="mt-4 text-sm text-ink-muted" data-testid="orders-empty">
          {olderPage ? "No older orders." : "No orders yet."}
        </p>
      ) : (
        <StackedTable
          caption={caption}
          columns={COLUMNS}
          className="mt-4 w-full text-left text-sm"
          bodyClassName={LIST_ROWS}
          testId="order-history"
        >
          {orders.map((order) => (
            <tr key={orderSerial(order)} data-testid="order-row" data-side={order.side}>
              <td>
                <Moment at={order.at} />
              </td>
              <td className="whitespace-nowrap font-mono">{orderSerial(order)}</td>
              <td>{ORDER_SIDE_LABELS[order.side]}</td>
              <td>
                <Link
                  to={`/stocks/${encodeURIComponent(order.symbol)}`}
                  className="font-semibold text-brand hover:underline"
                >
                  {order.symbol}
                </Link>
              </td>
              <td className="text-right tabular-nums">{formatShares(order.sharesE4)}</td>
              <td className="text-right tabular-nums">{formatPrice(order.priceE4)}</td>
              <td className="text-right tabular-nums">{formatCents(order.cents)}</td>
              <td className="text-right tabular-nums">
                {order.resultCents === null ? (
                  POSITION_STATUS_LABELS[order.status]
                ) : (
                  <Result cents={order.resultCents} />
                )}
              </td>
            </tr>
          ))}
        </StackedTable>
      )}
      {olderOrders || olderPage ? (
        <nav aria-label="Order pages" className="mt-4 flex justify-between gap-2">
          {olderPage ? (
            <Link to={pageHref(null)} className={CLIENT_LINK_BUTTON}>
              Newest orders
            </Link>
          ) : null}
          {olderOrders ? (
            <Link to={pageHref(olderOrders)} className={`ml-auto ${CLIENT_LINK_BUTTON}`}>
              Show older orders
            </Link>
          ) : null}
        </nav>
      ) : null}
    </article>
  );
}
