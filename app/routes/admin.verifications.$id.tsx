import { Link } from "react-router";
import { FactRow } from "~/components/admin/fact-row";
import { AdminPageHeader } from "~/components/admin/page-header";
import { VerificationDecisions } from "~/components/admin/verification-decisions";
import { VerificationDocuments } from "~/components/admin/verification-documents";
import { VerificationLevelBadge } from "~/components/admin/verification-level";
import { Banner } from "~/components/form";
import { pageMeta, RouteError } from "~/components/route-error";
import { formatCents, formatDateTimeUtc, formatLongDate } from "~/lib/format";
import { adminPageTitle } from "~/lib/navigation";
import { may } from "~/lib/permissions";
import { useFeed, useThrottledRevalidate } from "~/lib/use-feed";
import {
  DOCUMENT_KIND_LABELS,
  IDENTITY_DOCUMENT_TYPE_LABELS,
  requiredDocumentKinds,
  VERIFICATION_STATUS_LABELS,
} from "~/lib/verification";
import { DECISION_DONE, parseDecisionForm, REVIEW_MESSAGES } from "~/lib/verification-review";
import { actsOf } from "~/server/acts.server";
import { readForm } from "~/server/form.server";
import { notFound, siteOrigin } from "~/server/http.server";
import { dispatchIntent } from "~/server/intents.server";
import { requirePermission } from "~/server/session.server";
import { decideVerification } from "~/server/verification/review.server";
import { reviewCase } from "~/server/verification/review-reads.server";
import type { Route } from "./+types/admin.verifications.$id";

export const meta: Route.MetaFunction = pageMeta(({ loaderData: data }) => [
  { title: adminPageTitle(data ? `Verification of ${data.client.name}` : "Verification") },
]);

const caseIdOf = (value: string | undefined) => (/^\d{1,12}$/.test(value ?? "") ? Number(value) : null);

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const admin = await requirePermission(request, context, "reviewVerifications");
  const caseId = caseIdOf(params.id);
  const review = caseId === null ? null : await reviewCase(context.db, caseId, context.env.VERIFICATION_INTRODUCED_AT);
  if (!review) notFound(REVIEW_MESSAGES.notFound);
  return { ...review, mayViewDocuments: may(admin.roles, "viewDocuments") };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "reviewVerifications");
  const form = await readForm(request);
  const act = actsOf(context, admin, form);
  const caseId = caseIdOf(params.id);
  const decision = (name: "verificationApproval" | "verificationRejection" | "verificationInfoRequest") =>
    act(name, {
      before: () =>
        caseId === null
          ? { ok: false as const, error: REVIEW_MESSAGES.notFound, status: 404 }
          : parseDecisionForm(form),
      run: async (reply, input) => {
        const origin = siteOrigin(context.env, request);
        const result = await decideVerification({ ...context, origin }, admin, caseId as number, input);
        return result.ok ? reply.done(DECISION_DONE[input.decision]) : reply.refused(result);
      },
    });
  // Approving an identity opens withdrawals: the acts table asks a fresh code for it, as for the money decisions.
  return dispatchIntent(
    form,
    {
      approve: decision("verificationApproval"),
      reject: decision("verificationRejection"),
      request_info: decision("verificationInfoRequest"),
    },
    { unknown: { error: REVIEW_MESSAGES.alreadyDecided } },
  );
}

export default function VerificationReview({ loaderData, actionData: reply }: Route.ComponentProps) {
  const { case: kyc, client, documents, mayViewDocuments } = loaderData;
  // Another reviewer's decision, or the client sending again, shows here without a reload.
  const refresh = useThrottledRevalidate();
  useFeed("/ws/admin", { onEvent: refresh, onReconnect: refresh });
  const open = kyc.status === "submitted" && !kyc.ended && kyc.submittedAt !== null;
  return (
    <section className="space-y-6">
      <AdminPageHeader title={`Verification of ${client.name}`} />
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <span data-testid="verification-status">{VERIFICATION_STATUS_LABELS[kyc.status]}</span>
        {kyc.status === "approved" ? null : <VerificationLevelBadge level={client.level} />}
        <Link to="/admin/verifications" className="text-brand hover:underline">
          Back to the queue
        </Link>
      </p>
      {reply ? <Banner tone={reply.tone}>{reply.message}</Banner> : null}
      <div className="grid gap-4 lg:grid-cols-2">
        <article className="rounded-xl border border-border bg-surface p-5">
          <h2 className="text-lg font-semibold">What the client declared</h2>
          <dl className="mt-2 divide-y divide-border text-sm">
            <FactRow label="Legal name">{kyc.legalName ?? "—"}</FactRow>
            <FactRow label="Date of birth">{kyc.dateOfBirth ?? "—"}</FactRow>
            <FactRow label="Country of residence">{kyc.country ?? "—"}</FactRow>
            <FactRow label="Residential address">{kyc.address ?? "—"}</FactRow>
            <FactRow label="Document">
              {kyc.documentType ? IDENTITY_DOCUMENT_TYPE_LABELS[kyc.documentType] : "—"}
              {kyc.documentNumber ? ` · ${kyc.documentNumber}` : ""}
            </FactRow>
            <FactRow label="Sent">{kyc.submittedAt ? formatDateTimeUtc(kyc.submittedAt) : "Not sent"}</FactRow>
          </dl>
        </article>
        <article className="rounded-xl border border-border bg-surface p-5">
          <h2 className="text-lg font-semibold">The client's account</h2>
          <dl className="mt-2 divide-y divide-border text-sm">
            <FactRow label="Client">
              <Link to={`/user/${client.id}`} className="text-brand hover:underline">
                {client.name}
              </Link>
            </FactRow>
            <FactRow label="E-mail">{client.email}</FactRow>
            <FactRow label="Registered">{formatLongDate(client.registeredAt)}</FactRow>
            <FactRow label="Country given at sign-up">{client.signUpCountry ?? "—"}</FactRow>
            <FactRow label="Deposits approved">{formatCents(client.approvedDepositsCents)}</FactRow>
            <FactRow label="Deposits pending">{formatCents(client.pendingDepositsCents)}</FactRow>
            {client.suspended ? <FactRow label="Account">Suspended</FactRow> : null}
          </dl>
        </article>
      </div>
      {mayViewDocuments ? <VerificationDocuments documents={documents} /> : null}
      {open && kyc.submittedAt !== null ? (
        <VerificationDecisions
          submittedAt={kyc.submittedAt}
          kinds={kyc.documentType ? requiredDocumentKinds(kyc.documentType) : ["identity_front", "proof_of_address"]}
          reply={reply}
        />
      ) : kyc.reviewedAt ? (
        <article className="rounded-xl border border-border bg-surface p-5 text-sm" data-testid="verification-decision">
          <h2 className="text-lg font-semibold">Decision</h2>
          <p className="mt-2">
            {`${VERIFICATION_STATUS_LABELS[kyc.status]} by ${kyc.reviewer ?? "an admin"} on ${formatDateTimeUtc(kyc.reviewedAt)}.`}
          </p>
          {kyc.reviewDocumentKind ? (
            <p className="mt-1">{`Document: ${DOCUMENT_KIND_LABELS[kyc.reviewDocumentKind]}`}</p>
          ) : null}
          {kyc.reviewNote ? (
            <p className="mt-1">{`${kyc.status === "rejected" ? "Reason" : "Message"}: ${kyc.reviewNote}`}</p>
          ) : null}
        </article>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return (
    <RouteError
      notFound={{ title: REVIEW_MESSAGES.notFound, text: null }}
      back={{ to: "/admin/verifications", label: "Back to Verifications" }}
    />
  );
}
