import { useEffect } from "react";
import { Link, redirect } from "react-router";
import { toast } from "sonner";
import { PasskeysCard } from "~/components/account/passkeys-card";
import { RecoveryCodes } from "~/components/account/recovery-codes";
import { Enrol, Manage, TurnOn, type TwoFactorIntent } from "~/components/account/two-factor-setup";
import { Banner } from "~/components/form";
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

type Intent = TwoFactorIntent;
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

const LINK = "text-brand underline underline-offset-2 hover:decoration-2";

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
