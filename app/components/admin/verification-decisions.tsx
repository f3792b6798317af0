import type { ReactNode } from "react";
import { Form } from "react-router";
import { FormErrors, SubmitButton, useFieldError } from "~/components/form";
import { LabelledOptions } from "~/components/labelled-options";
import { StepUpField } from "~/components/step-up";
import { type IntentReply, refusalFor } from "~/lib/intent-reply";
import { DOCUMENT_KIND_LABELS } from "~/lib/verification";
import type { DocumentKind } from "../../../db/enums";
import { ReasonField } from "./reason-field";

/** A text the client reads (a rejection's reason, what to send): labelled, its hint and error tied to it. */
const NoteField = ({ label, hint }: { label: string; hint: string }) => (
  <ReasonField name="note" label={label} rows={3} hint={hint} />
);

function DocumentKindField({ kinds }: { kinds: DocumentKind[] }) {
  const field = useFieldError("documentKind", undefined);
  return (
    <div>
      <label htmlFor={field.id} className="block text-sm font-medium">
        Document to send again
      </label>
      <select
        id={field.id}
        name="documentKind"
        defaultValue=""
        {...field.controlProps}
        className="mt-1 w-full rounded-md border border-border bg-canvas px-3 py-2 focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/40"
      >
        <option value="">Choose a document</option>
        <LabelledOptions values={kinds} labels={DOCUMENT_KIND_LABELS} />
      </select>
      {field.errorText}
    </div>
  );
}

const CARD = "space-y-3 rounded-xl border border-border bg-surface p-5";

/**
 * One decision's own form, as a titled card: what it does (`intro`), the submission it decides on (so a decision
 * on a case sent again meanwhile is refused), its fields with its refusal under them.
 */
function DecisionForm({
  intent,
  title,
  intro = null,
  reply,
  submittedAt,
  children,
}: {
  intent: "approve" | "reject" | "request_info";
  title: string;
  intro?: ReactNode;
  reply: IntentReply | undefined;
  submittedAt: number;
  children: ReactNode;
}) {
  const titleId = `${intent.replace("_", "-")}-title`;
  return (
    <FormErrors reply={refusalFor(reply, intent)}>
      <Form method="post" className={CARD} aria-labelledby={titleId}>
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        {intro}
        <input type="hidden" name="submittedAt" value={submittedAt} />
        {children}
      </Form>
    </FormErrors>
  );
}

/**
 * The three decisions on a submitted case, each its own form naming the submission the page shows: Approve (asks
 * for a fresh authenticator code when the session's is older than 10 minutes), Reject (a reason the client reads),
 * Request more information (which document, and what is needed).
 */
export function VerificationDecisions({
  submittedAt,
  kinds,
  reply,
}: {
  submittedAt: number;
  kinds: DocumentKind[];
  reply: IntentReply | undefined;
}) {
  const decision = { reply, submittedAt };
  return (
    <div className="grid items-start gap-4 lg:grid-cols-3">
      <DecisionForm
        intent="approve"
        title="Approve"
        intro={<p className="text-sm text-ink-muted">The client becomes Verified and may request withdrawals.</p>}
        {...decision}
      >
        <StepUpField />
        <SubmitButton intent="approve" pendingText="Approving…">
          Approve verification
        </SubmitButton>
      </DecisionForm>
      <DecisionForm intent="reject" title="Reject" {...decision}>
        <NoteField label="Reason" hint="Required. The client reads it and may send the verification again." />
        <SubmitButton intent="reject" pendingText="Rejecting…" tone="danger">
          Reject verification
        </SubmitButton>
      </DecisionForm>
      <DecisionForm intent="request_info" title="Request more information" {...decision}>
        <DocumentKindField kinds={kinds} />
        <NoteField label="Message" hint="Required. Say what is missing or wrong; the client reads it." />
        <SubmitButton intent="request_info" pendingText="Sending…">
          Request more information
        </SubmitButton>
      </DecisionForm>
    </div>
  );
}
