import { useEffect } from "react";
import { Form, Link } from "react-router";
import { toast } from "sonner";
import { AlertsTable } from "~/components/admin/alerts-table";
import { AdminPageHeader } from "~/components/admin/page-header";
import { PagerLinks } from "~/components/admin/table";
import { Banner } from "~/components/form";
import { pageMeta, RouteError } from "~/components/route-error";
import { ALERT_MESSAGES, ALERT_VIEWS, type AlertDisposition, alertViewOf } from "~/lib/monitoring/alerts";
import { adminPageTitle } from "~/lib/navigation";
import { useFeed, useThrottledRevalidate } from "~/lib/use-feed";
import { actsOf } from "~/server/acts.server";
import { readForm } from "~/server/form.server";
import { dispatchIntent } from "~/server/intents.server";
import { listAlerts } from "~/server/monitoring/alert-reads.server";
import { decideAlert } from "~/server/monitoring/dispositions.server";
import { parseCursor } from "~/server/paging.server";
import { requirePermission } from "~/server/session.server";
import type { Route } from "./+types/admin.alerts";

export const meta: Route.MetaFunction = pageMeta(() => [{ title: adminPageTitle("Alerts") }]);

export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "reviewAlerts");
  const params = new URL(request.url).searchParams;
  const view = alertViewOf(params.get("view"));
  const position = { after: parseCursor(params.get("after")), before: parseCursor(params.get("before")) };
  return { view, ...(await listAlerts(context.db, view, position)) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "reviewAlerts");
  const form = await readForm(request);
  const act = actsOf(context, admin, form);
  const decide = (disposition: AlertDisposition) =>
    act("alertDisposition", async (reply) => {
      const outcome = await decideAlert(context, admin, disposition, form);
      // A refusal names its alert, so the page shows it on that row.
      return outcome.ok
        ? reply.done(outcome.message)
        : reply.refused({ ...outcome, subject: String(form.get("alertId")) });
    });
  return dispatchIntent(form, {
    dismiss: decide("dismiss"),
    escalate: decide("escalate"),
    report: decide("report"),
  } satisfies Record<AlertDisposition, unknown>);
}

const TAB = "rounded-md px-3 py-1.5 text-sm font-medium";
const VIEW_LABELS = { open: "Open", decided: "Decided" } as const;

export default function AlertsQueue({ loaderData, actionData: reply }: Route.ComponentProps) {
  const { view, rows, next, previous } = loaderData;
  // An alert written or decided anywhere (another officer, the rules' run) shows here without a reload.
  const refresh = useThrottledRevalidate();
  useFeed("/ws/admin", {
    onEvent: (event) => {
      if (event.type === "alerts.changed") refresh();
    },
    onReconnect: refresh,
  });
  // Once per reply (its stamp).
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the reply's stamp on purpose
  useEffect(() => {
    if (reply?.tone === "success") toast.success(reply.message);
  }, [reply?.at]);
  const viewQuery = view === "open" ? "" : `view=${view}&`;

  return (
    <section className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <AdminPageHeader title="Alerts">
          Transaction-monitoring alerts, newest first. Each is decided once: dismissed, escalated or reported.
        </AdminPageHeader>
        <Form
          method="get"
          action="/admin/alerts.csv"
          reloadDocument
          className="flex flex-wrap items-end gap-2 rounded-xl border border-border bg-surface p-3"
        >
          {(["from", "to"] as const).map((name) => (
            <div key={name}>
              <label htmlFor={`alerts-${name}`} className="block text-sm font-medium">
                {name === "from" ? "From (UTC)" : "To (UTC)"}
              </label>
              <input
                id={`alerts-${name}`}
                name={name}
                type="date"
                className="mt-1 rounded-md border border-border bg-canvas px-3 py-2 text-ink focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/40"
              />
            </div>
          ))}
          <button
            type="submit"
            className="rounded-md border border-border px-4 py-2 font-medium hover:bg-surface-raised"
          >
            Download CSV
          </button>
        </Form>
      </div>
      <nav aria-label="Alert views" className="flex gap-2">
        {ALERT_VIEWS.map((value) => (
          <Link
            key={value}
            to={value === "open" ? "/admin/alerts" : `/admin/alerts?view=${value}`}
            aria-current={value === view ? "page" : undefined}
            className={`${TAB} ${value === view ? "bg-brand-strong text-white" : "border border-border text-ink hover:bg-surface-raised"}`}
          >
            {VIEW_LABELS[value]}
          </Link>
        ))}
      </nav>
      {/* A refusal shows on its alert's row; one whose alert is not open here (decided meanwhile, unknown) shows above. */}
      {reply?.tone === "error" &&
      !rows.some((alert) => alert.status === "open" && String(alert.id) === reply.subject) ? (
        <Banner tone="error">{reply.message}</Banner>
      ) : null}
      <article className="rounded-xl border border-border bg-surface p-4">
        {rows.length === 0 ? (
          <p className="text-sm text-ink-muted">
            {view === "open" ? ALERT_MESSAGES.empty : ALERT_MESSAGES.emptyDecided}
          </p>
        ) : (
          <div className="overflow-x-auto">
            <AlertsTable alerts={rows} reply={reply} />
          </div>
        )}
        <PagerLinks
          links={[
            previous ? { to: `?${viewQuery}before=${previous}`, label: "Newer alerts" } : null,
            next ? { to: `?${viewQuery}after=${next}`, label: "Older alerts" } : null,
          ]}
        />
      </article>
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
