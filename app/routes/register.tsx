import { data, Link, redirect } from "react-router";
import { OtherAccountForm } from "~/components/auth-links";
import { CountrySelect } from "~/components/country-select";
import { AuthCard, AuthForm, Field } from "~/components/form";
import { ContinueWithProviders } from "~/components/oauth-buttons";
import { pageMeta, RouteError } from "~/components/route-error";
import { TermsCheckbox } from "~/components/terms-checkbox";
import { CheckedSubmit } from "~/components/turnstile";
import { errorFor, refusalOf } from "~/lib/forms";
import { registrationSchema } from "~/lib/schemas/auth";
import { seo } from "~/lib/seo";
import { useFormCheck } from "~/lib/use-form-check";
import { signInProviders } from "~/server/auth/oauth-accounts.server";
import { register } from "~/server/auth/visitor-commands.server";
import { readValidForm } from "~/server/form.server";
import { getSessionUser } from "~/server/session.server";
import { challengeWidget } from "~/server/turnstile.server";
import type { Route } from "./+types/register";

export const meta: Route.MetaFunction = pageMeta(({ matches }) =>
  seo(matches, { title: "Register", description: "Open a trading account in a few minutes.", path: "/register" }),
);

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getSessionUser(request, context);
  if (user) throw redirect(user.role === "admin" ? "/admin" : "/dashboard");
  return { widget: challengeWidget(context.env), providers: signInProviders(context.env) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readValidForm(request, registrationSchema);
  if (!form.ok) return data(refusalOf(form), { status: 400 });
  const registered = await register(context, request, form.data);
  if (!registered.ok) return data(refusalOf(registered), { status: registered.status });
  const headers = new Headers();
  for (const cookie of registered.cookies) headers.append("Set-Cookie", cookie);
  return redirect("/dashboard", { headers });
}

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const { widget, providers } = loaderData;
  const { refusal, checkBeforeSubmit } = useFormCheck(registrationSchema, actionData);
  const termsError = errorFor(refusal, "terms");

  return (
    <AuthCard title="Create your account">
      <AuthForm reply={refusal} onSubmit={checkBeforeSubmit}>
        <Field label="Email" name="email" type="email" autoComplete="email" required />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="First Name" name="firstName" autoComplete="given-name" />
          <Field label="Last Name" name="lastName" autoComplete="family-name" />
        </div>
        <Field label="Username" name="username" autoComplete="username" />
        <Field label="Phone Number" name="phoneNumber" type="tel" autoComplete="tel" />
        <CountrySelect />
        <Field label="Password" name="password" type="password" autoComplete="new-password" required />
        <Field label="Confirm Password" name="confirmPassword" type="password" autoComplete="new-password" />
        <Field label="Referral ID (optional)" name="referralId" />
        <TermsCheckbox error={termsError} />
        <CheckedSubmit widget={widget} action="register" resetKey={actionData} pendingText="Creating account...">
          Create Account
        </CheckedSubmit>
      </AuthForm>
      <ContinueWithProviders providers={providers} />
      <OtherAccountForm question="Already have an account?" to="/login">
        Sign in
      </OtherAccountForm>
      <p className="mt-2 text-center text-sm">
        <Link to="/" className="text-ink-muted hover:text-ink">
          Back to Home
        </Link>
      </p>
    </AuthCard>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
