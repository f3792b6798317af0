import { data, redirect } from "react-router";
import { AuthCard, AuthForm, Banner, Field, SubmitButton } from "~/components/form";
import { pageMeta, RouteError } from "~/components/route-error";
import { refusalOf } from "~/lib/forms";
import { acceptInvitationSchema, formatRoles, TEAM_MESSAGES } from "~/lib/team";
import { acceptInvitation, openInvitation } from "~/server/admin/team-invitations.server";
import { readValidForm } from "~/server/form.server";
import { TWO_FACTOR_SETUP_PATH } from "~/server/session.server";
import type { Route } from "./+types/team.invite";

export const meta: Route.MetaFunction = pageMeta(() => [
  { title: "Join the team" },
  { name: "robots", content: "noindex" },
]);

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const invitation = await openInvitation(context, token);
  return { token, invitation: invitation && { email: invitation.email, roles: formatRoles(invitation.roles) } };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readValidForm(request, acceptInvitationSchema);
  if (!form.ok) return data({ ...refusalOf(form), unusable: false }, { status: 400 });
  const accepted = await acceptInvitation(context, request, form.data);
  if (!accepted.ok)
    return data({ error: accepted.error, field: undefined, unusable: true }, { status: accepted.status });
  // Signed in, and every page but the two-factor set-up sends a new admin there: go there at once.
  return redirect(TWO_FACTOR_SETUP_PATH, { headers: { "Set-Cookie": accepted.setCookie } });
}

export default function JoinTheTeam({ loaderData, actionData: reply }: Route.ComponentProps) {
  const { token, invitation } = loaderData;
  if (!invitation || reply?.unusable) {
    return (
      <AuthCard title="Join the team">
        <Banner tone="error">{TEAM_MESSAGES.invitationUnusable}</Banner>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Join the team">
      <p className="mb-4 text-sm text-ink-muted">
        You are invited as <span className="font-medium text-ink">{invitation.roles}</span> with{" "}
        <span className="break-all font-medium text-ink">{invitation.email}</span>. Choose your name and a password; you
        then set up two-factor sign-in with an authenticator app.
      </p>
      <AuthForm reply={reply}>
        <input type="hidden" name="token" value={token} />
        <Field label="First name" name="firstName" autoComplete="given-name" required />
        <Field label="Last name" name="lastName" autoComplete="family-name" required />
        <Field label="Password" name="password" type="password" autoComplete="new-password" required />
        <Field label="Confirm Password" name="confirmPassword" type="password" autoComplete="new-password" required />
        <SubmitButton pendingText="Joining…" className="w-full">
          Join the team
        </SubmitButton>
      </AuthForm>
    </AuthCard>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
