import { z } from "zod";
import type { AppEnv } from "../../env.server";
import { compose, greeting, utcMinute } from "../compose.server";
import { mailTemplate } from "./template.server";

/**
 * The security notice (docs/product.md, "Security notices"): one template for every change to how an account is
 * protected, its data and how each event reads.
 */
/** What a security notice can be about. */
export const SECURITY_EVENTS = [
  "new_browser",
  "password_changed",
  "two_factor_on",
  "two_factor_off",
  "recovery_code_used",
  "provider_linked",
  "provider_unlinked",
  "passkey_added",
  "passkey_renamed",
  "passkey_removed",
  "passkey_copied",
] as const;
export type SecurityEvent = (typeof SECURITY_EVENTS)[number];

const securityNoticeData = z.object({
  name: z.string().trim().max(200),
  event: z.enum(SECURITY_EVENTS),
  /** When it happened (ms since the epoch), shown in UTC. */
  at: z.number().int().positive(),
  browser: z.string().trim().max(120),
  location: z.string().trim().max(120),
  /** The OAuth provider, for a link or unlink. */
  provider: z.string().trim().max(40).optional(),
  /** The passkey's name, for a passkey added, renamed (its new name), removed or copied. */
  passkey: z.string().trim().max(64).optional(),
  /**
   * The account is an admin's. Admins must use two-factor sign-in, so turning it off does not leave them with a
   * password alone: it shuts the back office until they set it up again, and their notice says so.
   */
  admin: z.literal(true).optional(),
  /** Turned off with a recovery code: no money moves from the account until then (ms since the epoch, UTC). */
  holdUntil: z.number().int().positive().optional(),
});
type SecurityNoticeData = z.infer<typeof securityNoticeData>;

interface EventText {
  subject: string;
  happened: (d: SecurityNoticeData) => string;
  /** What the owner should do, where the usual footnote does not fit. */
  footnote?: (d: SecurityNoticeData, env: AppEnv) => string | undefined;
}

const SECURITY_EVENT_TEXT: Record<SecurityEvent, EventText> = {
  new_browser: {
    subject: "New sign-in to your account",
    happened: () => "Your account was signed in to from a browser we have not seen on it before.",
  },
  password_changed: {
    subject: "Your password was changed",
    happened: () => "The password of your account was changed.",
  },
  two_factor_on: {
    subject: "Two-factor authentication turned on",
    happened: () => "Two-factor authentication was turned on for your account.",
  },
  two_factor_off: {
    subject: "Two-factor authentication turned off",
    happened: (d) =>
      (d.admin
        ? "Two-factor authentication was turned off for your account. Administrators must use it: until you set it up again with an authenticator app, your account opens only the two-factor set-up page, not the back office."
        : "Two-factor authentication was turned off for your account. Signing in now needs only your password.") +
      (d.holdUntil
        ? ` It was turned off with a recovery code, so no money can move from your account until ${utcMinute(d.holdUntil)}.`
        : ""),
    // Nothing to do is not true for an admin; and until it is on again they can open no other page.
    footnote: (d, env) =>
      d.admin
        ? `If this was you, set it up again now: sign in with your password and you are taken to its set-up. If it was not, reset your password at once (Forgot your password? on the sign-in page), set two-factor authentication up again with a new key (which ends every other session), and contact ${env.SUPPORT_EMAIL}.`
        : undefined,
  },
  recovery_code_used: {
    subject: "A recovery code was used",
    happened: () => "One of your two-factor recovery codes was used to sign in. It cannot be used again.",
  },
  provider_linked: {
    subject: "A sign-in provider was linked",
    happened: (d) =>
      `Your ${d.provider ?? "provider"} account was linked: it can now be used to sign in to your account.`,
  },
  provider_unlinked: {
    subject: "A sign-in provider was unlinked",
    happened: (d) =>
      `Your ${d.provider ?? "provider"} account was unlinked: it can no longer be used to sign in to your account.`,
  },
  passkey_added: {
    subject: "A passkey was added to your account",
    happened: (d) => `A passkey named "${d.passkey ?? ""}" was added: it can now be used to sign in to your account.`,
    // A password reset does not take a passkey away: removing it does.
    footnote: (_d, env) =>
      `If this was you, there is nothing to do. If it was not, remove that passkey at once on Account Settings (Passkeys), reset your password (Forgot your password? on the sign-in page), check your sessions, and contact ${env.SUPPORT_EMAIL}.`,
  },
  passkey_renamed: {
    subject: "A passkey was renamed",
    happened: (d) => `One of your passkeys was renamed "${d.passkey ?? ""}".`,
  },
  passkey_removed: {
    subject: "A passkey was removed from your account",
    happened: (d) =>
      `The passkey named "${d.passkey ?? ""}" was removed: it can no longer be used to sign in to your account.`,
  },
  // A signed answer whose counter went backwards: a copy of the passkey signing in beside the original.
  passkey_copied: {
    subject: "Your passkey may have been copied",
    happened: (d) =>
      `A sign-in with your passkey named "${d.passkey ?? ""}" was refused: the passkey counted fewer uses than it had before, which is what a copy of it does. The browser and place below are those of that sign-in.`,
    footnote: (_d, env) =>
      `Remove that passkey at once on Account Settings (Passkeys) and add a new one, reset your password (Forgot your password? on the sign-in page), check your sessions, and contact ${env.SUPPORT_EMAIL}.`,
  },
};

function renderSecurityNotice(d: SecurityNoticeData, env: AppEnv) {
  const text = SECURITY_EVENT_TEXT[d.event];
  return compose(env, text.subject, {
    paragraphs: [greeting(d.name), text.happened(d)],
    facts: [
      ["When", utcMinute(d.at)],
      ["Browser", d.browser || "Unknown browser"],
      ["Location", d.location || "Unknown location"],
    ],
    footnote:
      text.footnote?.(d, env) ??
      `If this was you, there is nothing to do. If it was not, reset your password at once (Forgot your password? on the sign-in page), then check your sessions on Account Settings, and contact ${env.SUPPORT_EMAIL}.`,
  });
}

export const securityNotice = mailTemplate(securityNoticeData, renderSecurityNotice);
