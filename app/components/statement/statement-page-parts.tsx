/** What a statement's page and a yearly summary's page share around their content: the bar above it and the 404. */

import type { ReactNode } from "react";
import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { RouteError } from "~/components/route-error";

/** The way back to the list and the page's downloads; none of it is printed. */
export function StatementToolbar({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
      <Link to="/statements" className="text-sm text-brand hover:underline">
        All statements
      </Link>
      {children}
    </div>
  );
}

/** A period with no statement says why (the 404's text: not a period, or not begun), with the way back to the list. */
export function StatementNotFound({ title }: { title: string }) {
  const error = useRouteError();
  const text = isRouteErrorResponse(error) && typeof error.data === "string" ? error.data : null;
  return <RouteError notFound={{ title, text }} back={{ to: "/statements", label: "All statements" }} />;
}
