import { Form } from "react-router";
import { Banner, Field, FormErrors, SubmitButton } from "~/components/form";
import { type IntentReply, refusalFor } from "~/lib/intent-reply";
import {
  ALERT_DISPOSITIONS,
  type AlertDisposition,
  DISPOSITION_FIELDS,
  REPORT_REFERENCE_MAX_LENGTH,
} from "~/lib/monitoring/alerts";
import { REASON_MAX_LENGTH } from "~/lib/schemas/reason";

const BUTTONS: Record<AlertDisposition, { label: string; pending: string }> = {
  dismiss: { label: "Dismiss", pending: "Dismissing…" },
  escalate: { label: "Escalate", pending: "Escalating…" },
  report: { label: "Report filed", pending: "Recording…" },
};

const HINTS: Record<AlertDisposition, string> = {
  dismiss: "Why the pattern is explained. Kept with the alert.",
  escalate: "Puts the client on Watch and adds this as a note on their page.",
  report: "The reference the regulator gave the report.",
};

/**
 * An open alert's three decisions, each its own form with the one text it asks for and how many requests the row
 * lists (an alert that grew since is not decided). A refusal shows under the field of the alert it is about (the
 * reply's subject), never another row's.
 */
export function AlertDecisions({
  alertId,
  listed,
  reply,
}: {
  alertId: number;
  listed: number;
  reply: IntentReply | null | undefined;
}) {
  const mine = reply?.subject === String(alertId) ? reply : null;
  return (
    <details className="group" open={mine?.tone === "error" ? true : undefined}>
      <summary className="cursor-pointer rounded-md text-sm font-medium text-brand hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand">
        Decide
      </summary>
      <div className="mt-2 grid gap-3">
        {mine?.tone === "error" ? <Banner tone="error">{mine.message}</Banner> : null}
        {(Object.keys(ALERT_DISPOSITIONS) as AlertDisposition[]).map((disposition) => {
          const field = DISPOSITION_FIELDS[disposition];
          return (
            <FormErrors key={disposition} reply={refusalFor(mine, disposition)}>
              <Form method="post" className="grid gap-2 sm:grid-cols-[1fr_auto] sm:items-start">
                <input type="hidden" name="alertId" value={alertId} />
                <input type="hidden" name="listed" value={listed} />
                <Field
                  label={field.label}
                  name={field.name}
                  hint={HINTS[disposition]}
                  maxLength={disposition === "report" ? REPORT_REFERENCE_MAX_LENGTH : REASON_MAX_LENGTH}
                  required
                />
                <SubmitButton
                  intent={disposition}
                  pendingText={BUTTONS[disposition].pending}
                  tone={disposition === "dismiss" ? "danger" : "primary"}
                  className="sm:mt-6"
                >
                  {BUTTONS[disposition].label}
                </SubmitButton>
              </Form>
            </FormErrors>
          );
        })}
      </div>
    </details>
  );
}
