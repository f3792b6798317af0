import { z } from "zod";
import { compose, greeting } from "../compose.server";
import { link, mailTemplate, personName } from "./template.server";

/** The mails about the account itself: welcome, a password reset link, a new confirmation link. */

export const welcome = mailTemplate(z.object({ name: personName, confirmUrl: link.optional() }), (d, env) =>
  compose(env, `Welcome to ${env.BRAND_NAME}`, {
    paragraphs: [
      greeting(d.name),
      `Welcome to ${env.BRAND_NAME}. Your account is ready: you can fund it, follow your balance and results, and request withdrawals from your dashboard.`,
      ...(d.confirmUrl ? ["Please confirm your e-mail address so that we can reach you about your account."] : []),
    ],
    action: d.confirmUrl ? { label: "Confirm my e-mail address", url: d.confirmUrl } : undefined,
    footnote: `If you did not create this account, please contact ${env.SUPPORT_EMAIL}.`,
  }),
);

export const passwordReset = mailTemplate(z.object({ name: personName, resetUrl: link }), (d, env) =>
  compose(env, `Reset your ${env.BRAND_NAME} password`, {
    paragraphs: [
      greeting(d.name),
      "We received a request to reset your password. The link below works once, for 30 minutes.",
    ],
    action: { label: "Choose a new password", url: d.resetUrl },
    footnote: "If you did not ask for this, you can ignore this e-mail: your password stays as it is.",
  }),
);

/** A new confirmation link, asked for by the client (the welcome mail carried the first). */
export const emailConfirmation = mailTemplate(z.object({ name: personName, confirmUrl: link }), (d, env) =>
  compose(env, `Confirm your e-mail address for ${env.BRAND_NAME}`, {
    paragraphs: [
      greeting(d.name),
      "Here is the new link you asked for to confirm your e-mail address. It works once, for 7 days; the links we sent you before it no longer work.",
    ],
    action: { label: "Confirm my e-mail address", url: d.confirmUrl },
    footnote: `If you did not ask for this, you can ignore this e-mail, or contact ${env.SUPPORT_EMAIL}.`,
  }),
);
