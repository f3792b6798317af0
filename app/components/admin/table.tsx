import { Link, useSearchParams } from "react-router";

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

/** A link under a paged table, or null where there is no such page. */
export type PageLink = { to: string; label: string } | null;

/** The links under a paged table, in order, each shown only where there is a page to go to. */
export function PagerLinks({ links }: { links: readonly PageLink[] }) {
  return (
    <div className="mt-3 flex gap-3 text-sm">
      {links.map((link) =>
        link ? (
          <Link key={link.label} to={link.to} className="text-brand hover:underline">
            {link.label}
          </Link>
        ) : null,
      )}
    </div>
  );
}

/**
 * The links under a table paged newest first by a `before` cursor: "Newest" back to the first page (shown on an
 * older page only), and the link to the next older page while there is one.
 */
export function NewestOlderLinks({ next, olderLabel }: { next: string | null; olderLabel: string }) {
  const [params] = useSearchParams();
  return (
    <PagerLinks
      links={[
        params.get("before") ? { to: ".", label: "Newest" } : null,
        next ? { to: `?before=${next}`, label: olderLabel } : null,
      ]}
    />
  );
}
