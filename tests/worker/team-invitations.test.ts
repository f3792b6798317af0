/**
 * An invitation speaks for the owner who sent it: it works only while they are an active owner, ends for good when
 * they are deactivated or lose the role, and any owner may revoke it.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { STEP_UP_MESSAGES } from "~/lib/step-up";
import { TEAM_MESSAGES } from "~/lib/team";
import { acceptInvitation } from "~/server/admin/team-invitations.server";
import { countRows, createUser, getPage, ORIGIN, postForm, sessionCookieFor } from "../support/fixtures";
import { alerts, cardTitled, elementsHolding, elementTexts, fieldLabel, refusals, statuses } from "../support/places";
import {
  admin,
  commandContext,
  invitationLink,
  joinFields,
  newEmail,
  owner,
  teamWrites,
} from "../support/team-fixtures";

/** The owner invites a new address as a support admin: the address and the mailed link's token. */
async function invitedBy(inviter: { cookie: string }) {
  const email = newEmail();
  const sent = await postForm(
    "/admin/team",
    { intent: "invite", email, "role-support": "on" },
    { cookie: inviter.cookie },
  );
  expect(sent.status).toBe(200);
  return { email, token: (await invitationLink(email)).searchParams.get("token") ?? "" };
}

/** The link is refused on its page and when sent, and no account is made. */
async function expectDeadLink(email: string, token: string) {
  expect(alerts(await (await getPage(`/team/invite?token=${token}`)).text())).toContain(
    TEAM_MESSAGES.invitationUnusable,
  );
  const joined = await postForm("/team/invite", joinFields(token));
  expect(joined.status).toBe(410);
  expect(refusals(await joined.text())).toContain(TEAM_MESSAGES.invitationUnusable);
  expect(await countRows("users", "email = ?", email)).toBe(0);
}

describe("an invitation follows the owner who sent it", () => {
  it("stops working when that owner is deactivated, and does not come back with their reactivation", async () => {
    const inviter = await owner();
    const other = await owner();
    const { email, token } = await invitedBy(inviter);
    expect(
      (await postForm("/admin/team", { intent: "deactivate", userId: inviter.id }, { cookie: other.cookie })).status,
    ).toBe(200);
    await expectDeadLink(email, token);
    // The team page no longer lists it as open.
    expect(cardTitled(await (await getPage("/admin/team", other.cookie)).text(), "Admins")).not.toContain(email);

    expect(
      (await postForm("/admin/team", { intent: "reactivate", userId: inviter.id }, { cookie: other.cookie })).status,
    ).toBe(200);
    await expectDeadLink(email, token);
  });

  it("stops working when that owner loses the owner role", async () => {
    const inviter = await owner();
    const other = await owner();
    const { email, token } = await invitedBy(inviter);
    const demoted = await postForm(
      "/admin/team",
      { intent: "roles", userId: inviter.id, "role-support": "on" },
      { cookie: other.cookie },
    );
    expect(demoted.status).toBe(200);
    await expectDeadLink(email, token);
  });

  it("keeps working when the owner's other roles change but they stay an owner", async () => {
    const inviter = await owner();
    const other = await owner();
    const { email, token } = await invitedBy(inviter);
    const changed = await postForm(
      "/admin/team",
      { intent: "roles", userId: inviter.id, "role-owner": "on", "role-approver": "on" },
      { cookie: other.cookie },
    );
    expect(changed.status).toBe(200);
    expect((await postForm("/team/invite", joinFields(token))).status).toBe(302);
    expect(await countRows("users", "email = ? AND role = 'admin'", email)).toBe(1);
  });

  it("racing the owner's deactivation, either joins first or is refused: never an admin let in by a former owner", async () => {
    for (let round = 0; round < 4; round++) {
      const inviter = await owner();
      const other = await owner();
      const { email, token } = await invitedBy(inviter);
      const [joined, deactivated] = await Promise.all([
        postForm("/team/invite", joinFields(token)),
        postForm("/admin/team", { intent: "deactivate", userId: inviter.id }, { cookie: other.cookie }),
      ]);
      expect(deactivated.status).toBe(200);
      // Whichever came first, the outcome is whole: an account with its roles and audit row, or nothing at all.
      const accounts = await countRows("users", "email = ?", email);
      const roles = await countRows("admin_roles r JOIN users u ON u.id = r.user_id", "u.email = ?", email);
      const audited = await countRows(
        "audit_log",
        "action = 'team.join' AND json_extract(detail, '$.email') = ?",
        email,
      );
      if (joined.status === 302) expect([accounts, roles, audited]).toEqual([1, 1, 1]);
      else {
        expect(joined.status).toBe(410);
        expect([accounts, roles, audited]).toEqual([0, 0, 0]);
      }
      // And the link is dead now, either way.
      expect((await postForm("/team/invite", joinFields(token))).status).toBe(410);
    }
  });

  it("is refused by the database itself when the sender is no longer an owner", async () => {
    const inviter = await owner();
    const other = await owner();
    const { token } = await invitedBy(inviter);
    await postForm(
      "/admin/team",
      { intent: "roles", userId: inviter.id, "role-support": "on" },
      { cookie: other.cookie },
    );
    // Straight at the table, past every check in the code: the trigger refuses.
    await expect(
      env.DB.prepare("UPDATE admin_invitations SET accepted_at = ?, expires_at = ? WHERE invited_by = ?")
        .bind(Date.now(), Date.now() + 60_000, inviter.id)
        .run(),
    ).rejects.toThrow(/owner who sent it is an active owner/);
    const spent = await acceptInvitation(commandContext(), new Request(`${ORIGIN}/team/invite`), joinFields(token));
    expect(spent).toMatchObject({ ok: false, error: TEAM_MESSAGES.invitationUnusable });
  });
});

describe("revoking an invitation", () => {
  it("ends the link at once, audited and mailed to the owners; a second revoke finds nothing open", async () => {
    const inviter = await owner();
    const other = await owner();
    const { email, token } = await invitedBy(inviter);
    const revoked = await postForm("/admin/team", { intent: "revoke", email }, { cookie: other.cookie });
    expect(revoked.status).toBe(200);
    expect(statuses(await revoked.text())).toContain(TEAM_MESSAGES.invitationRevoked(email));
    await expectDeadLink(email, token);
    expect(
      await countRows("audit_log", "action = 'team.revoke_invitation' AND target = ?", `invitation:${email}`),
    ).toBe(1);
    expect(
      await countRows(
        "email_outbox",
        "template = 'team_change' AND to_address = ? AND payload LIKE ?",
        inviter.email,
        "%revoked%",
      ),
    ).toBe(1);

    const before = await teamWrites();
    const again = await postForm("/admin/team", { intent: "revoke", email }, { cookie: other.cookie });
    expect(again.status).toBe(404);
    expect(refusals(await again.text())).toContain(TEAM_MESSAGES.invitationNotOpen);
    expect(await teamWrites()).toEqual(before);
  });

  it("is the owners' alone: another admin is answered 403 and the link still works", async () => {
    const inviter = await owner();
    const { email, token } = await invitedBy(inviter);
    for (const roles of [["support"], ["operator", "approver", "compliance"]] as const) {
      const someone = await admin([...roles]);
      const before = await teamWrites();
      const response = await postForm("/admin/team", { intent: "revoke", email }, { cookie: someone.cookie });
      expect(response.status).toBe(403);
      expect(await teamWrites()).toEqual(before);
    }
    expect((await postForm("/team/invite", joinFields(token))).status).toBe(302);
  });
});

describe("a fresh code for what gives power", () => {
  it("is asked beside the invite form and the roles form when the owner's last code is old, writing nothing", async () => {
    const stale = await createUser({ role: "admin", roles: ["owner"] });
    const cookie = await sessionCookieFor(stale.id, Date.now(), { freshSecondFactor: false });
    const member = await admin(["support"]);
    const before = await teamWrites();
    const invite = await postForm(
      "/admin/team",
      { intent: "invite", email: newEmail(), "role-support": "on" },
      { cookie },
    );
    expect(invite.status).toBe(401);
    const inviteHtml = await invite.text();
    // The code field sits in the invite form, before its button, so the typed address stays.
    expect(fieldLabel(inviteHtml, "stepUpCode")).toBe(STEP_UP_MESSAGES.prompt);
    const [inviteForm = ""] = elementsHolding(inviteHtml, "form", 'name="stepUpCode"');
    expect(inviteForm.indexOf(STEP_UP_MESSAGES.prompt)).toBeGreaterThan(-1);
    expect(inviteForm.indexOf(STEP_UP_MESSAGES.prompt)).toBeLessThan(inviteForm.indexOf("Send invitation"));
    const roles = await postForm(
      "/admin/team",
      { intent: "roles", userId: member.id, "role-approver": "on" },
      { cookie },
    );
    expect(roles.status).toBe(401);
    expect(fieldLabel(await roles.text(), "stepUpCode")).toBe(STEP_UP_MESSAGES.prompt);
    expect(await teamWrites()).toEqual(before);
  });
});

describe("the team page at its edges", () => {
  it("mails a team change to the admin concerned and the active owners only: never a client or a former owner", async () => {
    const inviter = await owner();
    const formerOwner = await owner();
    await env.DB.prepare("UPDATE users SET deactivated_at = ? WHERE id = ?").bind(Date.now(), formerOwner.id).run();
    const client = await createUser();
    const bystander = await admin(["operator"]);
    const { email } = await invitedBy(inviter);
    const recipients = (
      await env.DB.prepare("SELECT to_address FROM email_outbox WHERE template = 'team_change' AND payload LIKE ?")
        .bind(`%${email}%`)
        .all<{ to_address: string }>()
    ).results.map((row) => row.to_address);
    expect(recipients).toContain(inviter.email);
    for (const outsider of [client.email, formerOwner.email, bystander.email])
      expect(recipients).not.toContain(outsider);
    const clients = await countRows(
      "users",
      "role = 'user' AND email IN (SELECT to_address FROM email_outbox WHERE template = 'team_change')",
    );
    expect(clients).toBe(0);
  });

  it("refuses to approve a proposal whose owner has since been deactivated or demoted, and shows it can only be rejected", async () => {
    for (const removal of ["deactivate", "demote"] as const) {
      const proposer = await owner();
      const checker = await owner();
      const member = await admin(["support"]);
      await postForm("/admin/team", { intent: "proposeOwner", userId: member.id }, { cookie: proposer.cookie });
      const proposal = await env.DB.prepare("SELECT id FROM team_proposals WHERE target_id = ? AND status = 'pending'")
        .bind(member.id)
        .first<{ id: number }>();
      const removed = await postForm(
        "/admin/team",
        removal === "deactivate"
          ? { intent: "deactivate", userId: proposer.id }
          : { intent: "roles", userId: proposer.id, "role-support": "on" },
        { cookie: checker.cookie },
      );
      expect(removed.status).toBe(200);
      const page = await (await getPage("/admin/team", checker.cookie)).text();
      expect(elementTexts(page, "p")).toContain(TEAM_MESSAGES.proposerGone);
      const approved = await postForm(
        "/admin/team",
        { intent: "approve", proposalId: String(proposal?.id) },
        { cookie: checker.cookie },
      );
      expect(approved.status).toBe(409);
      expect(refusals(await approved.text())).toContain(TEAM_MESSAGES.proposerGone);
      expect(await countRows("admin_roles", "user_id = ? AND role = 'owner'", member.id)).toBe(0);
      // Past the code, the database refuses too.
      await expect(
        env.DB.prepare("UPDATE team_proposals SET status = 'approved', decided_by = ?, decided_at = ? WHERE id = ?")
          .bind(checker.id, Date.now(), proposal?.id)
          .run(),
      ).rejects.toThrow(/owner who made it is an active owner/);
      // Rejecting it still works, and clears it.
      const rejected = await postForm(
        "/admin/team",
        { intent: "reject", proposalId: String(proposal?.id) },
        { cookie: checker.cookie },
      );
      expect(rejected.status).toBe(200);
    }
  });

  it("revokes an invitation named with other capitals or spaces, as it was stored", async () => {
    const inviter = await owner();
    const { email, token } = await invitedBy(inviter);
    const revoked = await postForm(
      "/admin/team",
      { intent: "revoke", email: `  ${email.toUpperCase()} ` },
      { cookie: inviter.cookie },
    );
    expect(revoked.status).toBe(200);
    await expectDeadLink(email, token);
  });

  it("no longer shows the join form once the address has an account", async () => {
    const inviter = await owner();
    const { email, token } = await invitedBy(inviter);
    await createUser({ email });
    expect(alerts(await (await getPage(`/team/invite?token=${token}`)).text())).toContain(
      TEAM_MESSAGES.invitationUnusable,
    );
  });
});
