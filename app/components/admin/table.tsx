import { Link, useSearchParams } from "@remix-run/react";

/** A back-office table's column headings, muted, each a `scope="col"` header; an empty one heads a buttons column. */
export function ColumnHeads({ columns }: { columns: readonly string[] }) {
  return (
    <thead className="text-ink-muted">
      <tr>
        {columns.map((heading) => (
          <th key={heading || "actions"} scope="col" className="py-2 pr-4 font-medium">
            {heading}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/**
 * The links under a table paged newest first by a `before` cursor: "Newest" back to the first page (shown on an
 * older page only), and the link to the next older page while there is one.
 */
export function NewestOlderLinks({ next, olderLabel }: { next: string | null; olderLabel: string }) {
  const [params] = useSearchParams();
  return (
    <div className="mt-3 flex gap-3 text-sm">
      {params.get("before") ? (
        <Link to="." className="text-brand hover:underline">
          Newest
        </Link>
      ) : null}
      {next ? (
        <Link to={`?before=${next}`} className="text-brand hover:underline">
          {olderLabel}
        </Link>
      ) : null}
    </div>
  );
}
