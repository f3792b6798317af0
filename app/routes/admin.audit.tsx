import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { AdminPageHeader } from "~/components/admin/page-header";
import { ColumnHeads } from "~/components/admin/table";
import { SelectField } from "~/components/form";
import { Moment } from "~/components/moment";
import { pageMeta, RouteError } from "~/components/route-error";
import { AUDIT_ACTIONS } from "~/lib/schemas/admin";
import { listAdmins, listAudit } from "~/server/admin/audit-log.server";
import { requireAdmin } from "~/server/session.server";

export const meta: MetaFunction = pageMeta(() => [{ title: "Audit Log" }]);

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const url = new URL(request.url);
  const filters = {
    actorId: url.searchParams.get("admin") || undefined,
    action: url.searchParams.get("action") || undefined,
    client: url.searchParams.get("client")?.trim() || undefined,
    beforeId: Number(url.searchParams.get("before")) || undefined,
  };
  const [page, admins] = await Promise.all([listAudit(context.db, filters), listAdmins(context.db)]);
  return {
    entries: page.entries,
    next: page.next,
    admins,
    filters: { admin: filters.actorId ?? "", action: filters.action ?? "", client: filters.client ?? "" },
  };
}

function describe(detail: Record<string, unknown> | null): string {
  if (!detail) return "";
  return Object.entries(detail)
    .filter(([key, value]) => key !== "by" && value !== null && value !== undefined)
    .map(([key, value]) => `${key}: ${typeof value === "object" ? JSON.stringify(value) : String(value)}`)
    .join(" · ");
}

export default function AuditLog() {
  const { entries, next, admins, filters } = useLoaderData<typeof loader>();
  const query = new URLSearchParams(Object.entries(filters).filter(([, v]) => v) as Array<[string, string]>);
  return (
    <section className="space-y-6">
      <AdminPageHeader title="Audit Log">
        Every admin action, newest first. Entries can never be edited or removed.
      </AdminPageHeader>
      <Form
        method="get"
        className="grid gap-4 rounded-xl border border-border bg-surface p-4 sm:grid-cols-4 sm:items-end"
      >
        <SelectField label="Admin" name="admin" defaultValue={filters.admin}>
          <option value="">All admins</option>
          {admins.map((admin) => (
            <option key={admin.id} value={admin.id}>
              {admin.email}
            </option>
          ))}
        </SelectField>
        <SelectField label="Action" name="action" defaultValue={filters.action}>
          <option value="">All actions</option>
          {AUDIT_ACTIONS.map((action) => (
            <option key={action} value={action}>
              {action}
            </option>
          ))}
        </SelectField>
        <div>
          <label htmlFor="audit-client" className="block text-sm font-medium">
            Client id
          </label>
          <input
            id="audit-client"
            name="client"
            defaultValue={filters.client}
            className="mt-1 block w-full rounded-md border border-border bg-canvas px-3 py-2"
          />
        </div>
        <button
          type="submit"
          className="rounded-md bg-brand-strong px-4 py-2 font-semibold text-white hover:bg-brand-hover"
        >
          Filter
        </button>
      </Form>
      <div className="overflow-x-auto rounded-xl border border-border bg-surface p-4">
        <table className="w-full min-w-[48rem] text-left text-sm">
          <ColumnHeads columns={["Time", "Admin", "Action", "Target", "Details"]} />
          <tbody className="divide-y divide-border">
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td className="py-2 pr-4 whitespace-nowrap">
                  <Moment at={entry.createdAt} />
                </td>
                <td className="py-2 pr-4">{entry.actorEmail ?? entry.actorId ?? "system"}</td>
                <td className="py-2 pr-4 font-mono">{entry.action}</td>
                <td className="py-2 pr-4 font-mono">{entry.target}</td>
                <td className="py-2 text-ink-muted">{describe(entry.detail)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {entries.length === 0 ? <p className="py-4 text-sm text-ink-muted">No entries.</p> : null}
        {next ? (
          <Link
            to={`?${query.toString() ? `${query}&` : ""}before=${next}`}
            className="mt-3 inline-block text-sm text-brand hover:underline"
          >
            Older entries
          </Link>
        ) : null}
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
