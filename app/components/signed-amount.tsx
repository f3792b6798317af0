import { formatCents } from "~/lib/format";
import { isCredit, type TransactionStatus, type TransactionType } from "~/lib/ledger";

/**
 * A transaction's amount with its direction. Only approved money is coloured (green in, red out): a pending
 * request is shown neutral, and a declined one grey and struck through, so neither reads as money moved.
 */
export function SignedAmount({
  type,
  status,
  cents,
}: {
  type: TransactionType;
  status: TransactionStatus;
  cents: number;
}) {
  const credit = isCredit(type);
  // One short class per look (app/tailwind.css): the History shows 50 of these a page.
  const look =
    status === "approved"
      ? credit
        ? "amount-credit"
        : "amount-debit"
      : status === "pending"
        ? "amount-pending"
        : "amount-void";
  return (
    <span className={look}>
      {credit ? "+" : "−"}
      {formatCents(cents)}
    </span>
  );
}
