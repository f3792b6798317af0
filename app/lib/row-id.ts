/** A row id as our pages write it: digits, no sign, no leading zero, no more than a safe integer holds. */
const ROW_ID = /^[1-9]\d{0,15}$/;

/**
 * The one reader of a row id that a form or a URL carries (an alert, a request, a proposal, a note, a mail, a
 * notification). Only the id exactly as the page wrote it names the row: `Number()` would also read "0x10", "1e1",
 * " 16 " and "16.0" as row 16, so a tampered form could name a row the page never showed. Anything else is null,
 * which every caller answers as "not found".
 */
export function parseRowId(value: unknown): number | null {
  if (typeof value !== "string" || !ROW_ID.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : null;
}
