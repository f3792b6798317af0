/**
 * The panels of the two-factor page (/account/two-factor): turning it on, the authenticator's set-up with its QR
 * code and key, and, once it is on, new recovery codes and turning it off, each behind the owner's password and code.
 */
import { type ReactNode, useId } from "react";
import { Form } from "react-router";
import { CurrentPasswordField, Field, FormErrors, SubmitButton } from "~/components/form";
import { QrCode } from "~/components/qr-code";
import type { FormReply } from "~/lib/forms";
import { TWO_FACTOR_MESSAGES } from "~/lib/schemas/two-factor";

/** The page's form intents. */
export type TwoFactorIntent = "start" | "confirm" | "disable" | "regenerate";
type Intent = TwoFactorIntent;

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

export function TurnOn() {
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

export function Enrol({
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

export function Manage({
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
