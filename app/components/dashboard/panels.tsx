import type { ReactNode } from "react";
import { Link } from "react-router";
import { historySearch } from "~/lib/history-filters";

/** A figure's card: a small title over its value. */
export function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <article className="rounded-xl border border-border bg-surface p-5">
      <h2 className="text-sm font-medium text-ink-muted">{title}</h2>
      <div className="mt-2">{children}</div>
    </article>
  );
}

/** A list's panel: its title, an optional action on the right, and the list. */
export function Panel({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <article className="rounded-xl border border-border bg-surface p-5">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">{title}</h2>
        {action}
      </div>
      <div className="mt-4">{children}</div>
    </article>
  );
}

/** 'View all': the full history, filtered to what the panel shows. */
export function ViewAll({ filters, what }: { filters: Parameters<typeof historySearch>[0]; what: string }) {
  return (
    <Link
      to={`/transactions${historySearch(filters)}`}
      aria-label={`View all ${what}`}
      className="text-sm font-medium text-brand hover:underline"
    >
      View all
    </Link>
  );
}

/** What a panel says when it has nothing to list. */
export const Empty = ({ children }: { children: ReactNode }) => <p className="text-sm text-ink-muted">{children}</p>;
