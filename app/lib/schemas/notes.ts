/**
 * A client note as the back office writes it (docs/product.md, "Back-office roles", "Client notes"): its text, the
 * note it corrects, and the flags it sets and clears. Browser-safe; the command checks it again on the server.
 */

import { CLIENT_FLAGS, type ClientFlag } from "~/lib/client-flags";
import { FORM_MESSAGES, type FormRefusal, hasForbiddenCharacters, refuse } from "~/lib/forms";
import { parseRowId } from "~/lib/row-id";

export const NOTE_MAX_LENGTH = 2000;

export const NOTE_MESSAGES = {
  bodyRequired: "Please write the note.",
  forbiddenCharacters: FORM_MESSAGES.forbiddenCharacters("Note"),
  tooLong: FORM_MESSAGES.tooLong("Note", NOTE_MAX_LENGTH),
  unknownCorrection: "The note to correct is not one of this client's notes.",
  added: "Note added",
} as const;

/** The form's field for a flag's checkbox: checked means the admin wants the flag on. */
export const flagField = (flag: ClientFlag) => `flag_${flag}`;

export interface ParsedNote {
  body: string;
  correctsId: number | null;
  added: ClientFlag[];
  removed: ClientFlag[];
}

/**
 * The note, or the first refusal. The flags are a change, not a state: the checkboxes say which flags the admin
 * wants, `flagsShown` which ones the page showed as set, so a flag another admin changed meanwhile is left alone.
 */
export function parseNoteForm(form: FormData): ({ ok: true } & ParsedNote) | ({ ok: false } & FormRefusal) {
  const raw = form.get("body");
  // Browsers send a textarea's line breaks as CR LF: one line feed each, the only control character a note keeps.
  const body = typeof raw === "string" ? raw.replace(/\r\n?/g, "\n").trim() : "";
  if (hasForbiddenCharacters(body, { lineBreaks: true })) return refuse(NOTE_MESSAGES.forbiddenCharacters, "body");
  if (!body) return refuse(NOTE_MESSAGES.bodyRequired, "body");
  if (body.length > NOTE_MAX_LENGTH) return refuse(NOTE_MESSAGES.tooLong, "body");
  const corrects = String(form.get("correctsId") ?? "");
  const correctsId = corrects === "" ? null : parseRowId(corrects);
  // Anything but a note's id as the page wrote it names no note of this client.
  if (corrects !== "" && correctsId === null) return refuse(NOTE_MESSAGES.unknownCorrection);
  const shown = String(form.get("flagsShown") ?? "").split(",");
  const wanted = (flag: ClientFlag) => form.get(flagField(flag)) === "on";
  return {
    ok: true,
    body,
    correctsId,
    added: CLIENT_FLAGS.filter((flag) => wanted(flag) && !shown.includes(flag)),
    removed: CLIENT_FLAGS.filter((flag) => !wanted(flag) && shown.includes(flag)),
  };
}
