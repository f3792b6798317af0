import { Link } from "react-router";
import { LIST_ROWS, StackedTable } from "~/components/stacked-table";
import { ACCESS_RECOVERY_STATUS_LABELS } from "~/lib/access-recovery";
import { formatDateTimeUtc } from "~/lib/format";
import type { AccessRecoveryStatus } from "../../../db/enums";

interface QueuedRecovery {
  id: number;
  name: string;
  email: string;
  status: AccessRecoveryStatus;
  submittedAt: number | null;
  firstApprovedBy: string | null;
}

const COLUMNS = ["Client", "Sent", "Status"] as const;

/** The access-recovery requests waiting for a decision, beside the identity verifications they are checked against. */
export function AccessRecoveryQueue({ requests }: { requests: QueuedRecovery[] }) {
  return (
    <article className="rounded-xl border border-border bg-surface p-5" aria-labelledby="access-recovery-title">
      <h2 id="access-recovery-title" className="text-lg font-semibold">
        Access recovery requests
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        Clients who lost every second factor, with a new photo of their identity document and a selfie. Two admins
        approve each one.
      </p>
      {requests.length === 0 ? (
        <p className="mt-4 text-sm text-ink-muted">No requests waiting.</p>
      ) : (
        <div className="mt-4">
          <StackedTable
            columns={COLUMNS}
            caption="Access recovery requests"
            bodyClassName={LIST_ROWS}
            testId="access-recovery-queue"
          >
            {requests.map((row) => (
              <tr key={row.id}>
                <td>
                  <Link to={`/admin/access-recovery/${row.id}`} className="font-medium text-brand hover:underline">
                    {row.name}
                  </Link>
                  <div className="text-xs text-ink-muted">{row.email}</div>
                </td>
                <td>{row.submittedAt ? formatDateTimeUtc(row.submittedAt) : "—"}</td>
                <td>
                  {ACCESS_RECOVERY_STATUS_LABELS[row.status]}
                  {row.firstApprovedBy ? (
                    <div className="text-xs text-ink-muted">{`First approved by ${row.firstApprovedBy}`}</div>
                  ) : null}
                </td>
              </tr>
            ))}
          </StackedTable>
        </div>
      )}
    </article>
  );
}
