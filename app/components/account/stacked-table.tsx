import type { ReactNode } from "react";

/**
 * A table that stacks at phone width: from `sm` up, rows and columns as usual; below it, each row is a block
 * and each cell shows its column's name before its value, so nothing scrolls sideways.
 */
export function StackedTable({
  caption,
  columns,
  children,
}: {
  caption: string;
  columns: readonly string[];
  children: ReactNode;
}) {
  return (
    <table className="mt-4 w-full text-left text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead className="hidden text-ink-muted sm:table-header-group">
        <tr>
          {columns.map((heading) => (
            <th key={heading} scope="col" className="py-2 pr-4 font-medium">
              {heading}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="block divide-y divide-border sm:table-row-group">{children}</tbody>
    </table>
  );
}

/** One cell: at phone width its column's name stands before the value (the heading row is hidden there). */
export function StackedCell({ label, children }: { label: string; children: ReactNode }) {
  return (
    <td className="flex gap-3 py-0.5 sm:table-cell sm:py-2 sm:pr-4 sm:align-top">
      <span className="w-24 shrink-0 text-ink-muted sm:hidden">{label}</span>
      <span className="min-w-0 break-words">{children}</span>
    </td>
  );
}

export const stackedRowClass = "block py-3 sm:table-row sm:py-0";
