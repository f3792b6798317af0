import { data, redirect } from "react-router";
import { CountrySelect } from "~/components/country-select";
import { AuthCard, AuthForm, Field, SubmitButton } from "~/components/form";
import { pageMeta, RouteError } from "~/components/route-error";
import { TermsCheckbox } from "~/components/terms-checkbox";
import { errorFor, type FormRefusal, refusalOf } from "~/lib/forms";
import { completeProfileSchema } from "~/lib/schemas/auth";
import { OAUTH_MESSAGES } from "~/lib/schemas/oauth";
import { useFormCheck } from "~/lib/use-form-check";
import { completeSignUp, pendingSignUp } from "~/server/auth/oauth-accounts.server";
import { readValidForm } from "~/server/form.server";
import { getSessionUser } from "~/server/session.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/register_.complete";

export const meta: Route.MetaFunction = pageMeta(() => [{ title: "Complete your profile" }]);

// The page shows whom the provider vouched for (e-mail and name) to the browser that holds the sign-up: no page
// for any cache, shared or the browser's own.
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

/** A new person back from Google or GitHub: the registration fields the provider does not give. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getSessionUser(request, context);
  if (user) throw redirect(user.role === "admin" ? "/admin" : "/dashboard");
  const pending = await pendingSignUp(context, request);
  if (!pending) {
    throw await redirectWithToast(context.env, "/register", {
      type: "error",
      description: OAUTH_MESSAGES.profileExpired,
    });
  }
  return { pending };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readValidForm(request, completeProfileSchema);
  if (!form.ok) return data(refusalOf(form), { status: 400 });
  const result = await completeSignUp(context, request, form.data);
  if (!result.ok) {
    return data<FormRefusal>({ error: result.error, field: result.field }, { status: result.status });
  }
  throw result.response;
}

export default function CompleteProfile({ loaderData, actionData }: Route.ComponentProps) {
  const { pending } = loaderData;
  const { refusal, checkBeforeSubmit } = useFormCheck(completeProfileSchema, actionData);

  return (
    <AuthCard title="Complete your profile">
      <p className="-mt-2 mb-6 text-sm text-ink-muted">
        You signed in with {pending.providerName} as <strong className="break-all text-ink">{pending.email}</strong>. A
        few more details and your account is ready.
      </p>
      <AuthForm reply={refusal} onSubmit={checkBeforeSubmit}>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="First Name" name="firstName" defaultValue={pending.firstName} autoComplete="given-name" />
          <Field label="Last Name" name="lastName" defaultValue={pending.lastName} autoComplete="family-name" />
        </div>
        <Field label="Username" name="username" autoComplete="username" />
        <Field label="Phone Number" name="phoneNumber" type="tel" autoComplete="tel" />
        <CountrySelect />
        <Field label="Referral ID (optional)" name="referralId" />
        <TermsCheckbox error={errorFor(refusal, "terms")} />
        <SubmitButton pendingText="Creating account..." className="w-full">
          Create Account
        </SubmitButton>
      </AuthForm>
    </AuthCard>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
