import { z } from "zod";
import { VERIFICATION_MESSAGES } from "~/lib/verification";
import type { AppEnv } from "../../env.server";
import { compose, greeting, utcMinute } from "../compose.server";
import { mailTemplate, personName } from "./template.server";

/**
 * The client's mails about their identity-verification deadline (docs/product.md, "Identity verification",
 * "Deadline"): a reminder at 7 days and at 1 day left, and the notice that the account is restricted. The
 * scheduled handler enqueues them (app/server/verification/deadline.server.ts).
 */
/** Our own verification page, when the deployment's address is known (SITE_URL). */
const verificationUrl = z.url({ protocol: /^https?$/ }).optional();

const verificationReminderData = z.object({
  /** The client's first name; set by the enqueuing statement from the profile. */
  name: personName,
  daysLeft: z.number().int().min(1).max(14),
  /** The deadline (ms since the epoch), shown in UTC; set by the enqueuing statement. */
  dueAt: z.number().int().positive(),
  url: verificationUrl,
});

const verificationRestrictedData = z.object({ name: personName, url: verificationUrl });

const HOW_TO_FINISH = "Sign in and open Account Settings, then Identity verification, to send your documents.";

function renderVerificationReminder(d: z.infer<typeof verificationReminderData>, env: AppEnv) {
  const left = d.daysLeft === 1 ? "1 day" : `${d.daysLeft} days`;
  return compose(env, `Verify your identity: ${left} left`, {
    paragraphs: [
      greeting(d.name),
      `You have ${left} left to verify your identity. After the deadline your account is restricted: new deposits stop until your verification is approved. Nothing already in your account changes.`,
      HOW_TO_FINISH,
    ],
    facts: [["Deadline", utcMinute(d.dueAt)]],
    action: d.url ? { label: "Verify my identity", url: d.url } : undefined,
  });
}

function renderVerificationRestricted(d: z.infer<typeof verificationRestrictedData>, env: AppEnv) {
  return compose(env, "Your account is restricted until you verify your identity", {
    paragraphs: [
      greeting(d.name),
      "The 14 days to verify your identity have passed, so your account is now restricted: new deposits and stock deposits are refused until your verification is approved. Nothing already in your account changes.",
      VERIFICATION_MESSAGES.restricted,
      HOW_TO_FINISH,
    ],
    action: d.url ? { label: "Verify my identity", url: d.url } : undefined,
  });
}

/** To the client: days left to verify their identity (7, then 1). */
export const verificationReminder = mailTemplate(verificationReminderData, renderVerificationReminder);

/** To the client: the deadline passed unverified; new deposits stop. */
export const verificationRestricted = mailTemplate(verificationRestrictedData, renderVerificationRestricted);
