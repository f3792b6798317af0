import { data, Form, Link, redirect } from "react-router";
import { AuthCard, Banner, Field, FormErrors, SubmitButton } from "~/components/form";
import { UsePasskeyButton } from "~/components/passkeys/use-passkey-button";
import { pageMeta, RouteError } from "~/components/route-error";
import { refusalOf } from "~/lib/forms";
import { secondStepSchema, TWO_FACTOR_MESSAGES } from "~/lib/schemas/two-factor";
import { listPasskeys } from "~/server/auth/passkeys.server";
import { isSecondFactorLocked } from "~/server/auth/second-factor-proof.server";
import { completeSecondStep } from "~/server/auth/second-step.server";
import { clearChallengeCookie, openChallenge } from "~/server/auth/sign-in.server";
import type { AppEnv } from "~/server/env.server";
import { readValidForm } from "~/server/form.server";
import { getSessionUser } from "~/server/session.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/login_.two-factor";

export const meta: Route.MetaFunction = pageMeta(() => [{ title: "Two-factor authentication" }]);

// The half-signed-in state is no page for any cache.
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

/** No open second step in this browser (expired, ended, never started here): back to the password, saying why. */
async function challengeGone(env: AppEnv) {
  return redirectWithToast(
    env,
    "/login",
    { type: "error", description: TWO_FACTOR_MESSAGES.challengeExpired },
    { headers: { "Set-Cookie": await clearChallengeCookie(env) } },
  );
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getSessionUser(request, context);
  if (user) throw redirect(user.role === "admin" ? "/admin" : "/dashboard");
  const challenge = await openChallenge(context, request);
  if (!challenge) throw await challengeGone(context.env);
  return {
    method: new URL(request.url).searchParams.get("method") === "recovery" ? "recovery" : "totp",
    locked: await isSecondFactorLocked(context.db, challenge.user.id),
    // An account with a passkey may use it instead of a code.
    passkey: (await listPasskeys(context, challenge.user.id)).length > 0,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readValidForm(request, secondStepSchema);
  const challenge = await openChallenge(context, request);
  if (!challenge) throw await challengeGone(context.env);
  if (!form.ok) return data(refusalOf(form), { status: 400 });
  const result = await completeSecondStep(context, request, challenge, form.data.code);
  if (!result.ok) return data(refusalOf(result), { status: result.status });
  // Thrown: the redirect with the new session, which keeps the action's data type to its refusals.
  throw result.response;
}

export default function TwoFactorSignIn({ loaderData, actionData: reply }: Route.ComponentProps) {
  const { method, locked, passkey } = loaderData;
  const recovery = method === "recovery";
  const error = reply?.error ?? (locked ? TWO_FACTOR_MESSAGES.locked : null);
  return (
    <AuthCard title="Two-factor authentication">
      <FormErrors reply={reply}>
        {/* Keyed on the method, so switching between the two empties the field. */}
        <Form method="post" className="space-y-4" key={method}>
          {error ? <Banner tone="error">{error}</Banner> : null}
          <input type="hidden" name="method" value={method} />
          {recovery ? (
            <Field
              label={TWO_FACTOR_MESSAGES.recoveryPrompt}
              name="code"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              placeholder="xxxxx-xxxxx"
              required
            />
          ) : (
            <Field
              label={TWO_FACTOR_MESSAGES.codePrompt}
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              placeholder="123456"
              maxLength={7}
              required
            />
          )}
          <SubmitButton pendingText="Verifying..." className="w-full">
            Verify
          </SubmitButton>
        </Form>
      </FormErrors>
      {passkey ? (
        <UsePasskeyButton
          url="/passkeys/verify"
          label="Use a passkey"
          onVerified={(outcome) => window.location.assign(outcome.redirectTo ?? "/")}
          className="mt-4"
        />
      ) : null}
      <div className="mt-6 space-y-2 text-sm">
        <p>
          {recovery ? (
            <Link to="/login/two-factor" className="text-brand underline underline-offset-2 hover:no-underline">
              Use your authenticator app instead
            </Link>
          ) : (
            <Link
              to="/login/two-factor?method=recovery"
              className="text-brand underline underline-offset-2 hover:no-underline"
            >
              Use a recovery code instead
            </Link>
          )}
        </p>
        <p>
          <Link to="/login" className="text-ink-muted underline underline-offset-2 hover:no-underline">
            Cancel and sign in again
          </Link>
        </p>
      </div>
    </AuthCard>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
