/**
 * The building blocks of a monthly statement's lists (/statements/{month}): one cell style, signed amounts, and a
 * table that stacks its rows on a phone's screen but stays a table on paper.
 */
import type { ReactNode } from "react";
import { Moment } from "~/components/moment";
import { type StackedColumn, StackedTable } from "~/components/stacked-table";
import { formatCents, formatSignedCents } from "~/lib/format";
import { typeLabel } from "~/lib/labels";
import type { TransactionType } from "~/lib/ledger";
import { transactionReference } from "~/lib/reference";

export const signed = formatSignedCents;

export const cell = "px-3 py-2";
export const numberCell = `${cell} text-right tabular-nums whitespace-nowrap`;

export function Figure({ label, cents, testId }: { label: string; cents: number; testId: string }) {
  return (
    <div className="rounded-lg border border-border p-4 print:p-2">
      <dt className="text-sm text-ink-muted">{label}</dt>
      <dd className="mt-1 text-xl font-semibold tabular-nums" data-testid={testId} data-cents={cents}>
        {formatCents(cents)}
      </dd>
    </div>
  );
}

/** A figures column: its heading aligned right, over its cells. */
export const numeric = (label: string): StackedColumn => ({ label, className: `${cell} text-right` });
/** The columns that say which transaction a row is, after its date: the same in both of the statement's lists. */
export const IDENTITY_COLUMNS = ["Reference", "Type", "Pair / stock"];

/**
 * A statement list: its header from `columns`; on paper it is not clipped (no sideways scrolling), and it stays a
 * table (the rows stack on a phone's screen only).
 */
export function StatementTable({
  testId,
  columns,
  children,
}: {
  testId: string;
  columns: StackedColumn[];
  children: ReactNode;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border border-border print:overflow-visible">
      <StackedTable
        testId={testId}
        columns={columns}
        className="w-full text-sm"
        headClassName="text-left text-ink-muted [&>tr]:border-b [&>tr]:border-border"
        headCellClassName={cell}
        bodyClassName="max-sm:[&>tr]:px-3"
      >
        {children}
      </StackedTable>
    </div>
  );
}

type Identified = { id: number; transactionType: TransactionType; tradingPair: string | null; stock: string | null };

/** The date, reference, type and pair or stock cells of one row. */
export function IdentityCells({ at, row }: { at: number; row: Identified }) {
  return (
    <>
      <td className={`${cell} whitespace-nowrap`}>
        <Moment at={at} />
      </td>
      <td className={`${cell} font-mono`}>{transactionReference(row.id)}</td>
      <td className={cell}>{typeLabel(row.transactionType)}</td>
      <td className={cell}>{row.tradingPair ?? row.stock ?? ""}</td>
    </>
  );
}
