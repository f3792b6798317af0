import { Form } from "react-router";
import { Banner, FormErrors, SubmitButton } from "~/components/form";
import { Moment } from "~/components/moment";
import { StepUpDialog, StepUpField } from "~/components/step-up";
import { type IntentReply, refusalFor } from "~/lib/intent-reply";
import { BACK_OFFICE_ROLES, OWNER_ROLE } from "~/lib/permissions";
import { asksForCode } from "~/lib/step-up";
import { formatRoles, ROLE_LABELS } from "~/lib/team";
import type { TeamMember } from "~/server/admin/team-reads.server";
import type { BackOfficeRole } from "../../../db/enums";
import { RoleCheckboxes } from "./team-invite-form";

export interface InvitationView {
  email: string;
  roles: BackOfficeRole[];
  expiresAt: number;
}

function Badge({ children, tone = "neutral" }: { children: string; tone?: "neutral" | "good" | "bad" }) {
  const tones = {
    neutral: "border-border bg-surface-raised text-ink",
    good: "border-success/50 bg-success/10 text-success",
    bad: "border-danger/50 bg-danger/10 text-danger",
  };
  return (
    <span className={`inline-block rounded-full border px-2 py-0.5 text-xs font-medium ${tones[tone]}`}>
      {children}
    </span>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs uppercase tracking-wide text-ink-muted">{label}</dt>
      <dd className="mt-0.5 text-sm">{children}</dd>
    </div>
  );
}

/** One act on an admin: a small form with its own submit button, carrying the admin's id. */
function Act({
  intent,
  userId,
  label,
  pending,
  tone,
}: {
  intent: string;
  userId: string;
  label: string;
  pending: string;
  tone?: "danger";
}) {
  return (
    <Form method="post">
      <input type="hidden" name="userId" value={userId} />
      <SubmitButton intent={intent} pendingText={pending} tone={tone} className="text-sm">
        {label}
      </SubmitButton>
    </Form>
  );
}

function Manage({ member, reply }: { member: TeamMember; reply: IntentReply | undefined }) {
  const active = member.deactivatedAt === null;
  const answered = reply?.subject === member.id ? reply : undefined;
  // A request for a fresh code shows as the code field in the roles form, or in a dialog for Reactivate.
  const askedCode = answered?.tone === "error" && asksForCode(answered);
  return (
    <details className="mt-3 rounded-md border border-border p-3" open={Boolean(answered)}>
      <summary className="cursor-pointer text-sm font-medium text-brand focus:outline-none focus-visible:ring-2 focus-visible:ring-brand/60">
        Manage {member.name || member.email}
      </summary>
      <div className="mt-3 space-y-4">
        {answered && !askedCode ? <Banner tone={answered.tone}>{answered.message}</Banner> : null}
        {active ? (
          <FormErrors reply={refusalFor(answered, "roles")}>
            <Form method="post" className="space-y-3">
              <input type="hidden" name="userId" value={member.id} />
              <RoleCheckboxes roles={BACK_OFFICE_ROLES} checked={member.roles} legend="Roles" />
              <StepUpField className="max-w-xs" />
              <SubmitButton intent="roles" pendingText="Saving…" className="text-sm">
                Save roles
              </SubmitButton>
            </Form>
          </FormErrors>
        ) : (
          <StepUpDialog
            reply={refusalFor(answered, "reactivate")}
            stamp={answered?.at}
            title={`Reactivate ${member.name || member.email}`}
            intent="reactivate"
            fields={{ userId: member.id }}
            submitLabel="Reactivate"
            pendingText="Reactivating…"
          />
        )}
        <div className="flex flex-wrap gap-2">
          {active && !member.roles.includes(OWNER_ROLE) ? (
            <Act intent="proposeOwner" userId={member.id} label="Propose owner" pending="Proposing…" />
          ) : null}
          {active && member.twoFactor ? (
            <Act intent="proposeReset" userId={member.id} label="Propose two-factor reset" pending="Proposing…" />
          ) : null}
          {active ? (
            <Act intent="deactivate" userId={member.id} label="Deactivate" pending="Deactivating…" tone="danger" />
          ) : (
            <Act intent="reactivate" userId={member.id} label="Reactivate" pending="Reactivating…" />
          )}
        </div>
      </div>
    </details>
  );
}

/** Revoke on an invitation's card: its link stops working at once. */
function RevokeInvitation({ email }: { email: string }) {
  return (
    <Form method="post" className="mt-3">
      <input type="hidden" name="email" value={email} />
      <SubmitButton intent="revoke" pendingText="Revoking…" tone="danger" className="text-sm">
        <span>
          Revoke<span className="sr-only"> the invitation to {email}</span>
        </span>
      </SubmitButton>
    </Form>
  );
}

/** The admins, as cards (they read the same on a phone), then the invitations not accepted yet. */
export function TeamMembers({
  members,
  invitations,
  viewerId,
  reply,
}: {
  members: TeamMember[];
  invitations: InvitationView[];
  viewerId: string;
  reply: IntentReply | undefined;
}) {
  return (
    <section aria-labelledby="team-heading" className="space-y-3">
      <h2 id="team-heading" className="text-xl font-semibold">
        Admins
      </h2>
      <ul className="space-y-3">
        {members.map((member) => (
          <li key={member.id} className="rounded-xl border border-border bg-surface p-4">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <p className="font-semibold">
                {member.name || member.email}
                {member.id === viewerId ? <span className="ml-2 text-sm font-normal text-ink-muted">(you)</span> : null}
              </p>
              {member.deactivatedAt === null ? (
                <Badge tone="good">Active</Badge>
              ) : (
                <Badge tone="bad">Deactivated</Badge>
              )}
            </div>
            <p className="break-all text-sm text-ink-muted">{member.email}</p>
            <dl className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-3">
              <Fact label="Roles">
                <span className="flex flex-wrap gap-1">
                  {member.roles.length === 0
                    ? "None"
                    : member.roles.map((role) => <Badge key={role}>{ROLE_LABELS[role]}</Badge>)}
                </span>
              </Fact>
              <Fact label="Two-factor sign-in">{member.twoFactor ? "On" : "Not set up"}</Fact>
              <Fact label="Last sign-in">{member.lastSignInAt ? <Moment at={member.lastSignInAt} /> : "Never"}</Fact>
            </dl>
            {member.id === viewerId ? null : <Manage member={member} reply={reply} />}
          </li>
        ))}
        {invitations.map((invitation) => (
          <li key={invitation.email} className="rounded-xl border border-dashed border-border bg-surface p-4">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <p className="break-all font-semibold">{invitation.email}</p>
              <Badge>Invited, not yet accepted</Badge>
            </div>
            <dl className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-3">
              <Fact label="Roles">{formatRoles(invitation.roles)}</Fact>
              <Fact label="Link valid until">
                <Moment at={invitation.expiresAt} />
              </Fact>
            </dl>
            <RevokeInvitation email={invitation.email} />
          </li>
        ))}
      </ul>
    </section>
  );
}
