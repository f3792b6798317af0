import type { ReactNode } from "react";
import { Link } from "react-router";

/** A back-office page's heading: the way back to the Admin Panel, the page's title and, if given, what it shows. */
export function AdminPageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div>
      <Link to="/admin" className="text-sm text-brand hover:underline">
        Back to Admin Panel
      </Link>
      <h1 className="mt-1 text-3xl font-bold">{title}</h1>
      {children ? <p className="mt-1 text-sm text-ink-muted">{children}</p> : null}
    </div>
  );
}

/** Another page of the back office on its way: said over the one still shown, which a screen reader hears. */
export function LoadingNotice() {
  return (
    <div
      role="status"
      className="fixed inset-x-0 top-16 z-30 mx-auto w-fit rounded-md bg-surface-raised px-4 py-2 text-sm"
    >
      Loading…
    </div>
  );
}
