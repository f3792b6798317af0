import { Form } from "react-router";
import { Banner, Field, FormErrors, SubmitButton } from "~/components/form";
import { StepUpField } from "~/components/step-up";
import type { IntentReply } from "~/lib/intent-reply";
import { refusalFor } from "~/lib/intent-reply";
import { asksForCode } from "~/lib/step-up";
import { DIRECT_ROLES, ROLE_HINTS, ROLE_LABELS, roleField } from "~/lib/team";
import type { BackOfficeRole } from "../../../db/enums";

/** The roles' checkboxes, one field each; `checked` ticks the admin's current ones. */
export function RoleCheckboxes({
  roles,
  checked = [],
  legend,
}: {
  roles: readonly BackOfficeRole[];
  checked?: readonly BackOfficeRole[];
  legend: string;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-ink">{legend}</legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {roles.map((role) => (
          <label key={role} className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              name={roleField(role)}
              defaultChecked={checked.includes(role)}
              className="mt-1 h-4 w-4 focus:ring-2 focus:ring-brand/40"
            />
            <span>
              <span className="font-medium">{ROLE_LABELS[role]}</span>
              <span className="block text-ink-muted">{ROLE_HINTS[role]}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Invite an admin: an e-mail and roles (the owner role is proposed once they have joined). */
export function TeamInviteForm({ reply }: { reply: IntentReply | undefined }) {
  const refusal = refusalFor(reply, "invite");
  // A blank form after each invitation sent, so the next one never carries the last person's e-mail and roles.
  const formKey = reply?.intent === "invite" && reply.tone === "success" ? reply.at : "invite";
  return (
    <section aria-labelledby="invite-heading" className="rounded-xl border border-border bg-surface p-4 sm:p-6">
      <h2 id="invite-heading" className="text-xl font-semibold">
        Invite an admin
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        The invitation link works once, for 48 hours. They choose a password and set up two-factor sign-in before
        anything else. The owner role is proposed once they have joined.
      </p>
      <FormErrors reply={refusal}>
        <Form method="post" key={formKey} className="mt-4 space-y-4">
          {refusal?.error && !asksForCode(refusal) ? <Banner tone="error">{refusal.error}</Banner> : null}
          <Field label="Email" name="email" type="email" autoComplete="off" required className="max-w-md" />
          <RoleCheckboxes roles={DIRECT_ROLES} legend="Roles" />
          <StepUpField className="max-w-md" />
          <SubmitButton intent="invite" pendingText="Sending…">
            Send invitation
          </SubmitButton>
        </Form>
      </FormErrors>
    </section>
  );
}
