import { data } from "react-router";
import { BackToSignIn } from "~/components/auth-links";
import { AuthCard, AuthForm, Banner, Field } from "~/components/form";
import { pageMeta, RouteError } from "~/components/route-error";
import { CheckedSubmit } from "~/components/turnstile";
import { refusalOf } from "~/lib/forms";
import { forgotPasswordSchema, MESSAGES } from "~/lib/schemas/auth";
import { useRedirectAfterSuccess } from "~/lib/timers";
import { forgotPassword } from "~/server/auth/visitor-commands.server";
import { readValidForm } from "~/server/form.server";
import { challengeWidget } from "~/server/turnstile.server";
import type { Route } from "./+types/forgot-password";

export const meta: Route.MetaFunction = pageMeta(() => [{ title: "Forgot Password" }]);

export function loader({ context }: Route.LoaderArgs) {
  return { widget: challengeWidget(context.env) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readValidForm(request, forgotPasswordSchema);
  if (!form.ok) return data({ ...refusalOf(form), sent: false }, { status: 400 });
  const asked = await forgotPassword(context, request, form.data);
  if (!asked.ok) return data({ ...refusalOf(asked), sent: false }, { status: asked.status });
  // The same answer whether or not the address has an account.
  return { error: null, field: undefined, sent: true };
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { widget } = loaderData;
  const sent = actionData?.sent === true;

  useRedirectAfterSuccess(sent);

  return (
    <AuthCard title="Reset your password">
      {sent ? (
        <Banner tone="success">{MESSAGES.resetEmailSent}</Banner>
      ) : (
        <AuthForm reply={actionData}>
          <p className="text-sm text-ink-muted">
            Enter your email and we will send you a link to choose a new password.
          </p>
          <Field label="Email" name="email" type="email" autoComplete="email" required />
          <CheckedSubmit widget={widget} action="forgot-password" resetKey={actionData} pendingText="Sending...">
            Send Reset Link
          </CheckedSubmit>
        </AuthForm>
      )}
      <BackToSignIn />
    </AuthCard>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
