import { Form, Link } from "react-router";
import { AccessRecoveryQueue } from "~/components/admin/access-recovery-queue";
import { AdminPageHeader } from "~/components/admin/page-header";
import { PagerLinks } from "~/components/admin/table";
import { VerificationLevelBadge } from "~/components/admin/verification-level";
import { Banner } from "~/components/form";
import { LabelledOptions } from "~/components/labelled-options";
import { pageMeta, RouteError } from "~/components/route-error";
import { LIST_ROWS, StackedTable } from "~/components/stacked-table";
import { formatDateTimeUtc, formatLongDate } from "~/lib/format";
import { adminPageTitle } from "~/lib/navigation";
import { may } from "~/lib/permissions";
import { useFeed, useThrottledRevalidate } from "~/lib/use-feed";
import { IDENTITY_DOCUMENT_TYPE_LABELS, VERIFICATION_STATUS_LABELS } from "~/lib/verification";
import { parseQueueStatus } from "~/lib/verification-review";
import { recoveryQueue } from "~/server/access-recovery/reads.server";
import { requirePermission } from "~/server/session.server";
import { decodeQueueCursor, verificationQueue } from "~/server/verification/review-reads.server";
import { VERIFICATION_STATUSES } from "../../db/enums";
import type { Route } from "./+types/admin.verifications._index";

export const meta: Route.MetaFunction = pageMeta(() => [{ title: adminPageTitle("Verifications") }]);

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requirePermission(request, context, "reviewVerifications");
  const params = new URL(request.url).searchParams;
  const { status, error } = parseQueueStatus(params);
  const queue = await verificationQueue(
    context.db,
    status,
    context.env.VERIFICATION_INTRODUCED_AT,
    decodeQueueCursor(params.get("after")),
  );
  const recoveries = may(admin.roles, "restoreAccess") ? await recoveryQueue(context.db) : null;
  return { ...queue, recoveries, status, error, paged: params.has("after") };
}

/** The queue's statuses as its filter names them: a draft is a case the client has not sent yet. */
const QUEUE_STATUS_LABELS = { ...VERIFICATION_STATUS_LABELS, draft: "Not sent yet" };

const COLUMNS = ["Client", "Country", "Document", "Sent", "Registered", "Level"] as const;

export default function VerificationQueue({ loaderData }: Route.ComponentProps) {
  const { cases, next, recoveries, status, error, paged } = loaderData;
  // A case sent or decided anywhere shows here without a reload.
  const refresh = useThrottledRevalidate();
  useFeed("/ws/admin", { onEvent: refresh, onReconnect: refresh });
  return (
    <section className="space-y-6">
      <AdminPageHeader title="Verifications">
        Identity verifications, the longest waiting first. Open one to see its documents and decide it.
      </AdminPageHeader>
      {error ? <Banner tone="error">{error}</Banner> : null}
      {recoveries ? <AccessRecoveryQueue requests={recoveries} /> : null}
      <article className="rounded-xl border border-border bg-surface p-5">
        <Form method="get" className="flex flex-wrap items-end gap-2">
          <div className="flex flex-col gap-1">
            <label htmlFor="queue-status" className="text-xs text-ink-muted">
              Status
            </label>
            <select
              id="queue-status"
              name="status"
              defaultValue={status}
              className="rounded-md border border-border bg-canvas px-3 py-2 text-sm"
            >
              <LabelledOptions values={VERIFICATION_STATUSES} labels={QUEUE_STATUS_LABELS} />
            </select>
          </div>
          <button type="submit" className="rounded-md border border-border px-4 py-2 text-sm font-medium">
            Show
          </button>
        </Form>
        {cases.length === 0 ? (
          <p className="mt-4 text-sm text-ink-muted">No verifications with this status.</p>
        ) : (
          <div className="mt-4">
            <StackedTable
              columns={COLUMNS}
              caption="Verifications"
              bodyClassName={LIST_ROWS}
              testId="verification-queue"
            >
              {cases.map((row) => (
                <tr key={row.id}>
                  <td>
                    <Link to={`/admin/verifications/${row.id}`} className="font-medium text-brand hover:underline">
                      {row.name}
                    </Link>
                    <div className="text-xs text-ink-muted">{row.email}</div>
                  </td>
                  <td>{row.country ?? "—"}</td>
                  <td>{row.documentType ? IDENTITY_DOCUMENT_TYPE_LABELS[row.documentType] : "—"}</td>
                  <td>{row.submittedAt ? formatDateTimeUtc(row.submittedAt) : "Not sent"}</td>
                  <td>{formatLongDate(row.registeredAt)}</td>
                  <td>
                    <VerificationLevelBadge level={row.level} />
                  </td>
                </tr>
              ))}
            </StackedTable>
          </div>
        )}
        <PagerLinks
          links={[
            paged ? { to: `?status=${status}`, label: "First page" } : null,
            next ? { to: `?status=${status}&after=${next}`, label: "Next page" } : null,
          ]}
        />
      </article>
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
