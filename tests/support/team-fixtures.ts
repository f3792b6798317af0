/** What the team page's tests share: owners and admins signed in, the team's writes, the mailed invitation. */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { BackOfficeRole } from "../../db/enums";
import { appEnv, countRows, createUser, db, sessionCookieFor } from "./fixtures";

export const commandContext = () => ({ db, env: appEnv, bindings: env, ctx: createExecutionContext() });

export async function owner() {
  const user = await createUser({ role: "admin", roles: ["owner"] });
  return { ...user, cookie: await sessionCookieFor(user.id) };
}

export async function admin(roles: BackOfficeRole[] = ["support"]) {
  const user = await createUser({ role: "admin", roles });
  return { ...user, cookie: await sessionCookieFor(user.id) };
}

export const rolesOf = async (userId: string) =>
  (
    await env.DB.prepare("SELECT role FROM admin_roles WHERE user_id = ? ORDER BY role")
      .bind(userId)
      .all<{ role: string }>()
  ).results.map((row) => row.role);

/** Every write a team change makes: what a refused one must leave as it was. */
export const teamWrites = async () =>
  Promise.all([
    countRows("admin_roles"),
    countRows("admin_invitations"),
    countRows("team_proposals"),
    countRows("audit_log", "action LIKE 'team.%'"),
    countRows("email_outbox", "template IN ('team_change', 'admin_invitation')"),
    countRows("users", "deactivated_at IS NOT NULL"),
  ]);

/** The invitation link mailed to an address (the newest). */
export async function invitationLink(email: string) {
  const row = await env.DB.prepare(
    "SELECT payload FROM email_outbox WHERE to_address = ? AND template = 'admin_invitation' ORDER BY id DESC",
  )
    .bind(email)
    .first<{ payload: string }>();
  return new URL(JSON.parse(row?.payload ?? "{}").inviteUrl);
}

export const newEmail = () => `new-${crypto.randomUUID().slice(0, 8)}@example.com`;
export const joinFields = (token: string) => ({
  token,
  firstName: "Robin",
  lastName: "Lee",
  password: "a-good-password",
  confirmPassword: "a-good-password",
});
