import { Moment } from "~/components/moment";
import type { SignInResult } from "../../../db/enums";
import { StackedCell, StackedTable, stackedRowClass } from "./stacked-table";

export interface SignInRow {
  id: number;
  at: number;
  result: SignInResult;
  browser: string;
  location: string;
}

const RESULTS: Record<SignInResult, { label: string; className: string }> = {
  success: { label: "Success", className: "text-success" },
  wrong_password: { label: "Wrong password", className: "text-danger" },
  wrong_code: { label: "Wrong code", className: "text-danger" },
  locked: { label: "Locked", className: "text-pending" },
};

/** Recent sign-in activity: the account's latest sign-ins and failed attempts, newest first. */
export function ActivityCard({ signIns }: { signIns: SignInRow[] }) {
  return (
    <article aria-labelledby="activity-heading" className="rounded-xl border border-border bg-surface p-6">
      <h2 id="activity-heading" className="text-lg font-semibold">
        Recent Sign-in Activity
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        The latest sign-ins to your account, failed attempts included, newest first. If one was not you, change your
        password.
      </p>
      {signIns.length === 0 ? (
        <p className="mt-4 text-sm text-ink-muted">No sign-ins recorded yet.</p>
      ) : (
        <StackedTable caption="Recent sign-in activity" columns={["Time", "Result", "Browser", "Location"]}>
          {signIns.map((event) => (
            <tr key={event.id} data-testid="sign-in-row" data-result={event.result} className={stackedRowClass}>
              <StackedCell label="Time">
                <Moment at={event.at} />
              </StackedCell>
              <StackedCell label="Result">
                <span className={`font-medium ${RESULTS[event.result].className}`}>{RESULTS[event.result].label}</span>
              </StackedCell>
              <StackedCell label="Browser">{event.browser}</StackedCell>
              <StackedCell label="Location">{event.location}</StackedCell>
            </tr>
          ))}
        </StackedTable>
      )}
    </article>
  );
}
