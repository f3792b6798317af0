import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PERMISSION_MESSAGES } from "~/lib/permissions";
import { INVITATION_TTL_MS, TEAM_MESSAGES } from "~/lib/team";
import { acceptInvitation, inviteAdmin } from "~/server/admin/team-invitations.server";
import { sha256Hex } from "~/server/crypto.server";
import {
  cookieFrom,
  countRows,
  createUser,
  getPage,
  ORIGIN,
  postForm,
  sessionCookieFor,
  TEST_PASSWORD,
} from "../support/fixtures";
import { alerts, errorShown, hydrationData, linkHref, REFUSED, refusals, statuses } from "../support/places";
import {
  admin,
  commandContext,
  invitationLink,
  joinFields,
  newEmail,
  owner,
  rolesOf,
  teamWrites,
} from "../support/team-fixtures";

describe("inviting an admin", () => {
  it("mails a single-use link; the invitee joins with the invited roles and must enrol two-factor first", async () => {
    const inviter = await owner();
    const email = newEmail();
    const sent = await postForm(
      "/admin/team",
      { intent: "invite", email, "role-support": "on", "role-approver": "on" },
      { cookie: inviter.cookie },
    );
    expect(sent.status).toBe(200);
    expect(statuses(await sent.text())).toContain(TEAM_MESSAGES.invited(email));
    const link = await invitationLink(email);
    expect(link.pathname).toBe("/team/invite");
    const token = link.searchParams.get("token") ?? "";
    // Only the token's hash is stored.
    expect(await countRows("admin_invitations", "id = ?", token)).toBe(0);
    expect(await countRows("admin_invitations", "id = ?", await sha256Hex(token))).toBe(1);

    const joined = await postForm("/team/invite", joinFields(token));
    expect(joined.status).toBe(302);
    expect(joined.headers.get("Location")).toBe("/account/two-factor");
    const cookie = cookieFrom(joined);
    const user = await env.DB.prepare("SELECT id, role FROM users WHERE email = ?")
      .bind(email)
      .first<{ id: string; role: string }>();
    expect(user?.role).toBe("admin");
    expect(await rolesOf(user?.id ?? "")).toEqual(["approver", "support"]);
    // Anything else sends the new admin to the set-up first.
    const desk = await getPage("/admin", cookie);
    expect(desk.headers.get("Location")).toBe("/account/two-factor");
    expect((await getPage("/account/two-factor", cookie)).status).toBe(200);

    // The same link a second time: refused, nothing more is created.
    const again = await postForm("/team/invite", { ...joinFields(token), firstName: "Mallory" });
    expect(again.status).toBe(410);
    expect(refusals(await again.text())).toContain(TEAM_MESSAGES.invitationUnusable);
    expect(await countRows("users", "email = ?", email)).toBe(1);
    expect(alerts(await (await getPage(`/team/invite?token=${token}`)).text())).toContain(
      TEAM_MESSAGES.invitationUnusable,
    );
  });

  it("expires after 48 hours", async () => {
    const inviter = await owner();
    const email = newEmail();
    const at = Date.UTC(2026, 0, 10, 12);
    const invited = await inviteAdmin(
      commandContext(),
      { ...inviter, firstName: "Pat" },
      { email, roles: ["operator"] },
      ORIGIN,
      at,
    );
    expect(invited.ok).toBe(true);
    const token = (await invitationLink(email)).searchParams.get("token") ?? "";
    const request = new Request(`${ORIGIN}/team/invite`);
    const late = await acceptInvitation(commandContext(), request, { ...joinFields(token) }, at + INVITATION_TTL_MS);
    expect(late).toMatchObject({ ok: false, error: TEAM_MESSAGES.invitationUnusable });
    expect(await countRows("users", "email = ?", email)).toBe(0);
    const inTime = await acceptInvitation(
      commandContext(),
      request,
      { ...joinFields(token) },
      at + INVITATION_TTL_MS - 1,
    );
    expect(inTime.ok).toBe(true);
  });

  it("refuses an e-mail that already has an account, a client's or an admin's, and writes nothing", async () => {
    const inviter = await owner();
    const client = await createUser();
    const other = await admin();
    const before = await teamWrites();
    for (const [email, message] of [
      [client.email, TEAM_MESSAGES.emailIsClient],
      [other.email, TEAM_MESSAGES.emailIsAdmin],
    ] as const) {
      const response = await postForm(
        "/admin/team",
        { intent: "invite", email, "role-support": "on" },
        { cookie: inviter.cookie },
      );
      expect(response.status).toBe(409);
      expect(refusals(await response.text())).toContain(message);
    }
    expect(await teamWrites()).toEqual(before);
  });

  it("never invites an owner: that takes a second owner once they have joined", async () => {
    const inviter = await owner();
    const response = await postForm(
      "/admin/team",
      { intent: "invite", email: newEmail(), "role-owner": "on" },
      { cookie: inviter.cookie },
    );
    expect(response.status).toBe(400);
    expect(refusals(await response.text())).toContain(TEAM_MESSAGES.ownerNotInvited);
  });
});

describe("roles and the owner protections", () => {
  it("changes another admin's roles, audited and mailed to them and the owners", async () => {
    const acting = await owner();
    const member = await admin(["support"]);
    const response = await postForm(
      "/admin/team",
      { intent: "roles", userId: member.id, "role-operator": "on", "role-compliance": "on" },
      { cookie: acting.cookie },
    );
    expect(response.status).toBe(200);
    expect(await rolesOf(member.id)).toEqual(["compliance", "operator"]);
    expect(await countRows("audit_log", "action = 'team.roles' AND target = ?", `user:${member.id}`)).toBe(1);
    expect(await countRows("email_outbox", "template = 'team_change' AND to_address = ?", member.email)).toBe(1);
    expect(await countRows("email_outbox", "template = 'team_change' AND to_address = ?", acting.email)).toBe(1);
  });

  it("never lets an owner change their own roles or deactivate themselves", async () => {
    const acting = await owner();
    await owner();
    const before = await teamWrites();
    for (const fields of <Array<Record<string, string>>>[
      { intent: "roles", userId: acting.id, "role-support": "on" },
      { intent: "deactivate", userId: acting.id },
    ]) {
      const response = await postForm("/admin/team", fields, { cookie: acting.cookie });
      expect(response.status).toBe(409);
      // No place of the page shows this refusal: the viewer's own card has no Manage panel for its banner, and the
      // page's own banner is for invitations. It is read as the action answers it (reported as a finding).
      const { actionData } = await hydrationData(await response.text());
      expect(actionData?.["routes/admin.team"]).toMatchObject({ tone: "error", message: TEAM_MESSAGES.ownSelf });
    }
    expect(await teamWrites()).toEqual(before);
    expect(await rolesOf(acting.id)).toEqual(["owner"]);
  });

  it("gives the owner role only through a second owner's approval", async () => {
    const first = await owner();
    const second = await owner();
    const member = await admin(["support"]);
    const direct = await postForm(
      "/admin/team",
      { intent: "roles", userId: member.id, "role-owner": "on" },
      { cookie: first.cookie },
    );
    expect(direct.status).toBe(409);
    expect(await rolesOf(member.id)).toEqual(["support"]);

    expect(
      (await postForm("/admin/team", { intent: "proposeOwner", userId: member.id }, { cookie: first.cookie })).status,
    ).toBe(200);
    const proposal = await env.DB.prepare("SELECT id FROM team_proposals WHERE target_id = ?")
      .bind(member.id)
      .first<{ id: number }>();
    const own = await postForm(
      "/admin/team",
      { intent: "approve", proposalId: String(proposal?.id) },
      { cookie: first.cookie },
    );
    expect(own.status).toBe(409);
    expect(await rolesOf(member.id)).toEqual(["support"]);
    const approved = await postForm(
      "/admin/team",
      { intent: "approve", proposalId: String(proposal?.id) },
      { cookie: second.cookie },
    );
    expect(approved.status).toBe(200);
    expect(await rolesOf(member.id)).toEqual(["owner", "support"]);
  });

  it("lets only one of two owners demoting each other at the same moment succeed: the team keeps an owner", async () => {
    // Alone in their own team: a fresh database per file is shared, so count only these two.
    await env.DB.prepare("UPDATE users SET deactivated_at = 1 WHERE role = 'admin' AND deactivated_at IS NULL").run();
    const a = await owner();
    const b = await owner();
    const [byA, byB] = await Promise.all([
      postForm("/admin/team", { intent: "roles", userId: b.id, "role-support": "on" }, { cookie: a.cookie }),
      postForm("/admin/team", { intent: "roles", userId: a.id, "role-support": "on" }, { cookie: b.cookie }),
    ]);
    expect([byA.status, byB.status].sort()).toEqual([200, 403]);
    const owners = await countRows(
      "admin_roles r JOIN users u ON u.id = r.user_id",
      "r.role = 'owner' AND u.deactivated_at IS NULL AND r.user_id IN (?, ?)",
      a.id,
      b.id,
    );
    expect(owners).toBe(1);
    await env.DB.prepare("UPDATE users SET deactivated_at = NULL WHERE deactivated_at = 1").run();
  });

  it("never deactivates or demotes the last active owner, even racing", async () => {
    await env.DB.prepare("UPDATE users SET deactivated_at = 1 WHERE role = 'admin' AND deactivated_at IS NULL").run();
    const a = await owner();
    const b = await owner();
    const [byA, byB] = await Promise.all([
      postForm("/admin/team", { intent: "deactivate", userId: b.id }, { cookie: a.cookie }),
      postForm("/admin/team", { intent: "deactivate", userId: a.id }, { cookie: b.cookie }),
    ]);
    // The loser is refused, or, when the winner's batch came first, finds their own session already ended.
    expect([byA.status, byB.status].filter((status) => status === 200)).toHaveLength(1);
    expect([byA.status, byB.status].every((status) => [200, 302, 403].includes(status))).toBe(true);
    expect(await countRows("users", "id IN (?, ?) AND deactivated_at IS NULL", a.id, b.id)).toBe(1);
    await env.DB.prepare("UPDATE users SET deactivated_at = NULL WHERE deactivated_at = 1").run();
  });
});

describe("deactivation", () => {
  it("ends the admin's sessions, closes their live feeds at once, and blocks sign-in until reactivated", async () => {
    const acting = await owner();
    const member = await admin(["operator"]);
    const response = await exports.default.fetch(`${ORIGIN}/ws/admin`, {
      headers: { Upgrade: "websocket", Cookie: member.cookie, Origin: ORIGIN },
    });
    const socket = response.webSocket;
    if (!socket) throw new Error(`no websocket: ${response.status}`);
    socket.accept();
    const closed = new Promise<number>((resolve) => socket.addEventListener("close", (event) => resolve(event.code)));

    const done = await postForm("/admin/team", { intent: "deactivate", userId: member.id }, { cookie: acting.cookie });
    expect(done.status).toBe(200);
    expect(await closed).toBe(4001);
    expect(await countRows("sessions", "user_id = ?", member.id)).toBe(0);
    expect((await getPage("/admin", member.cookie)).headers.get("Location")).toMatch(/^\/login/);
    const signIn = await postForm("/login", { email: member.email, password: TEST_PASSWORD, redirectTo: "" });
    expect(signIn.status).toBe(401);
    // A session made any other way is not honoured either.
    expect((await getPage("/admin", await sessionCookieFor(member.id))).headers.get("Location")).toMatch(/^\/login/);

    expect(
      (await postForm("/admin/team", { intent: "reactivate", userId: member.id }, { cookie: acting.cookie })).status,
    ).toBe(200);
    const again = await postForm("/login", { email: member.email, password: TEST_PASSWORD, redirectTo: "" });
    expect(again.status).toBe(302);
  });
});

describe("two-factor reset", () => {
  it("resets an admin whose only second factor is a passkey, the passkey included", async () => {
    const first = await owner();
    const second = await owner();
    const member = await admin(["compliance"]);
    // The app gone, a passkey in its place: the admin's two-factor sign-in is the passkey alone.
    await env.DB.prepare("DELETE FROM two_factor WHERE user_id = ?").bind(member.id).run();
    await env.DB.prepare(
      "INSERT INTO passkeys (id, user_id, public_key, counter, device_type, backed_up, name, created_at) VALUES (?, ?, ?, 0, 'singleDevice', 0, 'Laptop', ?)",
    )
      .bind(`cred-${member.id}`, member.id, "AA", Date.now())
      .run();
    const proposed = await postForm(
      "/admin/team",
      { intent: "proposeReset", userId: member.id },
      { cookie: first.cookie },
    );
    expect(proposed.status).toBe(200);
    const proposal = await env.DB.prepare(
      "SELECT id FROM team_proposals WHERE target_id = ? AND kind = 'reset_two_factor'",
    )
      .bind(member.id)
      .first<{ id: number }>();
    expect(proposal).not.toBeNull();
    const approved = await postForm(
      "/admin/team",
      { intent: "approve", proposalId: String(proposal?.id) },
      { cookie: second.cookie },
    );
    expect(approved.status).toBe(200);
    expect(await countRows("passkeys", "user_id = ?", member.id)).toBe(0);
  });

  it("takes a second owner; then the admin is signed out and must enrol again at the next sign-in", async () => {
    const first = await owner();
    const second = await owner();
    const member = await admin(["approver"]);
    expect(
      (await postForm("/admin/team", { intent: "proposeReset", userId: member.id }, { cookie: first.cookie })).status,
    ).toBe(200);
    expect(await countRows("two_factor", "user_id = ?", member.id)).toBe(1);
    const proposal = await env.DB.prepare(
      "SELECT id FROM team_proposals WHERE target_id = ? AND kind = 'reset_two_factor'",
    )
      .bind(member.id)
      .first<{ id: number }>();
    const approved = await postForm(
      "/admin/team",
      { intent: "approve", proposalId: String(proposal?.id) },
      { cookie: second.cookie },
    );
    expect(approved.status).toBe(200);
    expect(await countRows("two_factor", "user_id = ?", member.id)).toBe(0);
    expect(await countRows("sessions", "user_id = ?", member.id)).toBe(0);
    const signIn = await postForm("/login", { email: member.email, password: TEST_PASSWORD, redirectTo: "" });
    const cookie = cookieFrom(signIn);
    expect((await getPage("/admin", cookie)).headers.get("Location")).toBe("/account/two-factor");
  });
});

describe("who may use the team page", () => {
  it("answers 403 to an admin who is not an owner, on the page and every intent, and writes nothing", async () => {
    const target = await admin(["support"]);
    for (const role of ["support", "operator", "approver", "compliance"] as const) {
      const member = await admin([role]);
      expect((await getPage("/admin/team", member.cookie)).status).toBe(403);
      const before = await teamWrites();
      for (const fields of <Array<Record<string, string>>>[
        { intent: "invite", email: newEmail(), "role-support": "on" },
        { intent: "roles", userId: target.id, "role-operator": "on" },
        { intent: "deactivate", userId: target.id },
        { intent: "reactivate", userId: target.id },
        { intent: "proposeOwner", userId: target.id },
        { intent: "proposeReset", userId: target.id },
        { intent: "approve", proposalId: "1" },
        { intent: "reject", proposalId: "1" },
      ]) {
        const response = await postForm("/admin/team", fields, { cookie: member.cookie });
        expect(response.status).toBe(403);
        expect(errorShown(await response.text())).toEqual({ title: REFUSED, text: PERMISSION_MESSAGES.forbidden });
      }
      expect(await teamWrites()).toEqual(before);
    }
  });

  it("shows the Team link to owners only", async () => {
    const acting = await owner();
    const member = await admin(["compliance"]);
    expect(linkHref(await (await getPage("/admin", acting.cookie)).text(), "Team")).toBe("/admin/team");
    expect(linkHref(await (await getPage("/admin", member.cookie)).text(), "Team")).toBeNull();
  });
});
