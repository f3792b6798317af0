import { useEffect, useState } from "react";
import { Form, useNavigation } from "react-router";
import { toast } from "sonner";
import { ActivityCard } from "~/components/account/activity-card";
import { ConfirmEmailNotice } from "~/components/account/confirm-email-notice";
import { MailPreferencesCard } from "~/components/account/mail-preferences-card";
import { PasskeysCard } from "~/components/account/passkeys-card";
import { ProvidersCard } from "~/components/account/providers-card";
import { SessionsCard } from "~/components/account/sessions-card";
import { TwoFactorCard } from "~/components/account/two-factor-card";
import { Banner, CurrentPasswordField, Field, FormErrors, SubmitButton } from "~/components/form";
import { pageMeta, RouteError } from "~/components/route-error";
import { VerificationStatusCard } from "~/components/verification/verification-status-card";
import { formatLongDate } from "~/lib/format";
import { validateForm } from "~/lib/forms";
import { type IntentReply, refusalFor } from "~/lib/intent-reply";
import { MAIL_PREFERENCE_MESSAGES } from "~/lib/mail-preferences";
import { changePasswordSchema, MESSAGES, profileSchema } from "~/lib/schemas/auth";
import { SUCCESS_MESSAGE_MS } from "~/lib/timers";
import { summarizeVerification } from "~/lib/verification-summary";
import { getAccount, updateProfile } from "~/server/accounts.server";
import { sessionsAndSignIns } from "~/server/auth/account-sessions.server";
import { clientMeta } from "~/server/auth/client-meta.server";
import { providersOf } from "~/server/auth/oauth-links.server";
import { listPasskeys } from "~/server/auth/passkeys.server";
import { changePassword } from "~/server/auth/passwords.server";
import { twoFactorStatus } from "~/server/auth/two-factor.server";
import { readForm } from "~/server/form.server";
import { notFound } from "~/server/http.server";
import { dispatchIntent, UNKNOWN_INTENT } from "~/server/intents.server";
import { mailPreferencesOf, saveMailPreferences } from "~/server/notifications/mail-preferences.server";
import { requireUser } from "~/server/session.server";
import { stateOf, verificationStateQuery } from "~/server/verification/cases.server";
import type { Route } from "./+types/account";

export const meta: Route.MetaFunction = pageMeta(() => [{ title: "Account Settings" }]);

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  // Independent reads, asked for at once.
  const [account, { sessions, signIns }, providers, twoFactor, verification, passkeys, mailPreferences] =
    await Promise.all([
      getAccount(context.db, user.id),
      sessionsAndSignIns(context.db, user),
      providersOf(context, user),
      twoFactorStatus(context.db, user.id),
      // Verification is a client's matter: an admin's account has none.
      user.role === "user" ? verificationStateQuery(context.db, user.id) : [],
      listPasskeys(context, user.id),
      // Mail preferences are a client's: an admin's mails are all the desk's or security notices.
      user.role === "user" ? mailPreferencesOf(context.db, user.id) : null,
    ]);
  if (!account) notFound();
  const verificationState = stateOf(verification);
  return {
    verification: verificationState
      ? summarizeVerification(verificationState, Date.now(), context.env.VERIFICATION_INTRODUCED_AT)
      : null,
    twoFactor,
    sessions,
    signIns,
    account: {
      id: account.id,
      email: account.email,
      createdAt: formatLongDate(account.createdAt),
      lastLoginAt: formatLongDate(account.lastLoginAt),
      firstName: account.firstName ?? "",
      lastName: account.lastName ?? "",
      phoneNumber: account.phoneNumber ?? "",
      // Only a client is offered a new confirmation link (an admin's address is the operator's business).
      awaitsConfirmation: user.role === "user" && account.emailConfirmedAt === null,
    },
    providers,
    passkeys,
    mailPreferences,
    admin: user.role === "admin",
    // What adding a passkey asks first (docs/product.md, "Passkeys").
    passkeyProof: twoFactor.enabled
      ? "code"
      : user.twoFactorEnabled
        ? "passkey"
        : providers.hasPassword
          ? "password"
          : "none",
  } as const;
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const formData = await readForm(request);
  return dispatchIntent(
    formData,
    {
      profile: async (reply) => {
        const form = validateForm(profileSchema, formData);
        if (!form.ok) return reply.refused(form);
        await updateProfile(context.db, user.id, form.data);
        return reply.done(MESSAGES.profileUpdated);
      },
      password: async (reply) => {
        const form = validateForm(changePasswordSchema, formData);
        if (!form.ok) return reply.refused(form);
        const result = await changePassword(context, user, form.data, { meta: clientMeta(request, context.cf) });
        if (!result.ok) return reply.refused(result);
        return reply.done(MESSAGES.passwordUpdated);
      },
      "mail-preferences": async (reply) => {
        if (user.role !== "user") return reply.refused({ error: UNKNOWN_INTENT });
        await saveMailPreferences(context.db, user.id, formData);
        return reply.done(MAIL_PREFERENCE_MESSAGES.saved);
      },
    },
    // The profile form was the page's only one: a post without an intent is still that form.
    { fallback: "profile" },
  );
}

/** One banner for both forms: cleared when either is submitted, success hidden again after 3 s. */
function useBanner(result: IntentReply | undefined) {
  const navigation = useNavigation();
  // Shown from the first render, so the page the server sends (and a browser without JavaScript) carries it too.
  const [shown, setShown] = useState<IntentReply | null>(result ?? null);
  useEffect(() => {
    if (!result) return;
    setShown(result);
    if (result.tone === "success") toast.success(result.message);
    if (result.tone !== "success") return;
    const timer = setTimeout(() => setShown(null), SUCCESS_MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [result]);
  return navigation.state === "submitting" ? null : shown;
}

export default function AccountSettings({ loaderData, actionData: result }: Route.ComponentProps) {
  const {
    account,
    sessions,
    signIns,
    providers,
    twoFactor,
    verification,
    passkeys,
    passkeyProof,
    mailPreferences,
    admin,
  } = loaderData;
  const banner = useBanner(result);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const passwordChanged = result?.intent === "password" && result.tone === "success" ? result.at : 0;
  // The field an error is about follows the banner: shown with it, cleared with it.
  const passwordRefusal = passwordError
    ? { error: passwordError, field: "confirmPassword" }
    : refusalFor(banner, "password");

  return (
    <section className="mx-auto max-w-3xl space-y-6">
      <h1 className="text-3xl font-bold">Account Settings</h1>
      {passwordError ? (
        <Banner tone="error">{passwordError}</Banner>
      ) : banner ? (
        <Banner tone={banner.tone}>{banner.message}</Banner>
      ) : null}

      {account.awaitsConfirmation ? <ConfirmEmailNotice redirectTo="/account" /> : null}

      <article className="rounded-xl border border-border bg-surface p-6">
        <h2 className="text-lg font-semibold">Account Information</h2>
        <dl className="mt-4 grid gap-4 sm:grid-cols-2">
          {[
            ["Account ID", account.id],
            ["Email Address", account.email],
            ["Account Created", account.createdAt],
            ["Last Login", account.lastLoginAt],
          ].map(([label, value]) => (
            <div key={label}>
              <dt className="text-sm text-ink-muted">{label}</dt>
              <dd className="mt-1 break-all font-medium">{value}</dd>
            </div>
          ))}
        </dl>
      </article>

      <article className="rounded-xl border border-border bg-surface p-6">
        <h2 className="text-lg font-semibold">Profile Settings</h2>
        {/* Keyed on the stored values, so the fields refill whenever they change. */}
        <FormErrors reply={passwordError ? null : refusalFor(banner, "profile")}>
          <Form
            method="post"
            className="mt-4 space-y-4"
            key={`${account.firstName}|${account.lastName}|${account.phoneNumber}`}
            onSubmit={() => setPasswordError(null)}
          >
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="First Name" name="firstName" defaultValue={account.firstName} autoComplete="given-name" />
              <Field label="Last Name" name="lastName" defaultValue={account.lastName} autoComplete="family-name" />
            </div>
            <Field
              label="Phone Number"
              name="phoneNumber"
              type="tel"
              defaultValue={account.phoneNumber}
              autoComplete="tel"
            />
            <SubmitButton intent="profile" pendingText="Updating...">
              Update Profile
            </SubmitButton>
          </Form>
        </FormErrors>
      </article>

      {providers.hasPassword ? (
        <article className="rounded-xl border border-border bg-surface p-6">
          <h2 className="text-lg font-semibold">Change Password</h2>
          <FormErrors reply={passwordRefusal}>
            <Form
              method="post"
              className="mt-4 space-y-4"
              key={passwordChanged}
              onSubmit={(event) => {
                // A mismatch is caught here, before anything is sent (the server checks it again).
                const form = new FormData(event.currentTarget);
                const mismatch = form.get("newPassword") !== form.get("confirmPassword");
                setPasswordError(mismatch ? MESSAGES.newPasswordsDoNotMatch : null);
                if (mismatch) event.preventDefault();
              }}
            >
              {/* Tells a password manager whose password this is, so it updates the right saved login. */}
              <input type="email" name="username" autoComplete="username" value={account.email} readOnly hidden />
              <CurrentPasswordField />
              <Field
                label="New Password"
                name="newPassword"
                type="password"
                placeholder="Enter new password"
                autoComplete="new-password"
                required
              />
              <Field
                label="Confirm New Password"
                name="confirmPassword"
                type="password"
                placeholder="Confirm new password"
                autoComplete="new-password"
                required
              />
              <SubmitButton intent="password" pendingText="Changing...">
                Change Password
              </SubmitButton>
            </Form>
          </FormErrors>
        </article>
      ) : (
        <article className="rounded-xl border border-border bg-surface p-6">
          <h2 className="text-lg font-semibold">Password</h2>
          <p className="mt-2 text-sm text-ink-muted">
            Your account has no password yet: you sign in with a provider below. To add one, sign out and use 'Forgot
            your password?' on the sign-in page; we mail you a link to choose it.
          </p>
        </article>
      )}

      {verification ? <VerificationStatusCard summary={verification} /> : null}
      {mailPreferences ? <MailPreferencesCard wanted={mailPreferences} /> : null}
      <TwoFactorCard
        enabled={twoFactor.enabled}
        recoveryCodesLeft={twoFactor.recoveryCodesLeft}
        passkeyOn={passkeys.length > 0}
      />
      <PasskeysCard passkeys={passkeys} proof={passkeyProof} admin={admin} />
      <ProvidersCard card={providers} />
      <SessionsCard sessions={sessions} />
      <ActivityCard signIns={signIns} />
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
