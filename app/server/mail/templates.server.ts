import { z } from "zod";
import { formatUsd } from "~/lib/format";
import { REFERENCE_PATTERN, transactionReference } from "~/lib/reference";
import type { AppEnv } from "../env.server";
import { cancelLink } from "../ledger/cancel-link.server";
import { compose, greeting, type RenderedEmail, referenceFact, utcMinute } from "./compose.server";
import { entryPostedData, renderEntryPosted } from "./entry-mail.server";
import { renderSecurityNotice, securityNoticeData } from "./security-notice-mail.server";
import {
  renderVerificationReminder,
  renderVerificationRestricted,
  verificationReminderData,
  verificationRestrictedData,
} from "./verification-mail.server";
import { renderVerificationDecided, verificationDecidedData } from "./verification-review-mail.server";

export { escapeHtml } from "./compose.server";
export { SECURITY_EVENTS, type SecurityEvent } from "./security-notice-mail.server";

/**
 * Every notice the product sends: its data (validated at enqueue time, stored in the outbox) and how it
 * renders. Rendering happens at delivery and in the local mailbox, from the stored data. Every value
 * that reaches HTML goes through `escapeHtml`.
 */
const amount = z.number().positive().finite();
const address = z.string().trim().min(1).max(200);
const personName = z.string().trim().max(200);
/** Links in mails go to our own pages: http(s) only, never javascript: or data:. */
const link = z.url({ protocol: /^https?$/ });

export const emailTemplates = {
  welcome: z.object({ name: personName, confirmUrl: link.optional() }),
  password_reset: z.object({ name: personName, resetUrl: link }),
  /** A new confirmation link, asked for by the client (the welcome mail carried the first). */
  email_confirmation: z.object({ name: personName, confirmUrl: link }),
  deposit_request: z.object({
    name: personName,
    clientEmail: z.email().optional(),
    amount,
    walletType: z.string().trim().min(1).max(50),
    walletAddress: address,
    stock: z.string().trim().min(1).max(20).optional(),
    /** The request, shown as its reference; set by the enqueuing statement (optional for notices stored before). */
    transactionId: z.number().int().positive().optional(),
  }),
  withdrawal_request: z.object({
    name: personName,
    clientEmail: z.email().optional(),
    amount,
    walletType: z.string().trim().min(1).max(50),
    walletAddress: address,
    /** The request, shown as its reference; set by the enqueuing statement (optional for notices stored before). */
    transactionId: z.number().int().positive().optional(),
  }),
  withdrawal_receipt: z.object({
    name: personName,
    amount,
    walletType: z.string().trim().min(1).max(50),
    walletAddress: address,
    /**
     * The request, shown as its reference. Set by the enqueuing statement (the row is inserted in the same
     * batch); optional so receipts stored before it still render.
     */
    transactionId: z.number().int().positive().optional(),
  }),
  /**
   * A withdrawal to an address the client was never paid to. The cancel link's token is made when the mail
   * renders, from these ids and the secret, so the outbox never stores a live token.
   */
  withdrawal_new_address: z.object({
    name: personName,
    amount,
    currency: z.string().trim().min(1).max(50),
    address,
    transactionId: z.number().int().positive(),
    clientId: z.string().min(1).max(64),
    /** The site's address the link points to (SITE_URL, or the address the request came to). */
    origin: link,
  }),
  deposit_wallet_changed: z.object({
    walletType: z.string().trim().min(1).max(50),
    previousAddress: z.string().max(200),
    newAddress: address,
    changedBy: z.string().max(320),
  }),
  request_decided: z.object({
    name: personName,
    decision: z.enum(["approved", "rejected"]),
    /** The request's kind as clients read it: "Deposit", "Withdrawal". */
    requestType: z.string().trim().min(1).max(40),
    amount,
    /** When it was requested (ms since the epoch), shown in UTC. */
    requestedAt: z.number().int().positive(),
    /** The admin's reason for a rejection, when they gave one. */
    reason: z.string().trim().max(500).optional(),
    /** The request's reference ("TX-7Q2M9K"); optional so notices stored before it still render. */
    reference: z.string().regex(REFERENCE_PATTERN).optional(),
  }),
  /** To the other admins: a proposal waits for a second approval. */
  proposal_waiting: z.object({
    /** What it would do, as the card says it ("Deposit of $20,000.00 for Jane Doe"). */
    description: z.string().trim().min(1).max(700),
    proposedBy: z.string().max(320),
    reason: z.string().trim().max(500).optional(),
    expiresAt: z.number().int().positive(),
  }),
  /** To the proposer: their proposal was approved, rejected (with the reason) or expired. */
  proposal_decided: z.object({
    description: z.string().trim().min(1).max(700),
    decision: z.enum(["approved", "rejected", "expired"]),
    decidedBy: z.string().max(320).optional(),
    reason: z.string().trim().max(500).optional(),
  }),
  security_notice: securityNoticeData,
  /** To the client: the desk posted a ledger entry to their account. */
  entry_posted: entryPostedData,
  /** To the client: days left to verify their identity (7, then 1). */
  verification_reminder: verificationReminderData,
  /** To the client: the deadline passed unverified; new deposits stop. */
  verification_restricted: verificationRestrictedData,
  /** To the client: their identity verification was approved, rejected or needs more information. */
  verification_decided: verificationDecidedData,
} as const;

export type EmailTemplate = keyof typeof emailTemplates;
export type EmailData<T extends EmailTemplate> = z.infer<(typeof emailTemplates)[T]>;

type Renderers = { [T in EmailTemplate]: (data: EmailData<T>, env: AppEnv) => RenderedEmail };

const renderers: Renderers = {
  welcome: (d, env) =>
    compose(env, `Welcome to ${env.BRAND_NAME}`, {
      paragraphs: [
        greeting(d.name),
        `Welcome to ${env.BRAND_NAME}. Your account is ready: you can fund it, follow your balance and results, and request withdrawals from your dashboard.`,
        ...(d.confirmUrl ? ["Please confirm your e-mail address so that we can reach you about your account."] : []),
      ],
      action: d.confirmUrl ? { label: "Confirm my e-mail address", url: d.confirmUrl } : undefined,
      footnote: `If you did not create this account, please contact ${env.SUPPORT_EMAIL}.`,
    }),
  password_reset: (d, env) =>
    compose(env, `Reset your ${env.BRAND_NAME} password`, {
      paragraphs: [
        greeting(d.name),
        "We received a request to reset your password. The link below works once, for 30 minutes.",
      ],
      action: { label: "Choose a new password", url: d.resetUrl },
      footnote: "If you did not ask for this, you can ignore this e-mail: your password stays as it is.",
    }),
  email_confirmation: (d, env) =>
    compose(env, `Confirm your e-mail address for ${env.BRAND_NAME}`, {
      paragraphs: [
        greeting(d.name),
        "Here is the new link you asked for to confirm your e-mail address. It works once, for 7 days; the links we sent you before it no longer work.",
      ],
      action: { label: "Confirm my e-mail address", url: d.confirmUrl },
      footnote: `If you did not ask for this, you can ignore this e-mail, or contact ${env.SUPPORT_EMAIL}.`,
    }),
  deposit_request: (d, env) =>
    compose(env, d.stock ? `New stock deposit request: ${d.stock}` : "New deposit request", {
      paragraphs: [
        `${d.name || "User"} submitted a ${d.stock ? "stock deposit" : "deposit"} request that awaits review.`,
      ],
      facts: [
        ...referenceFact(d.transactionId ? transactionReference(d.transactionId) : undefined),
        ["Client", d.name || "User"],
        ...(d.clientEmail ? ([["Client e-mail", d.clientEmail]] as Array<[string, string]>) : []),
        ["Amount", formatUsd(d.amount)],
        ...(d.stock ? ([["Stock", d.stock]] as Array<[string, string]>) : []),
        ["Wallet type", d.walletType],
        ["Wallet address", d.walletAddress],
      ],
    }),
  withdrawal_request: (d, env) =>
    compose(env, "New withdrawal request", {
      paragraphs: [`${d.name || "User"} requested a withdrawal that awaits review.`],
      facts: [
        ...referenceFact(d.transactionId ? transactionReference(d.transactionId) : undefined),
        ["Client", d.name || "User"],
        ...(d.clientEmail ? ([["Client e-mail", d.clientEmail]] as Array<[string, string]>) : []),
        ["Amount", formatUsd(d.amount)],
        ["Cryptocurrency", d.walletType],
        ["Pay to address", d.walletAddress],
      ],
    }),
  withdrawal_receipt: (d, env) =>
    compose(env, "We received your withdrawal request", {
      paragraphs: [
        greeting(d.name),
        "We received your withdrawal request. It is pending review; the amount is reserved from your available balance until it is decided.",
      ],
      facts: [
        ...referenceFact(d.transactionId ? transactionReference(d.transactionId) : undefined),
        ["Amount", formatUsd(d.amount)],
        ["Cryptocurrency", d.walletType],
        ["Pay to address", d.walletAddress],
      ],
      footnote: `If you did not make this request, contact ${env.SUPPORT_EMAIL} immediately.`,
    }),
  withdrawal_new_address: (d, env) =>
    compose(env, "A withdrawal to a new address was requested", {
      paragraphs: [
        greeting(d.name),
        "A withdrawal was requested from your account to an address we have never paid you to before. If this was you, there is nothing to do: it will be reviewed as usual.",
        "If it was not you, cancel it with the button below while it is still pending, then change your password and contact us.",
      ],
      facts: [
        ...referenceFact(transactionReference(d.transactionId)),
        ["Amount", formatUsd(d.amount)],
        ["Cryptocurrency", d.currency],
        ["Pay to address", d.address],
      ],
      action: {
        label: "Cancel this withdrawal",
        url: cancelLink(new URL(d.origin).origin, env.SESSION_SECRET, d.transactionId, d.clientId),
      },
      footnote: `The link works once, and only while the request is pending. Questions? Contact ${env.SUPPORT_EMAIL}.`,
    }),
  deposit_wallet_changed: (d, env) =>
    compose(env, `Deposit wallet changed: ${d.walletType}`, {
      paragraphs: [
        `The ${d.walletType} deposit address that clients pay into was changed by ${d.changedBy}.`,
        "If this change was not expected, check the audit log and restore the address at once.",
      ],
      facts: [
        ["Wallet type", d.walletType],
        ["Previous address", d.previousAddress || "(none)"],
        ["New address", d.newAddress],
        ["Changed by", d.changedBy],
      ],
    }),
  request_decided: (d, env) =>
    compose(env, `Your ${d.requestType.toLowerCase()} request was ${d.decision}`, {
      paragraphs: [
        greeting(d.name),
        d.decision === "approved"
          ? `Your ${d.requestType.toLowerCase()} request was approved.`
          : `Your ${d.requestType.toLowerCase()} request was rejected.${d.requestType === "Withdrawal" ? " The reserved amount is available again." : ""}`,
      ],
      facts: [
        ...referenceFact(d.reference),
        ["Type", d.requestType],
        ["Amount", formatUsd(d.amount)],
        ["Requested", utcMinute(d.requestedAt)],
        ...(d.decision === "rejected" && d.reason ? ([["Reason", d.reason]] as Array<[string, string]>) : []),
      ],
      footnote: `Questions about this decision? Contact ${env.SUPPORT_EMAIL}.`,
    }),
  proposal_waiting: (d, env) =>
    compose(env, "A proposal awaits your second approval", {
      paragraphs: [
        `${d.proposedBy} proposed a change that needs a second admin before it takes effect.`,
        "Approve or reject it from the Awaiting second approval card on the Admin Panel. It expires if nobody decides it in time.",
      ],
      facts: [
        ["Proposal", d.description],
        ["Proposed by", d.proposedBy],
        ...(d.reason ? ([["Reason", d.reason]] as Array<[string, string]>) : []),
        ["Expires", utcMinute(d.expiresAt)],
      ],
    }),
  proposal_decided: (d, env) =>
    compose(env, `Your proposal was ${d.decision}`, {
      paragraphs: [
        d.decision === "approved"
          ? "Your proposal was approved by a second admin and has taken effect."
          : d.decision === "rejected"
            ? "Your proposal was rejected by a second admin. Nothing changed."
            : "Your proposal expired before a second admin decided it. Nothing changed; propose it again if it is still needed.",
      ],
      facts: [
        ["Proposal", d.description],
        ...(d.decidedBy ? ([["Decided by", d.decidedBy]] as Array<[string, string]>) : []),
        ...(d.reason ? ([["Reason", d.reason]] as Array<[string, string]>) : []),
      ],
    }),
  security_notice: renderSecurityNotice,
  entry_posted: renderEntryPosted,
  verification_reminder: renderVerificationReminder,
  verification_restricted: renderVerificationRestricted,
  verification_decided: renderVerificationDecided,
};

export function renderEmail<T extends EmailTemplate>(template: T, data: EmailData<T>, env: AppEnv): RenderedEmail {
  return renderers[template](data, env);
}

/** Renders a stored outbox row; the data is re-validated, so a malformed row fails loudly, not silently. */
export function renderStoredEmail(template: string, payload: unknown, env: AppEnv): RenderedEmail {
  if (!(template in emailTemplates)) throw new Error(`Unknown e-mail template: ${template}`);
  const name = template as EmailTemplate;
  const data = emailTemplates[name].parse(payload);
  return (renderers[name] as (d: unknown, e: AppEnv) => RenderedEmail)(data, env);
}
