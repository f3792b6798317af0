import { useEffect, useState } from "react";
import { Form, Link, useSubmit } from "react-router";
import { Banner } from "~/components/form";
import { useListNavigation } from "~/components/list-navigation";
import { StackedTable } from "~/components/stacked-table";
import { StepUpDialog } from "~/components/step-up";
import type { ClientFlag } from "~/lib/client-flags";
import { CLIENT_LIST_SELECTS, type ClientListQuery, clientListHref } from "~/lib/client-list";
import { formatCents, formatLongDate } from "~/lib/format";
import { type IntentReply, refusalFor } from "~/lib/intent-reply";
import { ADMIN_MESSAGES } from "~/lib/schemas/admin";
import { DELETE_ERROR_MS, SUCCESS_MESSAGE_MS } from "~/lib/timers";
import type { VerificationLevel } from "~/lib/verification";
import { ClientFlagBadges } from "./client-flags";
import { ListSelect } from "./list-select";
import { VerificationLevelBadge } from "./verification-level";

interface ClientRow {
  id: string;
  name: string;
  email: string;
  status: string;
  suspended: boolean;
  balanceCents: number;
  joinedAt: number;
  lastActivityAt: number | null;
  level: VerificationLevel;
  flags: ClientFlag[];
}

/**
 * What the 50 rows share, set once on the table body rather than on every row (the rows are most of the desk's
 * HTML): cell padding, the client cell's layout (initial beside name, e-mail and join date, in small muted type),
 * the name link's look, the balance's figures. The initial and Delete have a class of their own (app/tailwind.css).
 */
const ROWS_CLASS = [
  "divide-y divide-border [&>tr>td]:py-3 [&>tr>td]:pr-4 [&>tr>td:nth-child(3)]:tabular-nums",
  "[&>tr>td:first-child>div]:flex [&>tr>td:first-child>div]:items-center [&>tr>td:first-child>div]:gap-3",
  "[&>tr>td:first-child>div>div]:text-xs [&>tr>td:first-child>div>div]:text-ink-muted",
  "[&_a]:text-sm [&_a]:font-medium [&_a]:text-brand [&_a]:hover:underline",
].join(" ");

/** The last heading has no padding after it, as the cells under it. */
const COLUMNS = [
  "User",
  "Status",
  "Balance",
  "Last Activity",
  { label: "Actions", className: "py-2 font-medium" },
] as const;
/** For an admin whose roles do not delete clients: the only action, so no Actions column at all. */
const COLUMNS_WITHOUT_ACTIONS = COLUMNS.slice(0, -1);

/** A reply of one intent, shown until its timer runs out: 3 s for a success, 5 s for an error. */
function useTimedMessage(reply: IntentReply | undefined, intent: string) {
  const relevant = reply?.intent === intent ? reply : undefined;
  // Shown from the first render, so the page the server sends (and a browser without JavaScript) carries it too.
  const [shown, setShown] = useState<IntentReply | null>(relevant ?? null);
  const stamp = relevant?.at;
  // biome-ignore lint/correctness/useExhaustiveDependencies: one timer per reply, identified by its stamp
  useEffect(() => {
    if (!relevant) return;
    setShown(relevant);
    const timer = setTimeout(() => setShown(null), relevant.tone === "success" ? SUCCESS_MESSAGE_MS : DELETE_ERROR_MS);
    return () => clearTimeout(timer);
  }, [stamp]);
  return shown;
}

/**
 * The desk's User Management card: search by name or email, status, verification level and flag filters, a sort (name, joined, last
 * activity, balance, either way), all in the URL; the clients 50 a page (Previous and Next) with their status,
 * verification level, balance and last activity, and Delete (after a confirmation) for a client with a profile. The delete's outcome shows in the
 * card's banner for a while; when the server asks for a second-factor code first, a dialog repeats that delete
 * with the code field.
 */
export function UserManagement({
  clients,
  next,
  previous,
  list,
  errors,
  reply,
  mayDelete,
}: {
  /** Whether the viewer's roles let them delete a client's data: without, no row offers Delete. */
  mayDelete: boolean;
  clients: ClientRow[];
  next: string | null;
  previous: string | null;
  list: ClientListQuery;
  errors: string[];
  reply?: IntentReply;
}) {
  const deleteMessage = useTimedMessage(reply, "delete");
  const awaitingCode = reply?.intent === "delete" ? reply.subject : undefined;
  const awaitingName = clients.find((client) => client.id === awaitingCode)?.name;
  const submit = useSubmit();
  const followLink = useListNavigation();
  // One handler for every row's Delete (the row's client id is the button's value), not one closure per row.
  const confirmDelete = (event: React.MouseEvent<HTMLButtonElement>) => {
    const userId = event.currentTarget.value;
    if (window.confirm(ADMIN_MESSAGES.deleteConfirm)) submit({ intent: "delete", userId }, { method: "post" });
  };
  return (
    <article className="rounded-xl border border-border bg-surface p-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold">User Management</h2>
        <Form method="get" role="search" className="flex w-full flex-wrap items-end gap-2 sm:w-auto">
          <div className="flex min-w-0 basis-full flex-col gap-1 sm:basis-auto sm:flex-none">
            <label htmlFor="client-search" className="text-xs text-ink-muted">
              Search clients by name or email
            </label>
            <input
              id="client-search"
              name="q"
              type="search"
              defaultValue={list.search}
              placeholder="Search by name or email"
              className="w-full min-w-0 rounded-md border border-border bg-canvas px-3 py-2 text-sm sm:w-64"
            />
          </div>
          {CLIENT_LIST_SELECTS.map((select) => (
            <ListSelect key={select.name} {...select} value={list[select.name] ?? ""} />
          ))}
          <button type="submit" className="rounded-md border border-border px-3 py-2 text-sm hover:bg-surface-raised">
            Search
          </button>
        </Form>
      </div>
      {errors.length > 0 ? (
        <div className="mt-4">
          <Banner tone="error">{errors.join(" ")}</Banner>
        </div>
      ) : null}
      {deleteMessage ? (
        <div className="mt-4">
          <Banner tone={deleteMessage.tone}>{deleteMessage.message}</Banner>
        </div>
      ) : null}
      <div className="mt-4 overflow-x-auto">
        <StackedTable
          columns={mayDelete ? COLUMNS : COLUMNS_WITHOUT_ACTIONS}
          className="w-full text-left text-sm sm:min-w-[40rem]"
          bodyClassName={ROWS_CLASS}
          onBodyClick={followLink}
        >
          {clients.map((client) => (
            <tr key={client.id}>
              <td>
                <div>
                  <span aria-hidden="true" className="client-initial">
                    {client.name.charAt(0).toUpperCase()}
                  </span>
                  <div>
                    <a href={`/user/${client.id}`}>{client.name}</a>
                    <ClientFlagBadges flags={client.flags} className="ml-2 align-middle" />
                    <p>{client.email}</p>
                    <p>{`Since ${formatLongDate(client.joinedAt)}`}</p>
                  </div>
                </div>
              </td>
              <td className={client.status === "active" ? "text-success" : "text-danger"}>
                {client.status}
                {client.suspended ? <span className="ml-2 text-xs text-danger">(suspended)</span> : null}
                <span className="ml-2">
                  <VerificationLevelBadge level={client.level} />
                </span>
              </td>
              <td>{formatCents(client.balanceCents)}</td>
              <td>{client.lastActivityAt ? formatLongDate(client.lastActivityAt) : "N/A"}</td>
              {mayDelete ? (
                <td>
                  <button
                    type="button"
                    value={client.id}
                    className="row-action-delete"
                    aria-label={`Delete ${client.name}'s data`}
                    onClick={confirmDelete}
                  >
                    Delete
                  </button>
                </td>
              ) : null}
            </tr>
          ))}
        </StackedTable>
        {clients.length === 0 ? <p className="py-4 text-sm text-ink-muted">No clients found.</p> : null}
      </div>
      <nav aria-label="Client list pages" className="mt-4 flex gap-3 text-sm">
        {previous ? (
          <Link to={clientListHref(list, { before: previous })} className="text-brand hover:underline" rel="prev">
            Previous page
          </Link>
        ) : null}
        {next ? (
          <Link to={clientListHref(list, { after: next })} className="text-brand hover:underline" rel="next">
            Next page
          </Link>
        ) : null}
      </nav>
      {awaitingCode ? (
        <StepUpDialog
          reply={refusalFor(reply, "delete")}
          stamp={reply?.at}
          title={awaitingName ? `Delete ${awaitingName}'s data` : "Delete client data"}
          intent="delete"
          fields={{ userId: awaitingCode }}
          submitLabel="Delete"
          pendingText="Deleting..."
          tone="danger"
        >
          <p className="text-sm text-ink-muted">{ADMIN_MESSAGES.deleteConfirm}</p>
        </StepUpDialog>
      ) : null}
    </article>
  );
}
