import { useEffect, useState } from "react";
import { useNavigation, useSearchParams } from "react-router";
import { toast } from "sonner";
import { ClientActions } from "~/components/admin/client-actions";
import { ClientFlagBadges } from "~/components/admin/client-flags";
import { ClientHoldings } from "~/components/admin/client-holdings";
import { ClientNotes } from "~/components/admin/client-notes";
import { ClientProfile, ClientSummary } from "~/components/admin/client-overview";
import { ClientPositions } from "~/components/admin/client-positions";
import { AdminPageHeader, LoadingNotice } from "~/components/admin/page-header";
import { ProposalsCard } from "~/components/admin/proposals-card";
import { TransactionsTable } from "~/components/admin/transactions-table";
import { ClientVerification } from "~/components/admin/verification-level";
import { Banner, FormErrors } from "~/components/form";
import { pageMeta, RouteError } from "~/components/route-error";
import { decisionActs, secondAdminFromCents } from "~/lib/acts";
import { hasHistoryFilters } from "~/lib/history-filters";
import { refusalFor } from "~/lib/intent-reply";
import type { TransactionType } from "~/lib/ledger";
import { adminPageTitle } from "~/lib/navigation";
import { permissionsOf } from "~/lib/permissions";
import { type FeedTransaction, mergeTransactions } from "~/lib/realtime";
import { transactionReference } from "~/lib/reference";
import { parseRowId } from "~/lib/row-id";
import { ADMIN_MESSAGES } from "~/lib/schemas/admin";
import { useFeed, useThrottledRevalidate } from "~/lib/use-feed";
import { actsOf } from "~/server/acts.server";
import { changeClientStatus, clientDetail } from "~/server/admin/clients.server";
import type { RequestToDecide } from "~/server/admin/decisions.server";
import { approveOrPropose, postOrPropose, rejectRequest, requestOnPage } from "~/server/admin/money-acts.server";
import { addClientNote, afterCorrection, notesBeforeOf } from "~/server/admin/notes.server";
import { decideProposalForm, notOwnProposal } from "~/server/admin/proposal-actions.server";
import { deskPayouts, recordPayoutForm } from "~/server/chain/payouts.server";
import { readForm } from "~/server/form.server";
import { notFound } from "~/server/http.server";
import { dispatchIntent, type Replies } from "~/server/intents.server";
import { historyRequest } from "~/server/ledger/history.server";
import { deskTrading } from "~/server/positions/desk.server";
import { closablePosition, closePositionForm } from "~/server/positions/desk-close.server";
import { requirePermission } from "~/server/session.server";
import type { Route } from "./+types/user.$id";

export const meta: Route.MetaFunction = pageMeta(({ loaderData: data }) => [
  { title: adminPageTitle(data ? data.profile.name : "Client") },
]);

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const admin = await requirePermission(request, context, "readClients");
  // A bad filter shows its message over the unfiltered newest page.
  const url = new URL(request.url);
  const { filters, submitted, errors, position } = historyRequest(url);
  const detail = await clientDetail(
    context.db,
    params.id ?? "",
    context.env.VERIFICATION_INTRODUCED_AT,
    filters,
    position,
    notesBeforeOf(url),
  );
  if (!detail) notFound(ADMIN_MESSAGES.userNotFound);
  return {
    ...detail,
    trading: await deskTrading(context.db, context.bindings, detail.profile.id, url),
    filters,
    submitted,
    filterErrors: errors,
    idempotencyKey: crypto.randomUUID(),
    viewerId: admin.id,
    may: permissionsOf(admin.roles),
    secondApprovalFromCents: secondAdminFromCents(context.env.FOUR_EYES_THRESHOLD),
    // An unverified client's deposit limit and what is left of it; null once verified (no limit).
    depositLimit:
      detail.verification.level === "verified"
        ? null
        : {
            limitCents: context.env.UNVERIFIED_DEPOSIT_LIMIT * 100,
            leftCents: context.env.UNVERIFIED_DEPOSIT_LIMIT * 100 - detail.verification.depositsTowardsLimitCents,
          },
    // Requests whose approval waits for a second admin: their row shows that instead of Approve.
    awaitingSecondApproval: detail.proposals.flatMap((p) =>
      p.kind === "request_approval" && p.transactionId !== null ? [p.transactionId] : [],
    ),
    payouts: await deskPayouts(context, detail.profile.id, detail.transactions),
  };
}

export async function action({ request, url, params, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "readClients");
  const userId = params.id ?? "";
  const form = await readForm(request);
  const act = actsOf(context, admin, form);
  // A request of this client's, by the form's id, read before anything is asked: its type says whose act it is.
  const clientRequest = {
    subject: String(form.get("transactionId") ?? ""),
    before: () => requestOnPage(context, parseRowId(form.get("transactionId")), userId),
  };
  const proposal = (intent: "approveProposal" | "rejectProposal") => ({
    subject: String(form.get("proposalId") ?? ""),
    // Only this client's proposals from this page.
    before: () => notOwnProposal(context, admin, { intent, proposalId: parseRowId(form.get("proposalId")), userId }),
    run: async (reply: Replies, proposalId: number) =>
      reply.outcome(await decideProposalForm(context, admin, form, { intent, proposalId, userId })),
  });
  const status = async (reply: Replies, intent: "suspend" | "activate") => {
    const result = await changeClientStatus(context, admin, userId, intent === "suspend" ? "suspended" : "active");
    if (!result.ok) return reply.refused({ ...result, error: `Failed to ${intent} user: ${result.error}` });
    return reply.done(intent === "suspend" ? "User suspended" : "User activated");
  };
  return dispatchIntent(form, {
    approve: act((request: RequestToDecide) => decisionActs(request.transactionType).approve, {
      ...clientRequest,
      run: async (reply, request, granted) => reply.outcome(await approveOrPropose(context, admin, request, granted)),
    }),
    reject: act((request: RequestToDecide) => decisionActs(request.transactionType).reject, {
      ...clientRequest,
      run: async (reply, request) => reply.outcome(await rejectRequest(context, admin, form, request)),
    }),
    entry: act("ledgerEntry", async (reply, granted) =>
      reply.outcome(await postOrPropose(context, admin, form, userId, granted)),
    ),
    closePosition: act("positionClose", {
      subject: String(form.get("positionId") ?? ""),
      before: () => closablePosition(context, userId, form),
      run: async (reply, target, granted) =>
        reply.outcome(await closePositionForm(context, admin, userId, form, target, granted)),
    }),
    approveProposal: act("proposalApproval", proposal("approveProposal")),
    rejectProposal: act("proposalRejection", proposal("rejectProposal")),
    suspend: act("clientStatusChange", (reply) => status(reply, "suspend")),
    activate: act("clientStatusChange", (reply) => status(reply, "activate")),
    recordPayout: act("payoutRecord", async (reply) =>
      reply.outcome(await recordPayoutForm(context, admin, userId, form)),
    ),
    note: act("clientNote", async (reply) => {
      const outcome = await addClientNote(context, admin, userId, form);
      // A saved correction leaves correction mode: the form offers a new note again.
      return afterCorrection(context.env, outcome, url) ?? reply.outcome(outcome);
    }),
  });
}

export default function ClientDetail({ loaderData, actionData: reply }: Route.ComponentProps) {
  const {
    profile,
    summary,
    stocks,
    positions,
    trading,
    feeDeposits,
    transactions,
    next,
    previous,
    filters,
    submitted,
    filterErrors,
    idempotencyKey,
    proposals,
    adminCount,
    viewerId,
    may,
    secondApprovalFromCents,
    depositLimit,
    awaitingSecondApproval,
    payouts,
    verification,
    notes,
    olderNotesBefore,
    flags,
  } = loaderData;
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const [entryType, setEntryType] = useState<TransactionType | null>(null);
  const loadingOtherClient = navigation.state === "loading" && navigation.location.pathname !== `/user/${profile.id}`;
  // Rows pushed live belong on the newest, unfiltered page only.
  const firstPage = !params.get("after") && !params.get("before") && !hasHistoryFilters(filters);
  const [live, setLive] = useState<FeedTransaction[]>([]);
  const refresh = useThrottledRevalidate();
  // New transactions for this client appear live at the top, without duplicates; decisions update in place.
  useFeed(`/ws/clients/${profile.id}`, {
    since: () => Math.max(0, ...transactions.map((tx) => tx.id), ...live.map((tx) => tx.id)),
    onEvent: (event) => {
      if (!("transaction" in event)) return refresh();
      if (event.transaction.userId !== profile.id) return;
      setLive((current) => mergeTransactions(current, [event.transaction]));
      refresh();
    },
    onReconnect: refresh,
  });
  // Notes are desk news, never on the client's own feed: another admin's note reloads this page from the desk's.
  useFeed("/ws/admin", {
    onEvent: (event) => {
      if (event.type === "client.notes.changed" && event.userId === profile.id) refresh();
    },
  });
  const rows = (firstPage ? mergeTransactions(transactions, live) : transactions).map((tx) => ({
    ...tx,
    reference: transactionReference(tx.id),
  }));

  // Once per reply (its stamp), however often live updates re-render the page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the reply's stamp on purpose
  useEffect(() => {
    if (!reply) return;
    if (reply.tone === "success") {
      toast.success(reply.message);
      if (reply.intent === "entry") setEntryType(null);
    }
  }, [reply?.at]);

  return (
    <section className="space-y-6" aria-busy={loadingOtherClient}>
      {loadingOtherClient ? <LoadingNotice /> : null}
      <div className="flex flex-wrap items-center justify-between gap-4">
        <AdminPageHeader title={profile.name} />
        {may.exportData ? (
          <a
            href={`/user/${profile.id}/export`}
            className="rounded-md border border-border px-4 py-2 font-medium hover:bg-surface-raised"
          >
            Export statement (CSV)
          </a>
        ) : null}
      </div>

      {reply ? <Banner tone={reply.tone}>{reply.message}</Banner> : null}

      <ClientProfile profile={profile}>
        <ClientVerification verification={verification} />
        {flags.length > 0 ? (
          <div className="mt-3 flex flex-wrap items-center gap-2 text-sm">
            <span className="text-ink-muted">Flags</span>
            <ClientFlagBadges flags={flags} />
          </div>
        ) : null}
      </ClientProfile>
      <ClientSummary summary={summary} status={profile.status} />
      <FormErrors reply={refusalFor(reply, "entry")}>
        <ClientActions
          entryType={entryType}
          onChoose={setEntryType}
          suspended={profile.status === "suspended"}
          idempotencyKey={idempotencyKey}
          secondApprovalFromCents={secondApprovalFromCents}
          depositLimit={depositLimit}
          mayPostEntries={may.postEntries}
          mayChangeStatus={may.changeClientStatus}
        />
      </FormErrors>
      {proposals.length > 0 ? (
        <ProposalsCard
          proposals={proposals}
          viewerId={viewerId}
          adminCount={adminCount}
          reply={reply}
          showOutcome={false}
          mayDecide={may.decideProposals}
        />
      ) : null}
      <ClientNotes
        notes={notes}
        olderNotesBefore={olderNotesBefore}
        flags={flags}
        canWrite={may.writeNotes}
        reply={reply}
      />
      <ClientHoldings stocks={stocks} feeDeposits={feeDeposits} />
      <ClientPositions
        positions={positions}
        trading={trading}
        closing={may.closePositions ? { reply, idempotencyKey, secondApprovalFromCents, proposals } : null}
      />
      <TransactionsTable
        rows={rows}
        next={next}
        previous={previous}
        filters={filters}
        submitted={submitted}
        filterErrors={filterErrors}
        clientId={profile.id}
        reply={reply}
        awaitingSecondApproval={awaitingSecondApproval}
        level={verification.level}
        watched={flags.includes("watch")}
        payouts={payouts}
        may={may}
      />
    </section>
  );
}

export function ErrorBoundary() {
  return (
    <RouteError
      notFound={{ title: ADMIN_MESSAGES.userNotFound, text: null }}
      failed={{ title: "Failed to load user details", text: null }}
      back={{ to: "/admin", label: "Back to Admin Panel" }}
      showStatus={false}
    />
  );
}
