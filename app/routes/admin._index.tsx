import { Link } from "react-router";
import { DeskCounts } from "~/components/admin/desk-counts";
import { MailFailureBanner } from "~/components/admin/mail-failure-banner";
import { PendingList } from "~/components/admin/pending-list";
import { ProposalsCard } from "~/components/admin/proposals-card";
import { UserManagement } from "~/components/admin/user-management";
import { WalletsModal } from "~/components/admin/wallets-modal";
import { pageMeta, RouteError } from "~/components/route-error";
import { parseClientList } from "~/lib/client-list";
import { adminPageTitle } from "~/lib/navigation";
import { may as mayAct, type Permission, permissionsOf } from "~/lib/permissions";
import { parseRowId } from "~/lib/row-id";
import { ADMIN_MESSAGES } from "~/lib/schemas/admin";
import { useFeed, useThrottledRevalidate } from "~/lib/use-feed";
import { actsOf } from "~/server/acts.server";
import { deleteClient } from "~/server/admin/deletion.server";
import { adminDesk } from "~/server/admin/desk.server";
import { proposeWalletsForm } from "~/server/admin/money-acts.server";
import { decideProposalForm, notOwnProposal } from "~/server/admin/proposal-actions.server";
import { readForm } from "~/server/form.server";
import { dispatchIntent, type Replies } from "~/server/intents.server";
import { requirePermission } from "~/server/session.server";
import type { Route } from "./+types/admin._index";

export const meta: Route.MetaFunction = pageMeta(() => [{ title: adminPageTitle() }]);

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requirePermission(request, context, "readClients");
  const { query, errors } = parseClientList(new URL(request.url).searchParams);
  // A bad parameter is named, and the list shows without it.
  const desk = await adminDesk(context.db, context.env.VERIFICATION_INTRODUCED_AT, query);
  // The open-alerts count is for those who work the alert queue.
  const mayReviewAlerts = mayAct(admin.roles, "reviewAlerts");
  const { openAlerts, ...counts } = desk.counts;
  return {
    ...desk,
    counts: { ...counts, openAlerts: mayReviewAlerts ? openAlerts : null },
    list: query,
    listErrors: errors,
    viewerId: admin.id,
    may: permissionsOf(admin.roles),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "readClients");
  const form = await readForm(request);
  const act = actsOf(context, admin, form);
  const proposal = (intent: "approveProposal" | "rejectProposal") => ({
    subject: String(form.get("proposalId") ?? ""),
    before: () => notOwnProposal(context, admin, { intent, proposalId: parseRowId(form.get("proposalId")) }),
    run: async (reply: Replies, proposalId: number) =>
      reply.outcome(await decideProposalForm(context, admin, form, { intent, proposalId })),
  });
  return dispatchIntent(form, {
    wallets: act("walletChange", async (reply) => reply.outcome(await proposeWalletsForm(context, admin, form))),
    approveProposal: act("proposalApproval", proposal("approveProposal")),
    rejectProposal: act("proposalRejection", proposal("rejectProposal")),
    delete: act("clientDeletion", {
      subject: String(form.get("userId") ?? ""),
      run: async (reply) => {
        const result = await deleteClient(context, admin, String(form.get("userId") ?? ""));
        if (!result.ok) return reply.refused(result);
        return reply.done(ADMIN_MESSAGES.deleted);
      },
    }),
  });
}

/** The desk's links to the other back-office pages, each shown only to an admin whose roles open it. */
const DESK_LINKS: Array<{ to: string; label: string; permission: Permission }> = [
  { to: "/admin/transactions", label: "Transactions", permission: "readClients" },
  { to: "/admin/verifications", label: "Verifications", permission: "reviewVerifications" },
  { to: "/admin/audit", label: "Audit Log", permission: "readAuditLog" },
  { to: "/admin/chain-payments", label: "Chain payments", permission: "readChainPayments" },
  { to: "/admin/mail", label: "Mail", permission: "manageMail" },
];

export default function AdminPanel({ loaderData, actionData: reply }: Route.ComponentProps) {
  const { counts, pending, clients, wallets, list, listErrors, mailTrouble, proposals, adminCount, viewerId, may } =
    loaderData;
  // The pending list, the counts and the proposals awaiting a second approval follow the desk live (a new alert
  // sends alerts.changed, which reloads the open-alerts count like any other desk event).
  const refresh = useThrottledRevalidate();
  useFeed("/ws/admin", { onEvent: refresh, onReconnect: refresh });

  return (
    <section className="space-y-6">
      <MailFailureBanner trouble={mailTrouble} mayResend={may.manageMail} />
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">Admin Panel</h1>
        <div className="flex flex-wrap gap-3">
          {DESK_LINKS.filter((link) => may[link.permission]).map((link) => (
            <Link
              key={link.to}
              to={link.to}
              className="rounded-md border border-border px-4 py-2 font-medium hover:bg-surface-raised"
            >
              {link.label}
            </Link>
          ))}
          {may.proposeWallets ? <WalletsModal wallets={wallets} reply={reply} /> : null}
        </div>
      </div>
      <DeskCounts counts={counts} queueLink={may.reviewVerifications} />
      <ProposalsCard
        proposals={proposals}
        viewerId={viewerId}
        adminCount={adminCount}
        reply={reply}
        mayDecide={may.decideProposals}
      />
      <PendingList pending={pending} />
      <UserManagement
        clients={clients.clients}
        next={clients.next}
        previous={clients.previous}
        list={list}
        errors={listErrors}
        reply={reply}
        mayDelete={may.deleteClients}
      />
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
