import { z } from "zod";
import { compose, greeting, utcMinute } from "../compose.server";
import { link, mailTemplate, personName } from "./template.server";

/** The team page's mails: an invitation to the back office, and a change to an admin, told to them and the owners. */

export const adminInvitation = mailTemplate(
  z.object({ invitedBy: personName, roles: z.string().trim().min(1).max(200), inviteUrl: link, expiresAt: z.number() }),
  (d, env) =>
    compose(env, `You are invited to the ${env.BRAND_NAME} back office`, {
      paragraphs: [
        greeting(""),
        `${d.invitedBy || "An owner"} invites you to join the ${env.BRAND_NAME} back office. Open the link to choose your name and password; you then set up two-factor sign-in with an authenticator app before anything else.`,
        "The link works once, for 48 hours.",
      ],
      facts: [
        ["Roles", d.roles],
        ["Valid until", utcMinute(d.expiresAt)],
      ],
      action: { label: "Join the team", url: d.inviteUrl },
      footnote: `If you did not expect this, ignore this e-mail, or contact ${env.SUPPORT_EMAIL}.`,
    }),
);

/** One change on the team page, to the admin concerned and to every owner: what changed, to whom, by whom. */
export const teamChange = mailTemplate(
  z.object({
    name: personName,
    change: z.string().trim().min(1).max(300),
    admin: z.string().trim().min(1).max(320),
    by: z.string().trim().min(1).max(320),
    at: z.number(),
  }),
  (d, env) =>
    compose(env, `Back-office team: ${d.change}`, {
      paragraphs: [greeting(d.name), `A change was made to the ${env.BRAND_NAME} back-office team.`],
      facts: [
        ["Change", d.change],
        ["Admin", d.admin],
        ["By", d.by],
        ["When", utcMinute(d.at)],
      ],
      footnote: `If this change looks wrong, tell an owner at once, or contact ${env.SUPPORT_EMAIL}.`,
    }),
);
