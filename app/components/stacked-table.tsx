import type { CSSProperties, MouseEventHandler, ReactNode } from "react";

/** The body of the client's lists (History, sessions, sign-ins): divided rows, cells padded and aligned at the top. */
export const LIST_ROWS = "divide-y divide-border [&>tr>td]:py-2 [&>tr>td]:pr-4 [&>tr>td]:align-top";

/** A column: its heading, or its heading with a look of its own (a figures column aligned right). */
export type StackedColumn = string | { label: string; className: string };

const headingOf = (column: StackedColumn) => (typeof column === "string" ? column : column.label);

/**
 * A table of rows that reads on a phone: a table from Tailwind's `sm` up (640 px), and below it one block per row, each
 * cell on its line after its column's name, so a phone shows every column, actions included, without scrolling
 * sideways. The names are the `columns`, set once on the table as custom properties (`--col-1`, …) that the
 * `.stacked-table` rules of app/tailwind.css show before each cell by its position: rows and cells carry nothing
 * extra (docs/decisions/0029). A cell that does not sit under its own column (one spanning several) names itself
 * with `data-label`; an empty cell is left out at phone width. An empty heading (a buttons column) names nothing.
 *
 * What the cells share at desktop width (padding, alignment, fonts) stays on `bodyClassName`, set once (decision
 * 0027); at phone width the stacked layout takes over the cells' box.
 */
export function StackedTable({
  columns,
  caption,
  className = "w-full text-left text-sm",
  headClassName = "text-ink-muted",
  headCellClassName = "py-2 pr-4 font-medium",
  bodyClassName,
  onBodyClick,
  testId,
  children,
}: {
  columns: readonly StackedColumn[];
  /** Read by screen readers and tests (the table's name); not shown. */
  caption?: string;
  className?: string;
  headClassName?: string;
  headCellClassName?: string;
  bodyClassName?: string;
  /** One handler for the whole body (the desk's plain links, see useListNavigation), not one per row. */
  onBodyClick?: MouseEventHandler<HTMLTableSectionElement>;
  testId?: string;
  children: ReactNode;
}) {
  const names: Record<string, string> = {};
  columns.forEach((column, index) => {
    const heading = headingOf(column);
    if (heading) names[`--col-${index + 1}`] = `"${heading.replace(/["\\]/g, "\\$&")}"`;
  });
  return (
    <table className={`stacked-table ${className}`} style={names as CSSProperties} data-testid={testId}>
      {caption ? <caption className="sr-only">{caption}</caption> : null}
      <thead className={headClassName}>
        <tr>
          {columns.map((column) => (
            <th
              key={headingOf(column) || "actions"}
              scope="col"
              className={typeof column === "string" ? headCellClassName : column.className}
            >
              {headingOf(column)}
            </th>
          ))}
        </tr>
      </thead>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the clicks are the links', which the keyboard fires too */}
      <tbody className={bodyClassName} onClick={onBodyClick}>
        {children}
      </tbody>
    </table>
  );
}
