import { Form, Link } from "react-router";
import { FactRow } from "~/components/admin/fact-row";
import { AdminPageHeader } from "~/components/admin/page-header";
import { ReasonField } from "~/components/admin/reason-field";
import { VerificationDocuments } from "~/components/admin/verification-documents";
import { Banner, FormErrors, SubmitButton } from "~/components/form";
import { pageMeta, RouteError } from "~/components/route-error";
import { StepUpField } from "~/components/step-up";
import {
  ACCESS_RECOVERY_FILE_ADMIN_LABELS,
  ACCESS_RECOVERY_MESSAGES,
  ACCESS_RECOVERY_STATUS_LABELS,
  ACCESS_RECOVERY_WAIT_MS,
  parseRecoveryDecision,
} from "~/lib/access-recovery";
import { formatDateTimeUtc } from "~/lib/format";
import { refusalFor } from "~/lib/intent-reply";
import { adminPageTitle } from "~/lib/navigation";
import { may } from "~/lib/permissions";
import { useFeed, useThrottledRevalidate } from "~/lib/use-feed";
import { describeBrowser, describeLocation } from "~/lib/user-agent";
import { IDENTITY_DOCUMENT_TYPE_LABELS } from "~/lib/verification";
import { decideRecovery } from "~/server/access-recovery/decisions.server";
import { recoveryReview } from "~/server/access-recovery/reads.server";
import { actsOf } from "~/server/acts.server";
import { readForm } from "~/server/form.server";
import { notFound, siteOrigin } from "~/server/http.server";
import { dispatchIntent } from "~/server/intents.server";
import { requirePermission } from "~/server/session.server";
import type { Route } from "./+types/admin.access-recovery.$id";

export const meta: Route.MetaFunction = pageMeta(({ loaderData: data }) => [
  { title: adminPageTitle(data ? `Access recovery of ${data.client.name}` : "Access recovery") },
]);

const requestIdOf = (value: string | undefined) => (/^\d{1,12}$/.test(value ?? "") ? Number(value) : null);

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const admin = await requirePermission(request, context, "restoreAccess");
  const requestId = requestIdOf(params.id);
  const review =
    requestId === null ? null : await recoveryReview(context.db, requestId, context.env.VERIFICATION_INTRODUCED_AT);
  if (!review?.onFile) notFound(ACCESS_RECOVERY_MESSAGES.notFound);
  const { request: asked, photos, onFile } = review;
  return {
    asked: {
      ...asked,
      browser: describeBrowser(asked.userAgent),
      location: describeLocation(asked),
      mine: asked.firstApprovedById === admin.id,
      // The second approval waits a day from sending (the owner's time to cancel): when it opens, and whether it has.
      secondOpensAt: (asked.submittedAt ?? 0) + ACCESS_RECOVERY_WAIT_MS,
      secondOpen: Date.now() >= (asked.submittedAt ?? 0) + ACCESS_RECOVERY_WAIT_MS,
    },
    photos,
    client: onFile.client,
    verified: onFile.case,
    documents: may(admin.roles, "viewDocuments") ? onFile.documents : null,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "restoreAccess");
  const form = await readForm(request);
  const act = actsOf(context, admin, form);
  const requestId = requestIdOf(params.id);
  const decision = (name: "accessRecoveryApproval" | "accessRecoveryRefusal") =>
    act(name, {
      before: () =>
        requestId === null
          ? { ok: false as const, error: ACCESS_RECOVERY_MESSAGES.notFound, status: 404 }
          : parseRecoveryDecision(form),
      run: async (reply, input) => {
        const origin = siteOrigin(context.env, request);
        return reply.outcome(await decideRecovery({ ...context, origin }, admin, requestId as number, input));
      },
    });
  // Either approval can hand the account to whoever holds its password: the acts table asks a fresh code for it.
  return dispatchIntent(
    form,
    { approve: decision("accessRecoveryApproval"), refuse: decision("accessRecoveryRefusal") },
    { unknown: { error: ACCESS_RECOVERY_MESSAGES.decidedMeanwhile } },
  );
}

const CARD = "space-y-3 rounded-xl border border-border bg-surface p-5";

export default function AccessRecoveryReview({ loaderData, actionData: reply }: Route.ComponentProps) {
  const { asked, photos, client, verified, documents } = loaderData;
  const refresh = useThrottledRevalidate();
  useFeed("/ws/admin", { onEvent: refresh, onReconnect: refresh });
  const open = asked.status === "submitted" || asked.status === "first_approved";
  const second = asked.status === "first_approved";
  return (
    <section className="space-y-6">
      <AdminPageHeader title={`Access recovery of ${client.name}`} />
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <span data-testid="access-recovery-status">{ACCESS_RECOVERY_STATUS_LABELS[asked.status]}</span>
        <Link to="/admin/verifications" className="text-brand hover:underline">
          Back to the queue
        </Link>
      </p>
      {reply ? <Banner tone={reply.tone}>{reply.message}</Banner> : null}
      <div className="grid gap-4 lg:grid-cols-2">
        <article className={CARD}>
          <h2 className="text-lg font-semibold">The request</h2>
          <dl className="divide-y divide-border text-sm">
            <FactRow label="Client">
              <Link to={`/user/${client.id}`} className="text-brand hover:underline">
                {client.name}
              </Link>
            </FactRow>
            <FactRow label="E-mail">{client.email}</FactRow>
            <FactRow label="Sent">{asked.submittedAt ? formatDateTimeUtc(asked.submittedAt) : "Not sent"}</FactRow>
            <FactRow label="From">{`${asked.browser} · ${asked.location || "Unknown location"}`}</FactRow>
            {asked.firstApprovedBy && asked.firstApprovedAt ? (
              <FactRow label="First approval">{`${asked.firstApprovedBy}, ${formatDateTimeUtc(asked.firstApprovedAt)}`}</FactRow>
            ) : null}
            {asked.decidedAt ? (
              <FactRow label={asked.status === "cancelled" ? "Cancelled" : "Decided"}>
                {`${asked.decidedBy ?? "by the client"}, ${formatDateTimeUtc(asked.decidedAt)}`}
              </FactRow>
            ) : null}
            {asked.refusalReason ? <FactRow label="Reason">{asked.refusalReason}</FactRow> : null}
          </dl>
        </article>
        <article className={CARD}>
          <h2 className="text-lg font-semibold">The verified identity</h2>
          <dl className="divide-y divide-border text-sm">
            <FactRow label="Legal name">{verified.legalName ?? "—"}</FactRow>
            <FactRow label="Date of birth">{verified.dateOfBirth ?? "—"}</FactRow>
            <FactRow label="Document">
              {verified.documentType ? IDENTITY_DOCUMENT_TYPE_LABELS[verified.documentType] : "—"}
              {verified.documentNumber ? ` · ${verified.documentNumber}` : ""}
            </FactRow>
            <FactRow label="Verified">{verified.reviewedAt ? formatDateTimeUtc(verified.reviewedAt) : "—"}</FactRow>
          </dl>
        </article>
      </div>
      <div className="grid items-start gap-4 lg:grid-cols-2">
        <VerificationDocuments
          documents={photos}
          title="New photos"
          labels={ACCESS_RECOVERY_FILE_ADMIN_LABELS}
          hrefOf={(id) => `/admin/access-recovery/files/${id}`}
        />
        {documents ? <VerificationDocuments documents={documents} title="Documents on file" /> : null}
      </div>
      {open ? (
        <div className="grid items-start gap-4 lg:grid-cols-2">
          <FormErrors reply={refusalFor(reply, "approve")}>
            <Form method="post" className={CARD} aria-labelledby="approve-title">
              <h2 id="approve-title" className="text-lg font-semibold">
                {second ? "Second approval" : "First approval"}
              </h2>
              <p className="text-sm text-ink-muted">
                {second
                  ? "Removes the client's authenticator app, passkeys and recovery codes and ends their sessions; money acts are held for 24 hours."
                  : "A second admin must then approve before anything changes for the client."}
              </p>
              <input type="hidden" name="seenStatus" value={asked.status} />
              {second && asked.mine ? (
                <p className="text-sm">{ACCESS_RECOVERY_MESSAGES.ownFirstApproval}</p>
              ) : second && !asked.secondOpen ? (
                <p className="text-sm">{ACCESS_RECOVERY_MESSAGES.tooEarly(asked.secondOpensAt)}</p>
              ) : (
                <>
                  <StepUpField />
                  <SubmitButton intent="approve" pendingText="Approving…">
                    {second ? "Approve and restore access" : "Approve"}
                  </SubmitButton>
                </>
              )}
            </Form>
          </FormErrors>
          <FormErrors reply={refusalFor(reply, "refuse")}>
            <Form method="post" className={CARD} aria-labelledby="refuse-title">
              <h2 id="refuse-title" className="text-lg font-semibold">
                Refuse
              </h2>
              <input type="hidden" name="seenStatus" value={asked.status} />
              <ReasonField label="Reason" rows={3} hint="Required. The client reads it in the mail." />
              <SubmitButton intent="refuse" pendingText="Refusing…" tone="danger">
                Refuse the request
              </SubmitButton>
            </Form>
          </FormErrors>
        </div>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return (
    <RouteError
      notFound={{ title: ACCESS_RECOVERY_MESSAGES.notFound, text: null }}
      back={{ to: "/admin/verifications", label: "Back to Verifications" }}
    />
  );
}
