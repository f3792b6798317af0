import { Form } from "@remix-run/react";
import { FormErrors, SubmitButton, useFieldError } from "~/components/form";
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
        {kinds.map((kind) => (
          <option key={kind} value={kind}>
            {DOCUMENT_KIND_LABELS[kind]}
          </option>
        ))}
      </select>
      {field.errorText}
    </div>
  );
}

const CARD = "space-y-3 rounded-xl border border-border bg-surface p-5";

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
  const submission = <input type="hidden" name="submittedAt" value={submittedAt} />;
  return (
    <div className="grid items-start gap-4 lg:grid-cols-3">
      <FormErrors reply={refusalFor(reply, "approve")}>
        <Form method="post" className={CARD} aria-labelledby="approve-title">
          <h2 id="approve-title" className="text-lg font-semibold">
            Approve
          </h2>
          <p className="text-sm text-ink-muted">The client becomes Verified and may request withdrawals.</p>
          {submission}
          <StepUpField />
          <SubmitButton intent="approve" pendingText="Approving…">
            Approve verification
          </SubmitButton>
        </Form>
      </FormErrors>
      <FormErrors reply={refusalFor(reply, "reject")}>
        <Form method="post" className={CARD} aria-labelledby="reject-title">
          <h2 id="reject-title" className="text-lg font-semibold">
            Reject
          </h2>
          {submission}
          <NoteField label="Reason" hint="Required. The client reads it and may send the verification again." />
          <SubmitButton intent="reject" pendingText="Rejecting…" tone="danger">
            Reject verification
          </SubmitButton>
        </Form>
      </FormErrors>
      <FormErrors reply={refusalFor(reply, "request_info")}>
        <Form method="post" className={CARD} aria-labelledby="request-info-title">
          <h2 id="request-info-title" className="text-lg font-semibold">
            Request more information
          </h2>
          {submission}
          <DocumentKindField kinds={kinds} />
          <NoteField label="Message" hint="Required. Say what is missing or wrong; the client reads it." />
          <SubmitButton intent="request_info" pendingText="Sending…">
            Request more information
          </SubmitButton>
        </Form>
      </FormErrors>
    </div>
  );
}
