import type { AppEnv } from "../env.server";

/**
 * How every notice looks: a greeting, paragraphs, label/value facts, an optional button and a footnote, in one
 * HTML document and as plain text. Every value that reaches HTML goes through `escapeHtml`.
 */
export interface RenderedEmail {
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
export const utcMinute = (at: number) => `${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC`;

export const greeting = (name: string) => (name ? `Hello ${name},` : "Hello,");

/** One label/value row of a mail. */
export type Fact = [label: string, value: string];

export interface Block {
  /** Paragraphs of plain text; escaped for HTML. */
  paragraphs: string[];
  /** Label/value rows; escaped. */
  facts?: Fact[];
  /** A call-to-action link. */
  action?: { label: string; url: string };
  footnote?: string;
}

export function compose(env: AppEnv, subject: string, block: Block): RenderedEmail {
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
export const referenceFact = (reference: string | undefined): Fact[] => (reference ? [["Reference", reference]] : []);
