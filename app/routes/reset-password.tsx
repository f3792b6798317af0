import type { JSX } from "react";
import { data, Link } from "react-router";
import { BackToSignIn } from "~/components/auth-links";
import { AuthCard, AuthForm, Banner, Field, SubmitButton } from "~/components/form";
import { pageMeta, RouteError } from "~/components/route-error";
import { refusalOf } from "~/lib/forms";
import { MESSAGES, resetPasswordSchema } from "~/lib/schemas/auth";
import { useRedirectAfterSuccess } from "~/lib/timers";
import { isResetTokenUsable } from "~/server/auth/links.server";
import { resetPasswordFromLink } from "~/server/auth/visitor-commands.server";
import { readValidForm } from "~/server/form.server";
import type { Route } from "./+types/reset-password";

export const meta: Route.MetaFunction = pageMeta(() => [
  { title: "Reset Password" },
  { name: "robots", content: "noindex" },
]);

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, usable: await isResetTokenUsable(context.db, token) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readValidForm(request, resetPasswordSchema);
  if (!form.ok) return data({ ...refusalOf(form), expired: false, done: false }, { status: 400 });
  const reset = await resetPasswordFromLink(context, request, form.data);
  if (!reset.ok) return data({ ...refusalOf(reset), expired: true, done: false }, { status: reset.status });
  return { error: null, field: undefined, expired: false, done: true };
}

function AskAgain() {
  return (
    <p className="mt-4 text-sm">
      <Link to="/forgot-password" className="text-brand underline underline-offset-2 hover:decoration-2">
        Request a new reset link
      </Link>
    </p>
  );
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { token, usable } = loaderData;
  const done = actionData?.done === true;

  useRedirectAfterSuccess(done);

  let body: JSX.Element;
  if (done) body = <Banner tone="success">{MESSAGES.passwordUpdatedRedirecting}</Banner>;
  else if (!usable || actionData?.expired)
    body = (
      <>
        <Banner tone="error">{MESSAGES.resetLinkInvalid}</Banner>
        <AskAgain />
      </>
    );
  else
    body = (
      <AuthForm reply={actionData}>
        <input type="hidden" name="token" value={token} />
        <Field label="New Password" name="password" type="password" autoComplete="new-password" required />
        <Field label="Confirm Password" name="confirmPassword" type="password" autoComplete="new-password" required />
        <SubmitButton pendingText="Updating..." className="w-full">
          Update Password
        </SubmitButton>
      </AuthForm>
    );

  return (
    <AuthCard title="Choose a new password">
      {body}
      <BackToSignIn />
    </AuthCard>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
