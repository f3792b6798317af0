import { Form, useNavigation } from "react-router";
import { Moment } from "~/components/moment";
import { LIST_ROWS, StackedTable } from "~/components/stacked-table";
import type { ActiveSession } from "~/server/auth/account-sessions.server";
import { AccountCard } from "./account-card";

const ACTION = "/account/sessions";

/** Whether this form's submission is on its way (the button then says so and waits). */
function useSubmitting(match: (form: FormData) => boolean) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formAction === ACTION && navigation.formData !== undefined
    ? match(navigation.formData)
    : false;
}

const buttonClass =
  "whitespace-nowrap rounded-md border border-danger/50 px-3 py-1 text-sm font-medium text-danger hover:bg-danger/10 disabled:cursor-not-allowed disabled:opacity-60";

/**
 * Active sessions: every browser signed in to the account now, with where and when; this device marked. Any
 * other one can be ended, or all of them at once; this one ends by signing out. The forms post to
 * /account/sessions, which comes back here with a toast; the page keeps its scroll position.
 */
export function SessionsCard({ sessions }: { sessions: ActiveSession[] }) {
  const others = sessions.filter((session) => !session.current).length;
  const endingOthers = useSubmitting((form) => form.get("intent") === "end-others");
  return (
    <AccountCard headingId="sessions-heading" title="Active Sessions">
      <p className="mt-1 text-sm text-ink-muted">
        Where your account is signed in now. If you do not recognise one, end it and change your password.
      </p>
      <StackedTable
        caption="Active sessions"
        columns={["Browser", "Location", "Started", "Last seen", "Action"]}
        className="mt-4 w-full text-left text-sm"
        bodyClassName={LIST_ROWS}
      >
        {sessions.map((session) => (
          <tr key={session.id} data-testid="session-row" data-current={session.current || undefined}>
            <td>
              {session.browser}
              {session.current ? (
                <span className="ml-2 whitespace-nowrap rounded bg-brand/20 px-2 py-0.5 text-xs font-semibold text-ink">
                  This device
                </span>
              ) : null}
              {session.passkeySignIn ? (
                <span className="block text-xs text-ink-muted">Signed in with a passkey</span>
              ) : null}
            </td>
            <td>{session.location}</td>
            <td>
              <Moment at={session.startedAt} />
            </td>
            <td>{session.current ? "Now" : <Moment at={session.lastSeenAt} />}</td>
            <td>
              {session.current ? (
                <span className="text-ink-muted">Sign out to end</span>
              ) : (
                <EndSessionButton session={session} />
              )}
            </td>
          </tr>
        ))}
      </StackedTable>
      {others > 0 ? (
        <Form method="post" action={ACTION} preventScrollReset className="mt-4 flex flex-wrap items-center gap-3">
          <button type="submit" name="intent" value="end-others" disabled={endingOthers} className={buttonClass}>
            {endingOthers ? "Ending..." : "End all other sessions"}
          </button>
          <p className="text-sm text-ink-muted">Signs out every browser but this one.</p>
        </Form>
      ) : null}
    </AccountCard>
  );
}

function EndSessionButton({ session }: { session: ActiveSession }) {
  const ending = useSubmitting((form) => form.get("intent") === "end" && form.get("sessionId") === session.id);
  return (
    <Form method="post" action={ACTION} preventScrollReset>
      <input type="hidden" name="sessionId" value={session.id} />
      <button
        type="submit"
        name="intent"
        value="end"
        disabled={ending}
        aria-label={`End session: ${session.browser}, ${session.location}`}
        className={buttonClass}
      >
        {ending ? "Ending..." : "End session"}
      </button>
    </Form>
  );
}
