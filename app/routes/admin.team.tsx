import { AdminPageHeader } from "~/components/admin/page-header";
import { TeamInviteForm } from "~/components/admin/team-invite-form";
import { TeamMembers } from "~/components/admin/team-members";
import { TeamProposals } from "~/components/admin/team-proposals";
import { Banner } from "~/components/form";
import { pageMeta, RouteError } from "~/components/route-error";
import { formValues } from "~/lib/forms";
import { adminPageTitle } from "~/lib/navigation";
import { parseRowId } from "~/lib/row-id";
import { invitationSchema, rolesFrom, TEAM_MESSAGES } from "~/lib/team";
import { actsOf } from "~/server/acts.server";
import { changeRoles, deactivateAdmin, reactivateAdmin } from "~/server/admin/team.server";
import { inviteAdmin, revokeInvitation } from "~/server/admin/team-invitations.server";
import { decideTeamProposal, proposeTeamChange } from "~/server/admin/team-proposals.server";
import { teamPage } from "~/server/admin/team-reads.server";
import type { FormOutcome } from "~/server/commands.server";
import { readForm } from "~/server/form.server";
import { siteOrigin } from "~/server/http.server";
import { dispatchIntent, type Replies } from "~/server/intents.server";
import { requirePermission } from "~/server/session.server";
import type { Route } from "./+types/admin.team";

export const meta: Route.MetaFunction = pageMeta(() => [{ title: adminPageTitle("Team") }]);

export async function loader({ request, context }: Route.LoaderArgs) {
  const owner = await requirePermission(request, context, "manageTeam");
  return { ...(await teamPage(context.db)), viewerId: owner.id };
}

type Extra = { subject: string };

export async function action({ request, context }: Route.ActionArgs) {
  const owner = await requirePermission(request, context, "manageTeam");
  const form = await readForm(request);
  const act = actsOf<Extra>(context, owner, form);
  const userId = String(form.get("userId") ?? "");
  const proposalId = String(form.get("proposalId") ?? "");
  // Every answer about one admin (or proposal) names it, so the page shows it beside that admin.
  const about = (reply: Replies<Extra>, subject: string, outcome: FormOutcome) =>
    outcome.ok ? reply.done(outcome.message, { subject }) : reply.refused({ ...outcome, subject });
  const decide = (approve: boolean) => ({
    subject: proposalId,
    before: () => {
      const proposal = parseRowId(proposalId);
      if (proposal === null) return { ok: false as const, error: TEAM_MESSAGES.proposalGone, status: 404 };
      return { ok: true as const, data: proposal };
    },
    run: async (reply: Replies<Extra>, proposal: number) =>
      about(reply, proposalId, await decideTeamProposal(context, owner, proposal, approve)),
  });
  return dispatchIntent<string, Extra>(form, {
    invite: act("adminInvitation", {
      before: () => invitationSchema.parse(formValues(form), undefined),
      run: async (reply, input) =>
        reply.outcome(await inviteAdmin(context, owner, input, siteOrigin(context.env, request))),
    }),
    // Its card goes once revoked (or no longer open), so the answer shows at the top of the page.
    revoke: act("invitationRevocation", async (reply) =>
      reply.outcome(await revokeInvitation(context, owner, String(form.get("email") ?? ""))),
    ),
    roles: act("adminRolesChange", {
      subject: userId,
      before: () => {
        const chosen = rolesFrom(formValues(form));
        if (chosen.unknown) return { ok: false as const, error: TEAM_MESSAGES.unknownRole, subject: userId };
        return { ok: true as const, data: chosen.roles };
      },
      run: async (reply, roles) => about(reply, userId, await changeRoles(context, owner, userId, roles)),
    }),
    deactivate: act("adminDeactivation", async (reply) =>
      about(reply, userId, await deactivateAdmin(context, owner, userId)),
    ),
    reactivate: act("adminReactivation", {
      subject: userId,
      run: async (reply) => about(reply, userId, await reactivateAdmin(context, owner, userId)),
    }),
    proposeOwner: act("ownerGrant", async (reply) =>
      about(reply, userId, await proposeTeamChange(context, owner, "grant_owner", userId)),
    ),
    proposeReset: act("secondFactorReset", async (reply) =>
      about(reply, userId, await proposeTeamChange(context, owner, "reset_two_factor", userId)),
    ),
    approve: act("teamProposalApproval", decide(true)),
    reject: act("teamProposalRejection", decide(false)),
  });
}

export default function AdminTeam({ loaderData, actionData: reply }: Route.ComponentProps) {
  const { members, invitations, proposals, viewerId } = loaderData;
  // An answer about one admin or proposal shows beside it; a sent or revoked invitation's shows here.
  const general =
    reply && (reply.intent === "revoke" || (!reply.subject && reply.tone === "success")) ? reply : undefined;
  return (
    <section className="space-y-6">
      <AdminPageHeader title="Team">
        The back office&apos;s admins and what their roles let them do. Making an admin an owner and resetting an
        admin&apos;s two-factor sign-in take a second owner.
      </AdminPageHeader>
      {general ? <Banner tone={general.tone}>{general.message}</Banner> : null}
      <TeamProposals proposals={proposals} viewerId={viewerId} reply={reply} />
      <TeamMembers members={members} invitations={invitations} viewerId={viewerId} reply={reply} />
      <TeamInviteForm reply={reply} />
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
