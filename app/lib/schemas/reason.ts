/**
 * A reason typed into a back-office form: a rejection's (the client reads it), an entry's memo, a proposal's and
 * a proposal rejection's. One length for all, short enough for a mail and the audit log; one parser.
 */

export const REASON_MAX_LENGTH = 500;
export const REASON_TOO_LONG = `The reason can be at most ${REASON_MAX_LENGTH} characters.`;

/**
 * The trimmed reason ("" when blank): at most REASON_MAX_LENGTH characters, and not blank when `required` gives
 * the message saying why it is needed.
 */
export function parseReason(
  value: FormDataEntryValue | null,
  required: string | null = null,
): { ok: true; text: string } | { ok: false; error: string } {
  const text = typeof value === "string" ? value.trim() : "";
  if (!text && required) return { ok: false, error: required };
  if (text.length > REASON_MAX_LENGTH) return { ok: false, error: REASON_TOO_LONG };
  return { ok: true, text };
}
