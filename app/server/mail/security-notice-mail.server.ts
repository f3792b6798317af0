import { z } from "zod";
import type { AppEnv } from "../env.server";
import { compose, greeting, utcMinute } from "./compose.server";

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
] as const;
export type SecurityEvent = (typeof SECURITY_EVENTS)[number];

export const securityNoticeData = z.object({
  name: z.string().trim().max(200),
  event: z.enum(SECURITY_EVENTS),
  /** When it happened (ms since the epoch), shown in UTC. */
  at: z.number().int().positive(),
  browser: z.string().trim().max(120),
  location: z.string().trim().max(120),
  /** The OAuth provider, for a link or unlink. */
  provider: z.string().trim().max(40).optional(),
});
type SecurityNoticeData = z.infer<typeof securityNoticeData>;

const SECURITY_EVENT_TEXT: Record<SecurityEvent, { subject: string; happened: (provider: string) => string }> = {
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
    happened: () =>
      "Two-factor authentication was turned off for your account. Signing in now needs only your password.",
  },
  recovery_code_used: {
    subject: "A recovery code was used",
    happened: () => "One of your two-factor recovery codes was used to sign in. It cannot be used again.",
  },
  provider_linked: {
    subject: "A sign-in provider was linked",
    happened: (provider) => `Your ${provider} account was linked: it can now be used to sign in to your account.`,
  },
  provider_unlinked: {
    subject: "A sign-in provider was unlinked",
    happened: (provider) =>
      `Your ${provider} account was unlinked: it can no longer be used to sign in to your account.`,
  },
};

export function renderSecurityNotice(d: SecurityNoticeData, env: AppEnv) {
  const text = SECURITY_EVENT_TEXT[d.event];
  return compose(env, text.subject, {
    paragraphs: [greeting(d.name), text.happened(d.provider ?? "provider")],
    facts: [
      ["When", utcMinute(d.at)],
      ["Browser", d.browser || "Unknown browser"],
      ["Location", d.location || "Unknown location"],
    ],
    footnote: `If this was you, there is nothing to do. If it was not, reset your password at once (Forgot your password? on the sign-in page), then check your sessions on Account Settings, and contact ${env.SUPPORT_EMAIL}.`,
  });
}
