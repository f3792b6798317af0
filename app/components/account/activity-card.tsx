import { Moment } from "~/components/moment";
import { LIST_ROWS, StackedTable } from "~/components/stacked-table";
import type { SignInRecord } from "~/server/auth/account-sessions.server";
import type { SignInResult } from "../../../db/enums";
import { AccountCard } from "./account-card";

const RESULTS: Record<SignInResult, { label: string; className: string }> = {
  success: { label: "Success", className: "text-success" },
  wrong_password: { label: "Wrong password", className: "text-danger" },
  wrong_code: { label: "Wrong code", className: "text-danger" },
  locked: { label: "Locked", className: "text-pending" },
};

/** Recent sign-in activity: the account's latest sign-ins and failed attempts, newest first. */
export function ActivityCard({ signIns }: { signIns: SignInRecord[] }) {
  return (
    <AccountCard headingId="activity-heading" title="Recent Sign-in Activity">
      <p className="mt-1 text-sm text-ink-muted">
        The latest sign-ins to your account, failed attempts included, newest first. If one was not you, change your
        password.
      </p>
      {signIns.length === 0 ? (
        <p className="mt-4 text-sm text-ink-muted">No sign-ins recorded yet.</p>
      ) : (
        <StackedTable
          caption="Recent sign-in activity"
          columns={["Time", "Result", "Method", "Browser", "Location"]}
          className="mt-4 w-full text-left text-sm"
          bodyClassName={LIST_ROWS}
        >
          {signIns.map((event) => (
            <tr key={event.id} data-testid="sign-in-row" data-result={event.result}>
              <td>
                <Moment at={event.at} />
              </td>
              <td>
                <span className={`font-medium ${RESULTS[event.result].className}`}>{RESULTS[event.result].label}</span>
              </td>
              <td>{event.wayIn}</td>
              <td>{event.browser}</td>
              <td>{event.location}</td>
            </tr>
          ))}
        </StackedTable>
      )}
    </AccountCard>
  );
}
