import { Form, Link } from "react-router";
import { AdminPageHeader } from "~/components/admin/page-header";
import { Banner, SelectField } from "~/components/form";
import { Moment } from "~/components/moment";
import { pageMeta, RouteError } from "~/components/route-error";
import { StackedTable } from "~/components/stacked-table";
import { auditSearch, parseAuditFilters } from "~/lib/audit-filters";
import { adminPageTitle } from "~/lib/navigation";
import { may } from "~/lib/permissions";
import { AUDIT_ACTIONS } from "~/lib/schemas/admin";
import { listAdmins, listAudit } from "~/server/admin/audit-log.server";
import { requirePermission } from "~/server/session.server";
import type { Route } from "./+types/admin.audit";

export const meta: Route.MetaFunction = pageMeta(() => [{ title: adminPageTitle("Audit Log") }]);

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requirePermission(request, context, "readAuditLog");
  const params = new URL(request.url).searchParams;
  // A bad date shows its message over the unfiltered first page, as on the transaction histories.
  const { filters, submitted, errors } = parseAuditFilters(params);
  const beforeId = errors.length > 0 ? undefined : Number(params.get("before")) || undefined;
  const [page, admins] = await Promise.all([
    listAudit(context.db, context.bindings.AUDIT_ARCHIVE, filters, beforeId),
    listAdmins(context.db),
  ]);
  return { ...page, admins, filters, submitted, errors, mayExport: may(admin.roles, "exportData") };
}

const FIELD =
  "mt-1 block w-full rounded-md border border-border bg-canvas px-3 py-2 text-ink focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/40";

function TextInput({
  name,
  label,
  type = "text",
  value,
}: {
  name: string;
  label: string;
  type?: string;
  value?: string;
}) {
  return (
    <div>
      <label htmlFor={`audit-${name}`} className="block text-sm font-medium">
        {label}
      </label>
      <input id={`audit-${name}`} name={name} type={type} defaultValue={value ?? ""} className={FIELD} />
    </div>
  );
}

/**
 * What the cells share, set once on the table body: padding (none after the last column), the time on one line,
 * the action in monospace (it is the stored name), the details muted. The target reads as a name or reference.
 */
const ROWS_CLASS = [
  "divide-y divide-border [&>tr>td]:py-2 [&>tr>td]:pr-4 [&>tr>td:last-child]:pr-0",
  "[&>tr>td:first-child]:whitespace-nowrap [&>tr>td:nth-child(3)]:font-mono",
  "[&>tr>td:last-child]:text-ink-muted",
].join(" ");

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { entries, next, admins, filters, submitted, errors, mayExport } = loaderData;
  return (
    <section className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <AdminPageHeader title="Audit Log">
          Who did what, newest first: admins, clients and the system. Entries can never be edited or removed.
        </AdminPageHeader>
        {/* A document download, not a client-side navigation: the browser saves the file. */}
        {mayExport ? (
          <a
            href={`/admin/audit.csv${auditSearch(filters)}`}
            download
            className="rounded-md border border-border px-4 py-2 font-medium hover:bg-surface-raised"
          >
            Download CSV
          </a>
        ) : null}
      </div>
      {/* Remounted when the query changes, so the fields always show the view's filters (after Back, too). */}
      <Form
        key={JSON.stringify(submitted)}
        method="get"
        className="grid gap-4 rounded-xl border border-border bg-surface p-4 sm:grid-cols-3 lg:grid-cols-6 lg:items-end"
      >
        <SelectField label="Admin" name="admin" defaultValue={submitted.admin ?? ""}>
          <option value="">All admins</option>
          {admins.map((admin) => (
            <option key={admin.id} value={admin.id}>
              {admin.email}
            </option>
          ))}
        </SelectField>
        <SelectField label="Action" name="action" defaultValue={submitted.action ?? ""}>
          <option value="">All actions</option>
          {AUDIT_ACTIONS.map((action) => (
            <option key={action} value={action}>
              {action}
            </option>
          ))}
        </SelectField>
        <TextInput name="client" label="Client (name, e-mail or id)" value={submitted.client} />
        <TextInput name="from" label="From (UTC)" type="date" value={submitted.from} />
        <TextInput name="to" label="To (UTC)" type="date" value={submitted.to} />
        <div className="flex items-center gap-3">
          <button
            type="submit"
            className="rounded-md bg-brand-strong px-4 py-2 font-semibold text-white hover:bg-brand-hover"
          >
            Filter
          </button>
          <Link to="/admin/audit" className="text-sm text-brand hover:underline">
            Clear
          </Link>
        </div>
      </Form>
      {errors.length > 0 ? <Banner tone="error">{`${errors.join(" ")} Showing every entry instead.`}</Banner> : null}
      {/* It may scroll sideways (long details): focusable, so a keyboard scrolls it too, and named. */}
      <section
        aria-label="Audit entries"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is reached by keyboard to scroll it
        tabIndex={0}
        className="overflow-x-auto rounded-xl border border-border bg-surface p-4"
      >
        <StackedTable
          columns={["Time", "By", "Action", "Target", "Details"]}
          className="w-full text-left text-sm sm:min-w-[48rem]"
          bodyClassName={ROWS_CLASS}
        >
          {entries.map((entry) =>
            "gap" in entry ? (
              // Archived entries that could not be read take their place in the list, said, never skipped.
              <tr key={`gap-${entry.id}`}>
                <td>
                  <Moment at={entry.createdAt} />
                </td>
                <td colSpan={4}>
                  <span className="text-danger">{entry.gap}</span>
                </td>
              </tr>
            ) : (
              <tr key={entry.id}>
                <td>
                  <Moment at={entry.createdAt} />
                </td>
                <td>{entry.by}</td>
                <td>{entry.action}</td>
                <td>{entry.target}</td>
                <td>
                  {entry.facts.map((fact, i) => (
                    <span key={`${fact.label}:${fact.value}`}>
                      {i > 0 ? " · " : null}
                      <span className="text-ink">{fact.label}:</span> {fact.value}
                    </span>
                  ))}
                </td>
              </tr>
            ),
          )}
        </StackedTable>
        {entries.length === 0 ? (
          <p className="py-4 text-sm text-ink-muted">
            {/* A page reads a bounded share of the archive: with sparse filters it may end before finding any. */}
            {next ? "No entries in the archived months read so far." : "No entries."}
          </p>
        ) : null}
        {next ? (
          <Link
            to={auditSearch(filters, { before: String(next) })}
            className="mt-3 inline-block text-sm text-brand hover:underline"
          >
            Older entries
          </Link>
        ) : null}
      </section>
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
