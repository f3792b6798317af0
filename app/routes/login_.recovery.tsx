import { data, Form, Link, redirect } from "react-router";
import { AuthCard, Banner, SubmitButton } from "~/components/form";
import { pageMeta, RouteError } from "~/components/route-error";
import { DocumentSlot } from "~/components/verification/document-slot";
import {
  ACCESS_RECOVERY_FILE_HINTS,
  ACCESS_RECOVERY_FILE_LABELS,
  ACCESS_RECOVERY_MESSAGES,
  ACCESS_RECOVERY_STATUS_LABELS,
} from "~/lib/access-recovery";
import {
  cancelRecovery,
  recoveryEligibility,
  requestOfBrowser,
  startRecovery,
  submitRecovery,
} from "~/server/access-recovery/requests.server";
import { clientMeta } from "~/server/auth/client-meta.server";
import { openChallenge } from "~/server/auth/sign-in.server";
import { readForm } from "~/server/form.server";
import { siteOrigin } from "~/server/http.server";
import { getSessionUser } from "~/server/session.server";
import { redirectWithToast } from "~/server/toast.server";
import { ACCESS_RECOVERY_FILE_KINDS } from "../../db/enums";
import type { Route } from "./+types/login_.recovery";

export const meta: Route.MetaFunction = pageMeta(() => [{ title: "Restore access" }]);

// A page about one account, opened without a session: no cache keeps it.
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const PAGE = "/login/recovery";

/**
 * The request this browser follows (docs/product.md, "Access recovery"); else, right after the password step of an
 * account with two-factor on, the offer to start one. Anyone else is sent to sign in.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getSessionUser(request, context);
  if (user) throw redirect(user.role === "admin" ? "/admin" : "/dashboard");
  const mine = await requestOfBrowser(context, request);
  const live = mine && ["open", "submitted", "first_approved"].includes(mine.status);
  const challenge = live ? null : await openChallenge(context, request);
  if (!mine && !challenge) {
    throw await redirectWithToast(context.env, "/login", {
      type: "error",
      description: "Sign in with your password first: the request starts after it.",
    });
  }
  const eligible = challenge ? await recoveryEligibility(context.db, challenge.user) : null;
  return {
    request: mine,
    canStart: eligible?.ok === true,
    refusal: eligible?.ok === false ? eligible.error : null,
    supportEmail: context.env.SUPPORT_EMAIL,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const origin = siteOrigin(context.env, request);
  const refused = (error: string, status: number) => data({ error }, { status });
  if (intent === "start") {
    const challenge = await openChallenge(context, request);
    if (!challenge) return refused(ACCESS_RECOVERY_MESSAGES.gone, 409);
    const started = await startRecovery(context, challenge.user, clientMeta(request, context.cf));
    if (!started.ok) return refused(started.error, started.status);
    throw redirect(PAGE, { headers: { "Set-Cookie": started.setCookie } });
  }
  const mine = await requestOfBrowser(context, request);
  if (!mine) return refused(ACCESS_RECOVERY_MESSAGES.gone, 409);
  const result =
    intent === "submit"
      ? await submitRecovery(context, mine.id, origin)
      : intent === "cancel"
        ? await cancelRecovery(context, mine.id, mine.userId, origin)
        : { ok: false as const, error: "Unknown action.", status: 400 };
  if (!result.ok) return refused(result.error, result.status);
  throw await redirectWithToast(context.env, PAGE, { type: "success", description: result.message });
}

function CancelButton() {
  return (
    <Form method="post" className="mt-4">
      <SubmitButton intent="cancel" pendingText="Cancelling..." tone="danger" className="w-full">
        Cancel this request
      </SubmitButton>
    </Form>
  );
}

export default function RestoreAccess({ loaderData, actionData }: Route.ComponentProps) {
  const { request, canStart, refusal, supportEmail } = loaderData;
  const error = actionData?.error ?? refusal;
  const support = (
    <a href={`mailto:${supportEmail}`} className="text-brand underline underline-offset-2 hover:decoration-2">
      {supportEmail}
    </a>
  );
  const status = request?.status;
  const live = status === "open" || status === "submitted" || status === "first_approved";
  return (
    <AuthCard title="Restore access">
      <div className="space-y-4 text-sm">
        {error ? <Banner tone="error">{error}</Banner> : null}
        {error === ACCESS_RECOVERY_MESSAGES.notVerified ? (
          <p>
            Please write to {support} from this account&apos;s e-mail address: our support team will tell you how to
            prove who you are.
          </p>
        ) : null}
        {!live && canStart ? (
          <>
            <p>
              Lost your authenticator, your passkeys and your recovery codes? We can remove your two-factor sign-in
              after checking your identity against the documents you verified with us.
            </p>
            <ol className="list-decimal space-y-1 pl-5">
              <li>Upload a new photo of your identity document and a selfie holding it.</li>
              <li>Two members of our compliance team check them. We e-mail you at every step.</li>
              <li>
                Once approved, you sign in with your password alone, and no money can move from your account for 24
                hours.
              </li>
            </ol>
            <Form method="post">
              <SubmitButton intent="start" pendingText="Starting..." className="w-full">
                Start a request
              </SubmitButton>
            </Form>
          </>
        ) : null}
        {request && status ? (
          <p data-testid="recovery-status">
            <span className="text-ink-muted">Your request: </span>
            <span className="font-medium">{ACCESS_RECOVERY_STATUS_LABELS[status]}</span>
          </p>
        ) : null}
        {request && status === "open" ? (
          <>
            {ACCESS_RECOVERY_FILE_KINDS.map((kind) => (
              <DocumentSlot
                key={kind}
                kind={kind}
                label={ACCESS_RECOVERY_FILE_LABELS[kind]}
                hint={ACCESS_RECOVERY_FILE_HINTS[kind]}
                action={`/login/recovery/files/${kind}`}
                file={request.files.find((file) => file.kind === kind) ?? null}
                editable
              />
            ))}
            <Form method="post">
              <SubmitButton intent="submit" pendingText="Sending..." className="w-full">
                Send the request
              </SubmitButton>
            </Form>
          </>
        ) : null}
        {status === "submitted" || status === "first_approved" ? (
          <p>Our compliance team is checking your photos. We will e-mail you when your request is decided.</p>
        ) : null}
        {status === "approved" ? (
          <p>
            Your two-factor sign-in was removed.{" "}
            <Link to="/login" className="text-brand underline underline-offset-2 hover:decoration-2">
              Sign in with your password
            </Link>
            , then set two-factor sign-in up again on Account Settings.
          </p>
        ) : null}
        {status === "refused" ? (
          <p>
            {request?.refusalReason ? `The reason: ${request.refusalReason} ` : ""}
            To try again, sign in with your password and start a new request, or write to {support}.
          </p>
        ) : null}
        {live ? <CancelButton /> : null}
        <p>
          <Link to="/login" className="text-ink-muted underline underline-offset-2 hover:decoration-2">
            Back to sign-in
          </Link>
        </p>
      </div>
    </AuthCard>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
