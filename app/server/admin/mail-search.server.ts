/**
 * /admin/mail's search: one recipient's mail of one month, delivered or not, archived or not (docs/decisions/0075),
 * read off `email_outbox_recipient_idx`; and an archived mail's text, read from its archive object.
 */
import { and, desc, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import type { AppEnv } from "../env.server";
import { mailBody, readArchiveObject } from "../mail/archive-read.server";
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
  objectsUnreadable:
    "Some of this month's archive objects are missing or do not match their checksums: their mails are not listed.",
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
  // A month of this century: two-digit years would be read as the 1900s by `Date.UTC`, and no mail is older.
  if (!/^20\d{2}-(0[1-9]|1[0-2])$/.test(month)) return { error: MAIL_SEARCH_MESSAGES.month };
  return { search: { to, month } };
}

const monthRange = (month: string) => {
  const [year, m] = month.split("-").map(Number) as [number, number];
  return { from: Date.UTC(year, m - 1, 1), to: Date.UTC(year, m, 1) };
};

export interface FoundMail {
  id: number;
  template: string;
  toAddress: string;
  status: string;
  createdAt: number;
  sentAt: number | null;
  providerId: string | null;
  archived: boolean;
  /** The archive object holding the mail's body, when archived. */
  archiveId: number | null;
}

const newestFirst = (a: FoundMail, b: FoundMail) => b.createdAt - a.createdAt || b.id - a.id;

/** One recipient's mail of one month from D1: the rows still here, whatever became of their bodies. */
function mailInD1(db: Db, search: MailSearch) {
  const { from, to } = monthRange(search.month);
  const t = emailOutbox;
  return db
    .select({
      id: t.id,
      template: t.template,
      toAddress: t.toAddress,
      status: t.status,
      createdAt: t.createdAt,
      sentAt: t.sentAt,
      providerId: t.providerId,
      archiveId: t.archiveId,
    })
    .from(t)
    .where(and(eq(t.toAddress, search.to), gte(t.createdAt, from), lt(t.createdAt, to)))
    .orderBy(desc(t.createdAt), desc(t.id))
    .limit(MAIL_SEARCH_LIMIT + 1);
}

/**
 * One recipient's mail of one month whose rows left D1 (13 months on): the objects listing the recipient that
 * month, newest first, each read and checked, until a page is full. Whether an object could be read is said.
 */
async function mailLeftD1(db: Db, bucket: R2Bucket, search: MailSearch) {
  const objects = await db.all<{ id: number; objectKey: string; sha256: string; bytes: number }>(
    sql`SELECT a.id, a.object_key AS objectKey, a.sha256, a.bytes
        FROM mail_archive_recipients r JOIN mail_archives a ON a.id = r.archive_id
        WHERE r.to_address = ${search.to} AND r.month = ${search.month} AND a.rows_left_at IS NOT NULL
        ORDER BY a.id DESC`,
  );
  // By id: two archive runs at once may have written objects that overlap, each holding a copy of the same mail.
  const mails = new Map<number, FoundMail>();
  let unreadable = false;
  for (const object of objects) {
    if (mails.size > MAIL_SEARCH_LIMIT) break;
    const read = await readArchiveObject(bucket, object);
    if (!read.ok) {
      unreadable = true;
      continue;
    }
    for (const mail of read.rows)
      if (mail.toAddress === search.to && !mails.has(mail.id))
        mails.set(mail.id, {
          id: mail.id,
          template: mail.template,
          toAddress: mail.toAddress,
          status: mail.status,
          createdAt: mail.createdAt,
          sentAt: mail.sentAt,
          providerId: mail.providerId,
          archived: true,
          archiveId: object.id,
        });
  }
  return { mails: [...mails.values()], unreadable };
}

/**
 * One recipient's mail of one month, newest first, delivered or not, archived or not: the rows in D1, and those
 * that left it for their archive objects.
 */
export async function searchMail(db: Db, bucket: R2Bucket, search: MailSearch) {
  const [inD1, leftD1] = await Promise.all([mailInD1(db, search), mailLeftD1(db, bucket, search)]);
  const here = new Set(inD1.map((row) => row.id));
  const rows = [
    ...inD1.map((row) => ({ ...row, archived: row.archiveId !== null })),
    ...leftD1.mails.filter((mail) => !here.has(mail.id)),
  ].sort(newestFirst);
  return {
    mails: rows.slice(0, MAIL_SEARCH_LIMIT),
    /** What the page says when the month holds more than it shows, or some of it could not be read. */
    more: rows.length > MAIL_SEARCH_LIMIT ? MAIL_SEARCH_MESSAGES.tooMany : null,
    unreadable: leftD1.unreadable ? MAIL_SEARCH_MESSAGES.objectsUnreadable : null,
  };
}

export type OpenedMail = { id: number; subject: string; text: string } | { id: number; problem: string };

/**
 * An archived mail's subject and text, rendered from the archive object. Only archived mails: a recent mail's
 * links (a password reset, a confirmation) may still work, and the back office has no business following them.
 */
export async function openArchivedMail(
  db: Db,
  bucket: R2Bucket,
  env: AppEnv,
  mail: Pick<FoundMail, "id" | "archiveId">,
): Promise<OpenedMail> {
  const { id } = mail;
  const body = await mailBody(db, bucket, id, mail.archiveId);
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
