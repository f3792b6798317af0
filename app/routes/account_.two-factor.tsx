import { type ReactNode, useEffect, useId } from "react";
import { Form, Link, redirect } from "react-router";
import { toast } from "sonner";
import { PasskeysCard } from "~/components/account/passkeys-card";
import { RecoveryCodes } from "~/components/account/recovery-codes";
import { Banner, CurrentPasswordField, Field, FormErrors, SubmitButton } from "~/components/form";
import { QrCode } from "~/components/qr-code";
import { pageMeta, RouteError } from "~/components/route-error";
import { type FormReply, validateForm } from "~/lib/forms";
import { type IntentReply, refusalFor as sharedRefusalFor } from "~/lib/intent-reply";
import { confirmTwoFactorSchema, manageTwoFactorSchema, TWO_FACTOR_MESSAGES } from "~/lib/schemas/two-factor";
import { regenerateRecoveryCodes } from "~/server/auth/recovery-codes.server";
import { confirmEnrolment, disableTwoFactor, startEnrolment, twoFactorSetup } from "~/server/auth/two-factor.server";
import { readForm } from "~/server/form.server";
import { dispatchIntent } from "~/server/intents.server";
import { mustSetUpTwoFactor, requireUser, TWO_FACTOR_SETUP_PATH } from "~/server/session.server";
import type { Route } from "./+types/account_.two-factor";

export const meta: Route.MetaFunction = pageMeta(() => [{ title: "Two-factor authentication" }]);

export async function loader({ request, context }: Route.LoaderArgs) {
  // The one page an admin without two-factor sign-in may open.
  const user = await requireUser(request, context, { twoFactorSetup: true });
  return {
    setup: await twoFactorSetup(context, user),
    isAdmin: user.role === "admin",
    // An admin may meet the two-factor rule with a passkey instead of the app (docs/product.md, "Passkeys").
    mustEnrol: mustSetUpTwoFactor(user),
    passkeyOn: user.hasPasskey,
  };
}

type Intent = "start" | "confirm" | "disable" | "regenerate";
/** New recovery codes: in this answer only, never again. */
type Reply = IntentReply & { recoveryCodes?: string[] };

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context, { twoFactorSetup: true });
  const formData = await readForm(request);
  // Turning two-factor off and new recovery codes both ask the owner's password and a code first.
  const ownerProof = () => validateForm(manageTwoFactorSchema, formData);
  return dispatchIntent<Intent, Reply>(formData, {
    start: async (reply) => {
      const started = await startEnrolment(context.db, context.env.TOTP_ENCRYPTION_KEY, user.id);
      if (!started.ok) return reply.refused({ error: started.error, status: 409 });
      // The new key is the page's to show: reloading it must not start again.
      throw redirect(TWO_FACTOR_SETUP_PATH);
    },
    confirm: async (reply) => {
      const form = validateForm(confirmTwoFactorSchema, formData);
      if (!form.ok) return reply.refused(form);
      const result = await confirmEnrolment(context, request, user, form.data);
      if (!result.ok) return reply.refused(result);
      return reply.done(TWO_FACTOR_MESSAGES.turnedOn, { recoveryCodes: result.recoveryCodes });
    },
    disable: async (reply) => {
      const form = ownerProof();
      if (!form.ok) return reply.refused(form);
      const result = await disableTwoFactor(context, request, user, form.data);
      return result.ok ? reply.done(TWO_FACTOR_MESSAGES.turnedOff) : reply.refused(result);
    },
    regenerate: async (reply) => {
      const form = ownerProof();
      if (!form.ok) return reply.refused(form);
      const result = await regenerateRecoveryCodes(context, request, user, form.data);
      if (!result.ok) return reply.refused(result);
      return reply.done(TWO_FACTOR_MESSAGES.codesRegenerated, { recoveryCodes: result.recoveryCodes });
    },
  });
}

const LINK = "text-brand underline underline-offset-2 hover:no-underline";
const SECONDARY_BUTTON =
  "inline-flex items-center justify-center rounded-md border border-border px-4 py-2 font-medium hover:bg-surface-raised focus:outline-none focus:ring-2 focus:ring-brand/60";

function Card({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <article className="rounded-xl border border-border bg-surface p-6" aria-labelledby={id}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      <div className="mt-2 space-y-4">{children}</div>
    </article>
  );
}

/** A code field: the authenticator's 6 digits (or, where `recoveryAllowed`, a recovery code). */
function CodeField({ recoveryAllowed = false }: { recoveryAllowed?: boolean }) {
  return (
    <Field
      label={recoveryAllowed ? "Authentication code" : TWO_FACTOR_MESSAGES.codePrompt}
      hint={
        recoveryAllowed ? "The 6-digit code from your authenticator app, or one of your recovery codes." : undefined
      }
      name="code"
      inputMode={recoveryAllowed ? "text" : "numeric"}
      autoComplete="one-time-code"
      autoCapitalize="none"
      spellCheck={false}
      required
    />
  );
}

function TurnOn() {
  return (
    <Card title="Turn on two-factor authentication">
      <p className="text-sm text-ink-muted">
        Each sign-in will then ask for your password and a 6-digit code from an authenticator app on your phone (Google
        Authenticator, Microsoft Authenticator, 1Password, Authy, or any other TOTP app).
      </p>
      <Form method="post">
        <SubmitButton intent="start" pendingText="Starting...">
          Set up two-factor authentication
        </SubmitButton>
      </Form>
    </Card>
  );
}

function Enrol({
  qr,
  secret,
  asksPassword,
  refusal,
}: {
  qr: { path: string; size: number };
  secret: string;
  asksPassword: boolean;
  refusal: FormReply;
}) {
  return (
    <Card title="Set up your authenticator app">
      <ol className="list-decimal space-y-6 pl-5">
        <li className="space-y-3">
          <p>Scan this QR code with your authenticator app.</p>
          <QrCode path={qr.path} size={qr.size} label="QR code that adds this account to an authenticator app" />
          <dl>
            <dt className="text-sm text-ink-muted">No camera? Enter this setup key in the app instead:</dt>
            <dd className="mt-1 break-all font-mono text-lg tracking-wider" data-testid="totp-secret">
              {secret}
            </dd>
          </dl>
        </li>
        <li>
          <p>Then enter the code the app shows, to check that it works.</p>
          <FormErrors reply={refusal}>
            <Form method="post" className="mt-3 space-y-4">
              {asksPassword ? <CurrentPasswordField /> : null}
              <CodeField />
              <SubmitButton intent="confirm" pendingText="Turning on...">
                Turn on two-factor authentication
              </SubmitButton>
            </Form>
          </FormErrors>
        </li>
      </ol>
      <Form method="post">
        <button type="submit" name="intent" value="start" className={SECONDARY_BUTTON}>
          Start over with a new key
        </button>
      </Form>
    </Card>
  );
}

/** Password and code, the proof that turning it off and new recovery codes both ask for. */
function OwnerProof({ intent, refusal, children }: { intent: Intent; refusal: FormReply; children: ReactNode }) {
  return (
    <FormErrors reply={refusal}>
      <Form method="post" className="space-y-4">
        <CurrentPasswordField />
        <CodeField recoveryAllowed />
        {/* Turning it off takes a protection away: the danger button. */}
        <SubmitButton intent={intent} pendingText="Checking..." tone={intent === "disable" ? "danger" : "primary"}>
          {children}
        </SubmitButton>
      </Form>
    </FormErrors>
  );
}

function Manage({
  recoveryCodesLeft,
  isAdmin,
  refusalFor,
  formKey,
}: {
  recoveryCodesLeft: number;
  isAdmin: boolean;
  refusalFor: (intent: Intent) => FormReply;
  formKey: number;
}) {
  return (
    <>
      <Card title="Two-factor authentication is on">
        <p className="text-sm text-ink-muted">
          Signing in asks for a code from your authenticator app. {recoveryCodesLeft} of your recovery codes{" "}
          {recoveryCodesLeft === 1 ? "is" : "are"} unused.
        </p>
      </Card>
      <Card title="New recovery codes">
        <p className="text-sm text-ink-muted">
          Makes 10 new recovery codes; the earlier ones, used or not, stop working.
        </p>
        <OwnerProof key={`regenerate-${formKey}`} intent="regenerate" refusal={refusalFor("regenerate")}>
          Get new recovery codes
        </OwnerProof>
      </Card>
      <Card title="Turn off two-factor authentication">
        <p className="text-sm text-ink-muted">
          {isAdmin
            ? "Administrators must use two-factor authentication: once it is off, you set it up again, with a new key, before you can open anything else."
            : "Signing in will then ask for your password alone."}
        </p>
        <OwnerProof key={`disable-${formKey}`} intent="disable" refusal={refusalFor("disable")}>
          Turn off two-factor authentication
        </OwnerProof>
      </Card>
    </>
  );
}

export default function TwoFactorSettings({ loaderData, actionData: reply }: Route.ComponentProps) {
  const { setup, isAdmin, mustEnrol, passkeyOn } = loaderData;
  useEffect(() => {
    if (reply?.tone === "success") toast.success(reply.message);
  }, [reply]);
  const refusalFor = (intent: Intent): FormReply => sharedRefusalFor(reply, intent);
  const recoveryCodes = reply?.tone === "success" ? reply.recoveryCodes : undefined;
  const mustSetUp = mustEnrol;

  return (
    <section className="mx-auto max-w-3xl space-y-6">
      {mustSetUp ? null : (
        <Link to="/account" className={`text-sm ${LINK}`}>
          Back to Account Settings
        </Link>
      )}
      <h1 className="text-3xl font-bold">Two-factor authentication</h1>
      {mustSetUp ? (
        <p role="status" className="rounded-md border border-pending/50 bg-pending/10 px-4 py-3 text-sm text-pending">
          {TWO_FACTOR_MESSAGES.adminMustSetUp}
        </p>
      ) : null}
      {reply ? <Banner tone={reply.tone}>{reply.message}</Banner> : null}
      {recoveryCodes ? (
        <>
          <RecoveryCodes codes={recoveryCodes} />
          <p>
            <Link to={isAdmin ? "/admin" : "/account"} className={LINK}>
              {isAdmin
                ? "I have saved them: continue to the Admin Panel"
                : "I have saved them: back to Account Settings"}
            </Link>
          </p>
        </>
      ) : null}
      {isAdmin && passkeyOn && setup.state !== "on" ? (
        <p role="status" className="rounded-md border border-success/50 bg-success/10 px-4 py-3 text-sm text-success">
          Two-factor sign-in is on with your passkey.{" "}
          <Link to="/admin" className={LINK}>
            Continue to the Admin Panel
          </Link>
        </p>
      ) : null}
      {setup.state === "off" ? <TurnOn /> : null}
      {mustSetUp && setup.state === "off" ? (
        <PasskeysCard passkeys={[]} proof="password" title="Or use a passkey" />
      ) : null}
      {setup.state === "enrolling" ? (
        <Enrol
          key={setup.secret}
          qr={setup.qr}
          secret={setup.secret}
          asksPassword={setup.asksPassword}
          refusal={refusalFor("confirm")}
        />
      ) : null}
      {setup.state === "on" ? (
        <Manage
          recoveryCodesLeft={setup.recoveryCodesLeft}
          isAdmin={isAdmin}
          refusalFor={refusalFor}
          formKey={reply?.tone === "success" ? reply.at : 0}
        />
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
