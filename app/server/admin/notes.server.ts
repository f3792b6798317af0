/**
 * Client notes and flags (docs/product.md, "Back-office roles", "Client notes"): the back office's append-only notes
 * on a client, what the client page reads of them, the one command that writes one, and the purge of notes kept
 * past a deletion. Nothing here is ever read for the client's own pages, mails, CSVs or feed.
 */

import { and, desc, eq, isNull, lt, type SQL, sql } from "drizzle-orm";
import { type ClientFlag, flagsOf } from "~/lib/client-flags";
import { may, PERMISSION_MESSAGES } from "~/lib/permissions";
import { parseRowId } from "~/lib/row-id";
import { ADMIN_MESSAGES } from "~/lib/schemas/admin";
import { NOTE_MESSAGES, type ParsedNote, parseNoteForm } from "~/lib/schemas/notes";
import type { BackOfficeRole } from "../../../db/enums";
import { type Actor, auditInsert } from "../audit.server";
import { afterCommit, type CommandContext, type FormOutcome } from "../commands.server";
import type { Db } from "../db.server";
import { returning, schema, writeTogether } from "../db.server";
import type { AppEnv } from "../env.server";
import { redirectWithToast } from "../toast.server";

/** The client page shows this many notes at a time, newest first; older ones a page further. */
export const NOTES_SHOWN = 50;

/** The `notesBefore` of a client page's URL: show the notes older than this one. */
export function notesBeforeOf(url: URL): number | undefined {
  return parseRowId(url.searchParams.get("notesBefore")) ?? undefined;
}

/** The scheduler's name in the audit log. */
const CRON: Actor = { id: "cron" };

const { clientNotes, clientFlags, users } = schema;

/**
 * The client's live notes (a deleted client's are kept, not shown), newest first from `before` (exclusive), each
 * with its author, the note it corrects (and that one's time) and whether a later note corrects it. One more than a
 * page, to tell whether older ones remain (`notesPage`).
 */
export function clientNotesQuery(db: Db, userId: string, before?: number) {
  return db
    .select({
      id: clientNotes.id,
      body: clientNotes.body,
      correctsId: clientNotes.correctsId,
      correctsAt: sql<number | null>`(SELECT c.created_at FROM client_notes c WHERE c.id = ${clientNotes.correctsId})`,
      corrected: sql<number>`EXISTS (SELECT 1 FROM client_notes k WHERE k.corrects_id = ${clientNotes.id})`,
      flagsAdded: clientNotes.flagsAdded,
      flagsRemoved: clientNotes.flagsRemoved,
      createdAt: clientNotes.createdAt,
      authorEmail: users.email,
    })
    .from(clientNotes)
    .leftJoin(users, eq(users.id, clientNotes.authorId))
    .where(
      and(
        eq(clientNotes.userId, userId),
        isNull(clientNotes.retainUntil),
        before === undefined ? undefined : lt(clientNotes.id, before),
      ),
    )
    .orderBy(desc(clientNotes.id))
    .limit(NOTES_SHOWN + 1);
}

/** One page of notes, and where the next (older) page starts when there is one. */
export function notesPage(rows: Awaited<ReturnType<typeof clientNotesQuery>>) {
  const shown = rows.slice(0, NOTES_SHOWN);
  return {
    notes: shown.map(toClientNote),
    olderNotesBefore: rows.length > NOTES_SHOWN ? (shown.at(-1)?.id ?? null) : null,
  };
}

/** A client's current flags, as the projection keeps them. */
export function clientFlagsQuery(db: Db, userId: string) {
  return db.select({ flag: clientFlags.flag }).from(clientFlags).where(eq(clientFlags.userId, userId));
}

export const toClientNote = (row: Awaited<ReturnType<typeof clientNotesQuery>>[number]) => ({
  id: row.id,
  body: row.body,
  // By e-mail, as the desk names a proposal's admin: two admins may share a name, never an address.
  author: row.authorEmail ?? "Unknown admin",
  createdAt: row.createdAt,
  corrects: row.correctsId === null ? null : { id: row.correctsId, createdAt: row.correctsAt },
  corrected: Boolean(row.corrected),
  added: flagsOf(row.flagsAdded),
  removed: flagsOf(row.flagsRemoved),
});

export type ClientNote = ReturnType<typeof toClientNote>;

const jsonList = (flags: readonly ClientFlag[]) => JSON.stringify(flags);

/**
 * The statements that write a note and its audit row, for a command's batch: the note is written only for a client
 * with a profile, a correction only of one of their live notes, and only when `onlyIf` holds (another command's
 * deciding statement, such as an alert's escalation); all checked by the statement itself (and again by the table's
 * trigger), never by a read before it. The audit row follows only the note it records.
 */
export function noteWrites({
  clientId,
  author,
  note,
  at,
  onlyIf = sql`1`,
}: {
  clientId: string;
  author: Required<Actor>;
  note: ParsedNote;
  at: number;
  onlyIf?: SQL;
}) {
  const correctionHolds =
    note.correctsId === null
      ? sql`1`
      : sql`EXISTS (SELECT 1 FROM client_notes WHERE id = ${note.correctsId} AND user_id = ${clientId}
                    AND retain_until IS NULL)`;
  return {
    written: returning<{ id: number }>(sql`
      INSERT INTO client_notes (user_id, author_id, body, corrects_id, flags_added, flags_removed, created_at)
      SELECT ${clientId}, ${author.id}, ${note.body}, ${note.correctsId}, ${jsonList(note.added)},
             ${jsonList(note.removed)}, ${at}
      WHERE EXISTS (SELECT 1 FROM profiles WHERE user_id = ${clientId} AND role = 'user') AND ${correctionHolds}
        AND ${onlyIf}
      RETURNING id`),
    noteAudit: auditInsert({
      actor: author,
      action: "client.note",
      target: `user:${clientId}`,
      detail: sql`'noteId', id, 'correctsId', corrects_id, 'flagsAdded', json(flags_added),
                  'flagsRemoved', json(flags_removed), 'length', length(body)`,
      from: sql`client_notes WHERE id = last_insert_rowid() AND user_id = ${clientId} AND changes() = 1`,
      at,
    }),
  };
}

/**
 * Writes a note on a client: only an admin whose roles allow `writeNotes` (403 otherwise, nothing written), about
 * a client with a profile, correcting only a live note of the same client. The note, its flag changes (the
 * projection's trigger) and its audit row are one batch; the desk's feed then tells open back-office pages.
 */
export async function addClientNote(
  context: CommandContext,
  admin: Required<Actor> & { roles: readonly BackOfficeRole[] },
  clientId: string,
  form: FormData,
  now = Date.now(),
): Promise<FormOutcome> {
  if (!may(admin.roles, "writeNotes")) return { ok: false, error: PERMISSION_MESSAGES.forbidden, status: 403 };
  const note = parseNoteForm(form);
  if (!note.ok) return { ok: false, error: note.error, status: 400, ...(note.field ? { field: note.field } : {}) };
  const { written } = await writeTogether(context.db, noteWrites({ clientId, author: admin, note, at: now }));
  if (written.length === 0) {
    const client = await context.db.get<{ n: number }>(
      sql`SELECT count(*) AS n FROM profiles WHERE user_id = ${clientId} AND role = 'user'`,
    );
    if (!client?.n) return { ok: false, error: ADMIN_MESSAGES.userNotFound, status: 404 };
    return { ok: false, error: NOTE_MESSAGES.unknownCorrection, status: 400 };
  }
  afterCommit(context, { deskEvents: [{ type: "client.notes.changed", userId: clientId }] });
  return { ok: true, message: NOTE_MESSAGES.added };
}

/**
 * A saved correction leaves correction mode (`?correct=` on the page's own address, `pageUrl`: the request's is
 * the action's ".data" one): a redirect to the page without it, with the outcome's toast. Null for anything else,
 * which the page answers as usual.
 */
export function afterCorrection(env: AppEnv, outcome: FormOutcome, pageUrl: string | URL): Promise<Response> | null {
  const page = new URL(pageUrl);
  if (!outcome.ok || !page.searchParams.has("correct")) return null;
  page.searchParams.delete("correct");
  return redirectWithToast(env, `${page.pathname}${page.search}`, { type: "success", description: outcome.message });
}

/**
 * The end of kept notes: a deleted client's notes are kept until their `retain_until` (the verification evidence's
 * rule), then deleted here, one audit row per client.
 */
export async function purgeExpiredNotes(db: Db, now = Date.now()): Promise<void> {
  const expired = sql`client_notes WHERE retain_until IS NOT NULL AND retain_until <= ${now}`;
  await writeTogether(db, {
    audit: auditInsert({
      actor: CRON,
      action: "client.notes_purge",
      target: sql`'user:' || user_id`,
      detail: sql`'purged', count(*), 'retainUntil', max(retain_until)`,
      from: sql`${expired} GROUP BY user_id`,
      at: now,
    }),
    // A deletion retains all of a client's live notes at once, so a correction and the note it corrects go together.
    notes: sql`DELETE FROM ${expired}`,
  });
}
