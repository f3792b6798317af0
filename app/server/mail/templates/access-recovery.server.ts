import { z } from "zod";
import { accessRecoveryCancelLink } from "../../access-recovery/cancel-link.server";
import type { AppEnv } from "../../env.server";
import { compose, greeting, utcMinute } from "../compose.server";
import { link, mailTemplate, personName } from "./template.server";

/**
 * Every step of a client's access-recovery request (docs/product.md, "Access recovery"), in one template: sent,
 * approved once, approved, refused, cancelled. While the request is in progress each mail carries its cancel link,
 * with the words of the other security notices for a change the owner did not make.
 */
export const ACCESS_RECOVERY_STEPS = [
  "submitted",
  "first_approved",
  "approved",
  "refused",
  "cancelled",
  "cancelled_by_sign_in",
] as const;

const accessRecoveryData = z.object({
  name: personName,
  step: z.enum(ACCESS_RECOVERY_STEPS),
  /** When the step happened (ms since the epoch), shown in UTC. */
  at: z.number().int().positive(),
  requestId: z.number().int().positive(),
  clientId: z.string().min(1).max(64),
  /** The browser and place the request was sent from. */
  browser: z.string().trim().max(120),
  location: z.string().trim().max(120),
  /** The site's address the cancel link points to. */
  origin: link,
  /** Approved: no money moves from the account until then (ms since the epoch). */
  holdUntil: z.number().int().positive().optional(),
  /** Refused: the reviewer's reason. */
  reason: z.string().trim().max(500).optional(),
});
type AccessRecoveryData = z.infer<typeof accessRecoveryData>;

const notYou = (env: AppEnv) =>
  `If it was not you, cancel it now with the button below, then reset your password (Forgot your password? on the sign-in page) and contact ${env.SUPPORT_EMAIL}.`;

const STEP_TEXT: Record<AccessRecoveryData["step"], { subject: string; happened: (d: AccessRecoveryData) => string }> =
  {
    submitted: {
      subject: "A request to restore access to your account",
      happened: () =>
        "A request to restore access to your account was sent, with a new photo of your identity document and a selfie. If it is approved, your two-factor sign-in (authenticator app, passkeys and recovery codes) is removed, so that the account opens with its password alone. Two members of our compliance team check it against the documents you verified with.",
    },
    first_approved: {
      subject: "Your request to restore access passed its first check",
      happened: () =>
        "The first of two approvals of the request to restore access to your account was given. When a second member of our team approves it, your two-factor sign-in is removed.",
    },
    approved: {
      subject: "Access to your account was restored",
      happened: (d) =>
        `The request to restore access to your account was approved: your two-factor sign-in (authenticator app, passkeys and recovery codes) was removed, and every session of the account was ended. Sign in with your password, then set two-factor sign-in up again on Account Settings.${d.holdUntil ? ` To protect your money, nothing can move from your account until ${utcMinute(d.holdUntil)}.` : ""}`,
    },
    refused: {
      subject: "Your request to restore access was refused",
      happened: (d) =>
        `The request to restore access to your account was refused: your two-factor sign-in is unchanged.${d.reason ? ` The reason: ${d.reason}` : ""}`,
    },
    cancelled: {
      subject: "Your request to restore access was cancelled",
      happened: () =>
        "The request to restore access to your account was cancelled: nothing about your sign-in changed.",
    },
    // The owner proved a second factor: whoever asked to have the factors removed did not need it, or was not them.
    cancelled_by_sign_in: {
      subject: "A request to restore access to your account was cancelled",
      happened: () =>
        "A request to restore access to your account was cancelled, because the account was just signed in to with its second factor: nothing about your sign-in changed. If you did not send that request, someone else knows your password: change it now on Account Settings.",
    },
  };

function renderAccessRecovery(d: AccessRecoveryData, env: AppEnv) {
  const text = STEP_TEXT[d.step];
  const inProgress = d.step === "submitted" || d.step === "first_approved";
  return compose(env, text.subject, {
    paragraphs: [
      greeting(d.name),
      text.happened(d),
      ...(inProgress
        ? [`If this was you, there is nothing to do: we will e-mail you when it is decided. ${notYou(env)}`]
        : []),
    ],
    facts: [
      ["When", utcMinute(d.at)],
      ["Request sent from", d.browser || "Unknown browser"],
      ["Location", d.location || "Unknown location"],
    ],
    ...(inProgress
      ? {
          action: {
            label: "Cancel this request",
            url: accessRecoveryCancelLink(new URL(d.origin).origin, env.SESSION_SECRET, d.requestId, d.clientId),
          },
        }
      : {}),
    footnote:
      d.step === "approved"
        ? `If you did not ask for this, reset your password at once (Forgot your password? on the sign-in page) and contact ${env.SUPPORT_EMAIL}.`
        : `Questions? Contact ${env.SUPPORT_EMAIL}.`,
  });
}

export const accessRecovery = mailTemplate(accessRecoveryData, renderAccessRecovery);
