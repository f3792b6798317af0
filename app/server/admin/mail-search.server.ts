/**
 * /admin/mail's search: one recipient's mail of one month, delivered or not, archived or not (docs/decisions/0075),
 * read off `email_outbox_recipient_idx`; and an archived mail's text, read from its archive object.
 */
import { and, desc, eq, gte, isNotNull, lt, sql } from "drizzle-orm";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import type { AppEnv } from "../env.server";
import { mailBody } from "../mail/archive-read.server";
import { renderStoredEmail } from "../mail/templates.server";

const { emailOutbox } = schema;

/** A month holds at most this many mails to one address on the page; a longer list says so. */
export const MAIL_SEARCH_LIMIT = 100;

export const MAIL_SEARCH_MESSAGES = {
  recipient: "Enter the recipient's e-mail address.",
  month: "Enter the month as YYYY-MM, e.g. 2026-10.",
  tooMany: `Only the newest ${MAIL_SEARCH_LIMIT} mails of the month are shown.`,
  notArchived: "This mail's text is shown once it is archived, 30 days after it was queued.",
  missing: "This mail's archive object is missing: its text cannot be shown.",
  checksum: "This mail's archive object does not match its recorded checksum: its text is not shown.",
  unreadable: "This archived mail no longer renders with today's template.",
} as const;

export interface MailSearch {
  to: string;
  month: string;
}

/** The search as typed (`?to=…&month=YYYY-MM`): null when nothing was asked, or the first problem. */
export function parseMailSearch(params: URLSearchParams): { search: MailSearch } | { error: string } | null {
  const to = (params.get("to") ?? "").trim().toLowerCase();
  const month = (params.get("month") ?? "").trim();
  if (to === "" && month === "") return null;
  if (!/^[^\s@]+@[^\s@]+$/.test(to) || to.length > 254) return { error: MAIL_SEARCH_MESSAGES.recipient };
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) return { error: MAIL_SEARCH_MESSAGES.month };
  return { search: { to, month } };
}

const monthRange = (month: string) => {
  const [year, m] = month.split("-").map(Number) as [number, number];
  return { from: Date.UTC(year, m - 1, 1), to: Date.UTC(year, m, 1) };
};

/** One recipient's mail of one month, newest first: the compact rows, whatever became of their bodies. */
export async function searchMail(db: Db, search: MailSearch) {
  const { from, to } = monthRange(search.month);
  const t = emailOutbox;
  const rows = await db
    .select({
      id: t.id,
      template: t.template,
      toAddress: t.toAddress,
      status: t.status,
      createdAt: t.createdAt,
      sentAt: t.sentAt,
      providerId: t.providerId,
      archived: sql<number>`${isNotNull(t.archiveId)}`,
    })
    .from(t)
    .where(and(eq(t.toAddress, search.to), gte(t.createdAt, from), lt(t.createdAt, to)))
    .orderBy(desc(t.createdAt), desc(t.id))
    .limit(MAIL_SEARCH_LIMIT + 1);
  return {
    mails: rows.slice(0, MAIL_SEARCH_LIMIT).map((row) => ({ ...row, archived: Boolean(row.archived) })),
    /** What the page says when the month holds more than it shows. */
    more: rows.length > MAIL_SEARCH_LIMIT ? MAIL_SEARCH_MESSAGES.tooMany : null,
  };
}

export type OpenedMail = { id: number; subject: string; text: string } | { id: number; problem: string };

/**
 * An archived mail's subject and text, rendered from the archive object. Only archived mails: a recent mail's
 * links (a password reset, a confirmation) may still work, and the back office has no business following them.
 */
export async function openArchivedMail(db: Db, bucket: R2Bucket, env: AppEnv, id: number): Promise<OpenedMail> {
  const body = await mailBody(db, bucket, id);
  if (!body.ok)
    return { id, problem: body.problem === "checksum" ? MAIL_SEARCH_MESSAGES.checksum : MAIL_SEARCH_MESSAGES.missing };
  if (!body.archived) return { id, problem: MAIL_SEARCH_MESSAGES.notArchived };
  try {
    const { subject, text } = renderStoredEmail(body.template, body.payload, env);
    return { id, subject, text };
  } catch {
    // Kept as it was sent; a template changed since may no longer read it.
    return { id, problem: MAIL_SEARCH_MESSAGES.unreadable };
  }
}
