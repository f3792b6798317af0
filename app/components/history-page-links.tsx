import { Link } from "react-router";
import { CLIENT_LINK_BUTTON, type HistoryAudience } from "~/components/history-filter-form";
import { type HistoryFilters, historySearch } from "~/lib/history-filters";

const LOOKS = {
  client: {
    label: "Pages",
    nav: "mt-4 flex justify-between gap-2",
    previous: CLIENT_LINK_BUTTON,
    // Next stays on the right on the first page too, where there is no Previous.
    next: `ml-auto ${CLIENT_LINK_BUTTON}`,
    // The client's page is the table: a new page starts at its top.
    keepScroll: false,
  },
  desk: {
    label: "Transaction pages",
    nav: "mt-3 flex gap-3 text-sm",
    previous: "text-brand hover:underline",
    next: "text-brand hover:underline",
    // The desk's tables sit below other panels: paging keeps the table in view.
    keepScroll: true,
  },
} as const;

/**
 * Previous and Next under a keyset-paged transaction history, each keeping the view's filters (`extra`: the
 * desk's own, such as client and amount). Nothing when the history fits on one page.
 */
export function HistoryPageLinks({
  look,
  filters,
  extra,
  previous,
  next,
}: {
  look: HistoryAudience;
  filters: HistoryFilters;
  extra?: Record<string, string | undefined>;
  previous: string | null;
  next: string | null;
}) {
  if (!previous && !next) return null;
  const style = LOOKS[look];
  const href = (page: { after?: string; before?: string }) => historySearch(filters, page, extra) || "?";
  return (
    <nav aria-label={style.label} className={style.nav}>
      {previous ? (
        <Link
          to={href({ before: previous })}
          rel="prev"
          className={style.previous}
          preventScrollReset={style.keepScroll}
        >
          Previous
        </Link>
      ) : null}
      {next ? (
        <Link to={href({ after: next })} rel="next" className={style.next} preventScrollReset={style.keepScroll}>
          Next
        </Link>
      ) : null}
    </nav>
  );
}
