import { z } from "zod";
import { formatUsd } from "~/lib/format";
import { REFERENCE_PATTERN, transactionReference } from "~/lib/reference";
import type { AppEnv } from "../env.server";
import { cancelLink } from "../ledger/cancel-link.server";

/**
 * Every notice the product sends: its data (validated at enqueue time, stored in the outbox) and how it
 * renders. Rendering happens at delivery and in the local mailbox, from the stored data. Every value
 * that reaches HTML goes through `escapeHtml`.
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

const amount = z.number().positive().finite();
const address = z.string().trim().min(1).max(200);
const personName = z.string().trim().max(200);
/** Links in mails go to our own pages: http(s) only, never javascript: or data:. */
const link = z.url({ protocol: /^https?$/ });

export const emailTemplates = {
  welcome: z.object({ name: personName, confirmUrl: link.optional() }),
  password_reset: z.object({ name: personName, resetUrl: link }),
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
  security_notice: z.object({
    name: personName,
    event: z.enum(SECURITY_EVENTS),
    /** When it happened (ms since the epoch), shown in UTC. */
    at: z.number().int().positive(),
    browser: z.string().trim().max(120),
    location: z.string().trim().max(120),
    /** The OAuth provider, for a link or unlink. */
    provider: z.string().trim().max(40).optional(),
  }),
} as const;

export type EmailTemplate = keyof typeof emailTemplates;
export type EmailData<T extends EmailTemplate> = z.infer<(typeof emailTemplates)[T]>;

interface RenderedEmail {
  subject: string;
  /** The message body as an HTML fragment (the local mailbox shows it inline). */
  bodyHtml: string;
  /** The complete HTML document that is sent. */
  html: string;
  text: string;
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** A time in mails: to the minute, in UTC (the reader's zone is unknown). */
const utcMinute = (at: number) => `${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC`;

const greeting = (name: string) => (name ? `Hello ${name},` : "Hello,");

interface Block {
  /** Paragraphs of plain text; escaped for HTML. */
  paragraphs: string[];
  /** Label/value rows; escaped. */
  facts?: Array<[string, string]>;
  /** A call-to-action link. */
  action?: { label: string; url: string };
  footnote?: string;
}

function compose(env: AppEnv, subject: string, block: Block): RenderedEmail {
  const facts = block.facts ?? [];
  const bodyHtml = [
    ...block.paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`),
    facts.length
      ? `<table role="presentation" style="border-collapse:collapse;margin:0 0 16px">${facts
          .map(
            ([label, value]) =>
              `<tr><td style="padding:4px 16px 4px 0;color:#555">${escapeHtml(label)}</td><td style="padding:4px 0;font-weight:600;word-break:break-all">${escapeHtml(value)}</td></tr>`,
          )
          .join("")}</table>`
      : "",
    block.action
      ? `<p style="margin:0 0 16px"><a href="${escapeHtml(block.action.url)}" style="display:inline-block;background:#2563eb;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(block.action.label)}</a></p><p style="margin:0 0 16px;font-size:13px;color:#555">Or open this link: ${escapeHtml(block.action.url)}</p>`
      : "",
    block.footnote ? `<p style="margin:0 0 16px;font-size:13px;color:#555">${escapeHtml(block.footnote)}</p>` : "",
  ].join("");
  const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="margin:0;padding:24px;background:#f4f6fb;font-family:Arial,Helvetica,sans-serif;color:#111"><div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:24px"><p style="margin:0 0 24px;font-weight:700;font-size:18px">${escapeHtml(env.BRAND_NAME)}</p>${bodyHtml}<p style="margin:24px 0 0;font-size:12px;color:#777">${escapeHtml(env.BRAND_NAME)} · ${escapeHtml(env.SUPPORT_EMAIL)}</p></div></body></html>`;
  const text = [
    ...block.paragraphs,
    ...facts.map(([label, value]) => `${label}: ${value}`),
    ...(block.action ? [`${block.action.label}: ${block.action.url}`] : []),
    ...(block.footnote ? [block.footnote] : []),
    `— ${env.BRAND_NAME} (${env.SUPPORT_EMAIL})`,
  ].join("\n\n");
  return { subject, bodyHtml, html, text };
}

/** The 'Reference' line of a mail about one transaction, when the reference is known. */
const referenceFact = (reference: string | undefined): Array<[string, string]> =>
  reference ? [["Reference", reference]] : [];

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
  security_notice: (d, env) => {
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
  },
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
