import { data, Form, Link, redirect } from "react-router";
import { AuthCard, Banner, Field, FormErrors, SubmitButton } from "~/components/form";
import { UsePasskeyButton } from "~/components/passkeys/use-passkey-button";
import { pageMeta, RouteError } from "~/components/route-error";
import { refusalOf } from "~/lib/forms";
import { secondStepSchema, TWO_FACTOR_MESSAGES } from "~/lib/schemas/two-factor";
import { isSecondFactorLocked } from "~/server/auth/second-factor-proof.server";
import { completeSecondStep, secondStepWays } from "~/server/auth/second-step.server";
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
  // The account's ways in: a passkey-only account is asked for its passkey, never for an app's code, and recovery
  // codes are offered only while some are unused.
  const ways = await secondStepWays(context.db, challenge.user.id);
  const askedForRecovery = new URL(request.url).searchParams.get("method") === "recovery";
  const method = askedForRecovery && ways.recoveryCodes ? "recovery" : ways.app ? "totp" : null;
  return {
    method,
    ways,
    locked: await isSecondFactorLocked(context.db, challenge.user.id),
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
  const { method, ways, locked } = loaderData;
  const recovery = method === "recovery";
  const error = reply?.error ?? (locked ? TWO_FACTOR_MESSAGES.locked : null);
  const link = "text-brand underline underline-offset-2 hover:decoration-2";
  return (
    <AuthCard title="Two-factor authentication">
      {method === null ? (
        <>
          {error ? <Banner tone="error">{error}</Banner> : null}
          <p className="text-sm text-ink-muted">Confirm it is you with your passkey.</p>
        </>
      ) : (
        <FormErrors reply={reply}>
          {/* Keyed on the method, so switching between the two empties the field. */}
          <Form method="post" className="space-y-4" key={method}>
            {error ? <Banner tone="error">{error}</Banner> : null}
            <input type="hidden" name="method" value={method} />
            {recovery ? (
              <Field
                label={TWO_FACTOR_MESSAGES.recoveryPrompt}
                name="code"
                autoComplete="one-time-code"
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
      )}
      {ways.passkey ? (
        <UsePasskeyButton
          url="/passkeys/verify"
          label="Use a passkey"
          onVerified={(outcome) => window.location.assign(outcome.redirectTo ?? "/")}
          className="mt-4"
        />
      ) : null}
      <div className="mt-6 space-y-2 text-sm">
        {recovery && ways.app ? (
          <p>
            <Link to="/login/two-factor" className={link}>
              Use your authenticator app instead
            </Link>
          </p>
        ) : null}
        {!recovery && ways.recoveryCodes ? (
          <p>
            <Link to="/login/two-factor?method=recovery" className={link}>
              Use a recovery code instead
            </Link>
          </p>
        ) : null}
        <p className="text-ink-muted">
          {`Lost your ${ways.app ? "authenticator" : "passkey"}${ways.recoveryCodes ? " and your recovery codes" : ""}?`}{" "}
          <Link to="/login/recovery" className={link}>
            Restore access with your identity document
          </Link>
        </p>
        <p>
          <Link to="/login" className="text-ink-muted underline underline-offset-2 hover:decoration-2">
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
