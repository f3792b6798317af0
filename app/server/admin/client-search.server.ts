/**
 * The back office's client search (User Management's search, the Client filter of /admin/transactions): the
 * clients whose first and last name or e-mail holds the text, in any case, as a sub-select of user ids. Three
 * characters or more are looked up in the trigram index `client_search` (migration 0034, kept by triggers on
 * profiles and users), so a search reads the matching clients rather than every client. A trigram index cannot
 * serve one or two characters: those match the start of the e-mail (users_email_unique) or of the name the list
 * shows (profiles_role_name_idx), two index ranges.
 */
import { type SQL, sql } from "drizzle-orm";
import { profileNameKey } from "../../../db/schema";

/** The shortest text the trigram index can look up: one trigram. */
export const SUBSTRING_SEARCH_MIN = 3;

/** Above every character, so that `[prefix, prefix + TOP)` is the range of texts starting with the prefix. */
const TOP = "\u{10FFFF}";

/** The text as one FTS5 phrase: every character literal, a double quote doubled. */
const phraseOf = (text: string) => `"${text.replaceAll('"', '""')}"`;

/** The ids of the users the text names (a sub-select, for `IN (…)`); the text is trimmed and not empty. */
export function clientSearchIds(text: string): SQL {
  const term = text.toLowerCase();
  if ([...term].length >= SUBSTRING_SEARCH_MIN) {
    return sql`SELECT profiles.user_id FROM client_search JOIN profiles ON profiles.id = client_search.rowid
      WHERE client_search MATCH ${phraseOf(term)}`;
  }
  const nameKey = sql.raw(profileNameKey());
  return sql`SELECT id FROM users WHERE email >= ${term} AND email < ${term + TOP}
    UNION ALL SELECT user_id FROM profiles WHERE role = 'user' AND ${nameKey} >= ${term} AND ${nameKey} < ${term + TOP}`;
}
