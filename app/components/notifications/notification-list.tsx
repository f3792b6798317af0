import { Form, Link, useNavigation } from "react-router";
import { Moment } from "~/components/moment";

interface NotificationItem {
  id: number;
  createdAt: number;
  unread: boolean;
  title: string;
  detail: string;
  href: string;
}

const BUTTON =
  "whitespace-nowrap rounded-md border border-border px-3 py-2 text-sm font-medium text-ink hover:bg-surface-raised disabled:opacity-60";
const PAGE_LINK = "rounded-md border border-border px-3 py-2 text-sm font-medium text-ink hover:bg-surface-raised";

/**
 * The notification centre's list: newest first, each linked to its subject, the unread ones marked in words (not
 * by colour alone) with their own Mark as read; Mark all as read on top, Previous and Next below.
 */
export function NotificationList({
  rows,
  next,
  previous,
}: {
  rows: NotificationItem[];
  next: string | null;
  previous: string | null;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  // What is being marked shows as read at once, not after the list is read again.
  const sending = navigation.formData;
  const markedNow = (id: number) =>
    sending?.get("intent") === "read-all" || (sending?.get("intent") === "read" && sending.get("id") === String(id));
  const shown = rows.map((row) => (row.unread && markedNow(row.id) ? { ...row, unread: false } : row));
  const anyUnread = shown.some((row) => row.unread);
  return (
    <article className="rounded-xl border border-border bg-surface p-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-ink-muted">
          Requests decided, entries posted, orders, verification and security news.
        </p>
        {anyUnread ? (
          <Form method="post">
            <button type="submit" name="intent" value="read-all" className={BUTTON} disabled={busy}>
              Mark all as read
            </button>
          </Form>
        ) : null}
      </div>
      {rows.length === 0 ? (
        <p className="mt-6 text-sm text-ink-muted" data-testid="notifications-empty">
          No notifications yet.
        </p>
      ) : (
        <ol className="mt-4 divide-y divide-border" aria-label="Notifications">
          {shown.map((row) => (
            <li
              key={row.id}
              className={`flex flex-col gap-3 py-4 sm:flex-row sm:items-start sm:justify-between ${row.unread ? "border-l-4 border-l-brand pl-3" : "pl-4"}`}
              data-testid="notification"
            >
              <div className="min-w-0 space-y-1">
                <p className="font-medium">
                  {row.unread ? (
                    <span className="mr-2 rounded bg-brand-strong px-1.5 py-0.5 text-xs font-semibold text-white">
                      Unread
                    </span>
                  ) : null}
                  <Link to={row.href} className="text-ink underline underline-offset-2 hover:decoration-2">
                    {row.title}
                  </Link>
                </p>
                {row.detail ? <p className="break-words text-sm text-ink-muted">{row.detail}</p> : null}
                <p className="text-xs text-ink-muted">
                  <Moment at={row.createdAt} />
                </p>
              </div>
              {row.unread ? (
                <Form method="post" className="shrink-0">
                  <input type="hidden" name="id" value={row.id} />
                  <button type="submit" name="intent" value="read" className={BUTTON} disabled={busy}>
                    Mark as read<span className="sr-only">: {row.title}</span>
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ol>
      )}
      {previous || next ? (
        <nav aria-label="Notification pages" className="mt-4 flex justify-between gap-2">
          {previous ? (
            <Link to={`?before=${previous}`} rel="prev" className={PAGE_LINK}>
              Previous
            </Link>
          ) : null}
          {next ? (
            <Link to={`?after=${next}`} rel="next" className={`ml-auto ${PAGE_LINK}`}>
              Next
            </Link>
          ) : null}
        </nav>
      ) : null}
    </article>
  );
}
