import { Form, Link, useSearchParams } from "react-router";
import { FormErrors, SubmitButton, useFieldError } from "~/components/form";
import { Moment } from "~/components/moment";
import { CLIENT_FLAG_LABELS, CLIENT_FLAGS, type ClientFlag } from "~/lib/client-flags";
import { formatDateTimeUtc } from "~/lib/format";
import { type IntentReply, refusalFor } from "~/lib/intent-reply";
import { flagField, NOTE_MAX_LENGTH } from "~/lib/schemas/notes";
import { ClientFlagBadges } from "./client-flags";

interface NoteView {
  id: number;
  body: string;
  author: string;
  createdAt: number;
  corrects: { id: number; createdAt: number | null } | null;
  corrected: boolean;
  added: ClientFlag[];
  removed: ClientFlag[];
}

const flagWords = (flags: readonly ClientFlag[]) => flags.map((flag) => CLIENT_FLAG_LABELS[flag]).join(", ");

/**
 * The client page's Notes panel (docs/product.md, "Back-office roles", "Client notes"): the back office's notes on
 * this client, newest first, with who wrote them and when, the flags each set or cleared, and the corrections
 * between them; for an admin who may write notes, the form to add one (or to correct one: `?correct=<id>`).
 */
export function ClientNotes({
  notes,
  olderNotesBefore,
  flags,
  canWrite,
  reply,
}: {
  notes: NoteView[];
  /** Where the next page of older notes starts, when there are older ones. */
  olderNotesBefore: number | null;
  flags: ClientFlag[];
  canWrite: boolean;
  reply?: IntentReply;
}) {
  return (
    <article className="rounded-xl border border-border bg-surface p-5" aria-labelledby="client-notes-title">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="client-notes-title" className="text-lg font-semibold">
          Notes
        </h2>
        <ClientFlagBadges flags={flags} />
      </div>
      <p className="mt-1 text-sm text-ink-muted">For the back office only: the client never sees these.</p>
      {canWrite ? <NoteForm notes={notes} flags={flags} reply={reply} /> : null}
      {notes.length === 0 ? (
        <p className="mt-4 text-sm text-ink-muted">No notes yet.</p>
      ) : (
        <ol className="mt-4 divide-y divide-border">
          {notes.map((note) => (
            <NoteItem key={note.id} note={note} canWrite={canWrite} />
          ))}
        </ol>
      )}
      <NotesPages olderNotesBefore={olderNotesBefore} />
    </article>
  );
}

/** Older notes a page at a time, and the way back to the newest; the rest of the page's address is kept. */
function NotesPages({ olderNotesBefore }: { olderNotesBefore: number | null }) {
  const [params] = useSearchParams();
  const paging = params.has("notesBefore");
  if (olderNotesBefore === null && !paging) return null;
  const to = (before: number | null) => {
    const next = new URLSearchParams(params);
    next.delete("correct");
    if (before === null) next.delete("notesBefore");
    else next.set("notesBefore", String(before));
    const query = next.toString();
    return `${query ? `?${query}` : "?"}#client-notes-title`;
  };
  const link =
    "font-medium text-brand hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-brand/60";
  return (
    <nav aria-label="Notes pages" className="mt-3 flex flex-wrap gap-4 border-t border-border pt-3 text-sm">
      {paging ? (
        <Link to={to(null)} className={link}>
          Newest notes
        </Link>
      ) : null}
      {olderNotesBefore !== null ? (
        <Link to={to(olderNotesBefore)} className={link}>
          Older notes
        </Link>
      ) : null}
    </nav>
  );
}

function NoteItem({ note, canWrite }: { note: NoteView; canWrite: boolean }) {
  const [params] = useSearchParams();
  const correctHref = () => {
    const next = new URLSearchParams(params);
    next.set("correct", String(note.id));
    return `?${next.toString()}#add-note`;
  };
  return (
    <li id={`note-${note.id}`} className="py-3 text-sm">
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-ink-muted">
        <span className="font-medium text-ink">{note.author}</span>
        <Moment at={note.createdAt} />
        {note.corrected ? (
          <span className="rounded-full bg-surface-raised px-2 py-0.5 text-xs font-medium text-ink">Corrected</span>
        ) : null}
      </p>
      {note.corrects ? (
        <p className="mt-1">
          <a href={`#note-${note.corrects.id}`} className="text-brand hover:underline">
            {note.corrects.createdAt === null
              ? "Corrects an earlier note"
              : `Corrects note of ${formatDateTimeUtc(note.corrects.createdAt)}`}
          </a>
        </p>
      ) : null}
      <p className="mt-1 whitespace-pre-line break-words">{note.body}</p>
      {note.added.length > 0 || note.removed.length > 0 ? (
        <p className="mt-1 text-xs text-ink-muted">
          {[
            note.added.length > 0 ? `Set: ${flagWords(note.added)}` : null,
            note.removed.length > 0 ? `Cleared: ${flagWords(note.removed)}` : null,
          ]
            .filter(Boolean)
            .join(" · ")}
        </p>
      ) : null}
      {canWrite ? (
        <Link to={correctHref()} preventScrollReset className="mt-1 inline-block text-xs text-brand hover:underline">
          Correct this note
        </Link>
      ) : null}
    </li>
  );
}

function NoteForm({ notes, flags, reply }: { notes: NoteView[]; flags: ClientFlag[]; reply?: IntentReply }) {
  const [params] = useSearchParams();
  const correcting = notes.find((note) => String(note.id) === params.get("correct")) ?? null;
  const withoutCorrection = () => {
    const next = new URLSearchParams(params);
    next.delete("correct");
    const text = next.toString();
    return text ? `?${text}#add-note` : "?#add-note";
  };
  // A fresh form after each note written; a refused one keeps what was typed.
  const formKey = reply?.intent === "note" && reply.tone === "success" ? reply.at : "note";
  return (
    <FormErrors reply={refusalFor(reply, "note")}>
      <Form
        method="post"
        key={`${formKey}-${flags.join(",")}`}
        id="add-note"
        className="mt-4 space-y-3"
        preventScrollReset
      >
        <input type="hidden" name="flagsShown" value={flags.join(",")} />
        {correcting ? (
          <p className="flex flex-wrap items-center gap-2 text-sm">
            <input type="hidden" name="correctsId" value={correcting.id} />
            <span>{`Correcting the note of ${formatDateTimeUtc(correcting.createdAt)}`}</span>
            <Link to={withoutCorrection()} preventScrollReset className="text-brand hover:underline">
              Write a new note instead
            </Link>
          </p>
        ) : null}
        <NoteBody />
        <fieldset>
          <legend className="text-sm font-medium">Flags</legend>
          <p className="text-xs text-ink-muted">Checked flags are set on the client, unchecked ones cleared.</p>
          <div className="mt-1 flex flex-wrap gap-x-4 gap-y-2">
            {CLIENT_FLAGS.map((flag) => (
              <label key={flag} className="inline-flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  name={flagField(flag)}
                  defaultChecked={flags.includes(flag)}
                  className="h-4 w-4 rounded border-border"
                />
                {CLIENT_FLAG_LABELS[flag]}
              </label>
            ))}
          </div>
        </fieldset>
        <SubmitButton intent="note" pendingText="Saving...">
          {correcting ? "Add correction" : "Add note"}
        </SubmitButton>
      </Form>
    </FormErrors>
  );
}

function NoteBody() {
  const body = useFieldError("body", undefined, true);
  return (
    <div>
      <label htmlFor={body.id} className="block text-sm font-medium">
        Note
      </label>
      <textarea
        id={body.id}
        name="body"
        rows={3}
        maxLength={NOTE_MAX_LENGTH}
        required
        {...body.controlProps}
        className="mt-1 w-full rounded-md border border-border bg-canvas px-3 py-2 focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/40"
      />
      <p id={body.hintId} className="mt-1 text-xs text-ink-muted">
        {`At most ${NOTE_MAX_LENGTH} characters. Notes cannot be edited or deleted: to fix one, correct it.`}
      </p>
      {body.errorText}
    </div>
  );
}
