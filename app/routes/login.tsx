import { data, Form, Link, redirect } from "react-router";
import { OtherAccountForm } from "~/components/auth-links";
import { AuthCard, Banner, Field, FormErrors } from "~/components/form";
import { ContinueWithProviders, ProviderNotice } from "~/components/oauth-buttons";
import { PasskeySignIn } from "~/components/passkeys/passkey-sign-in";
import { pageMeta, RouteError } from "~/components/route-error";
import { CheckedSubmit } from "~/components/turnstile";
import { type FormRefusal, refusalOf } from "~/lib/forms";
import { safeRedirect } from "~/lib/safe-redirect";
import { MESSAGES, signInSchema } from "~/lib/schemas/auth";
import { seo } from "~/lib/seo";
import { clientMeta } from "~/server/auth/client-meta.server";
import { signInProviders } from "~/server/auth/oauth-accounts.server";
import { linkWaitingForSignIn } from "~/server/auth/oauth-links.server";
import { signIn } from "~/server/auth/password-sign-in.server";
import { afterFirstFactor } from "~/server/auth/sign-in.server";
import { readValidForm } from "~/server/form.server";
import { BUDGETS, clientIp, isOverBudget } from "~/server/rate-limit.server";
import { getSessionUser } from "~/server/session.server";
import { challengeWidget, passesChallenge } from "~/server/turnstile.server";
import type { Route } from "./+types/login";

const homeFor = (role: "user" | "admin") => (role === "admin" ? "/admin" : "/dashboard");

export const meta: Route.MetaFunction = pageMeta(({ matches }) =>
  seo(matches, { title: "Sign In", description: "Sign in to your account.", path: "/login" }),
);

const STATUS_OF_REFUSAL: Record<string, number> = {
  [MESSAGES.tooManyAttempts]: 429,
  [MESSAGES.challengeRequired]: 403,
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getSessionUser(request, context);
  if (user) throw redirect(homeFor(user.role));
  return {
    redirectTo: new URL(request.url).searchParams.get("redirectTo") ?? "",
    widget: challengeWidget(context.env),
    // An address with repeated failures gets the security check from the start; an account under attack,
    // once its e-mail has been tried (the action's answer says so).
    challenge: await isOverBudget(context.db, BUDGETS.signInCheckPerIp, clientIp(request)),
    providers: signInProviders(context.env),
    providerNotice: await linkWaitingForSignIn(context, request),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readValidForm(request, signInSchema);
  if (!form.ok) return data(refusalOf(form), { status: 400 });
  const result = await signIn(context, form.data, {
    ip: clientIp(request),
    challenge: () => passesChallenge(context, request, form.data.challenge, "login"),
    meta: clientMeta(request, context.cf),
  });
  if (!result.ok) {
    // Wrong credentials are about the pair, not one field: the banner alone says so.
    return data<FormRefusal & { challenge: boolean }>(
      { error: result.error, challenge: result.challenge },
      { status: STATUS_OF_REFUSAL[result.error] ?? 401 },
    );
  }
  const redirectTo = result.user.role === "admin" ? "/admin" : safeRedirect(form.data.redirectTo, "/dashboard");
  // Thrown: a redirect either way (the second step or the session), which keeps the action's data type to its refusals.
  throw await afterFirstFactor(context, request, result.user, { method: "password", redirectTo });
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { redirectTo, widget, challenge, providers, providerNotice } = loaderData;
  const needsCheck = challenge || (actionData && "challenge" in actionData && actionData.challenge);
  return (
    <AuthCard title="Sign in to your account">
      {providerNotice ? <ProviderNotice>{providerNotice}</ProviderNotice> : null}
      <FormErrors reply={actionData}>
        <Form method="post" className="space-y-4" noValidate={false}>
          {actionData?.error ? <Banner tone="error">{actionData.error}</Banner> : null}
          <input type="hidden" name="redirectTo" value={redirectTo} />
          {/* `webauthn` lets the browser offer the account's passkeys in the field's suggestions. */}
          <Field label="Email" name="email" type="email" autoComplete="email webauthn" required />
          <Field label="Password" name="password" type="password" autoComplete="current-password" required />
          <div className="flex justify-end text-sm">
            <Link to="/forgot-password" className="text-brand underline underline-offset-2 hover:decoration-2">
              Forgot your password?
            </Link>
          </div>
          <CheckedSubmit
            widget={widget}
            action="login"
            resetKey={actionData}
            required={Boolean(needsCheck)}
            pendingText="Signing in..."
          >
            Sign In
          </CheckedSubmit>
        </Form>
      </FormErrors>
      <PasskeySignIn redirectTo={redirectTo} />
      <ContinueWithProviders providers={providers} />
      <OtherAccountForm question="Don't have an account?" to="/register">
        Register
      </OtherAccountForm>
    </AuthCard>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
