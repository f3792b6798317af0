/**
 * The back office's client search (User Management's search, the Client filter of /admin/transactions): the
 * clients whose first and last name or e-mail holds the text, in any case, as a sub-select of user ids. Three
 * characters or more are looked up in the trigram index `client_search` (migration 0034, kept by triggers on
 * profiles and users), so a search reads the matching clients rather than every client. A trigram index cannot
 * serve one or two characters: those match the start of the e-mail (users_email_unique) or of the name the list
 * shows (profiles_role_name_idx), two index ranges.
 *
 * A list reads a search one of two ways (`SearchRead`): "sorted", its matches read and sorted, when they are at
 * most SEARCH_SORTED_LIMIT; "walk", the list's own index walked in its order and each client checked against the
 * matches, when they are more, since a page of 51 then fills after a short walk.
 */
import { type SQL, sql } from "drizzle-orm";
import { profileNameKey } from "../../../db/schema";
import { type Db, schema } from "../db.server";

const { profiles, users } = schema;

/** The shortest text the trigram index can look up: one trigram. */
export const SUBSTRING_SEARCH_MIN = 3;

/** Above every character, so that `[prefix, prefix + TOP)` is the range of texts starting with the prefix. */
const TOP = "\u{10FFFF}";

/** The text as one FTS5 phrase: every character literal, a double quote doubled. */
const phraseOf = (text: string) => `"${text.replaceAll('"', '""')}"`;

/**
 * The clients the text names, as a condition on a list of users joined to their profiles. Sorted: the index's own
 * rowids (profiles.id), no look-up of each match's profile. Walked: each client met is tested with LIKE on the
 * row already read, as the search always did, since materialising thousands of matches costs more than the walk.
 */
export function clientSearchCondition(text: string, read: SearchRead): SQL {
  const term = text.toLowerCase();
  if (read === "walk") {
    const literal = term.replace(/[%_\\]/g, (c) => `\\${c}`);
    // One or two characters match the start, as the index ranges do.
    const pattern = [...term].length < SUBSTRING_SEARCH_MIN ? `${literal}%` : `%${literal}%`;
    return sql`(${users.email} LIKE ${pattern} ESCAPE '\\'
      OR lower(${profiles.firstName} || ' ' || ${profiles.lastName}) LIKE ${pattern} ESCAPE '\\')`;
  }
  if ([...term].length < SUBSTRING_SEARCH_MIN) return sql`${users.id} IN (${clientSearchIds(text)})`;
  return sql`${profiles.id} IN (SELECT rowid FROM client_search WHERE client_search MATCH ${phraseOf(term)})`;
}

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

/** Reading and sorting this many matches costs about what a walk to fill a page among them does at 100,000 clients. */
export const SEARCH_SORTED_LIMIT = 1_000;

export type SearchRead = "sorted" | "walk";

/** How a list reads this search: one count of the matches, at most SEARCH_SORTED_LIMIT + 1 read. */
export async function searchReadOf(db: Db, text: string): Promise<SearchRead> {
  const row = await db.get<{ n: number }>(
    sql`SELECT count(*) AS n FROM (${clientSearchIds(text)} LIMIT ${SEARCH_SORTED_LIMIT + 1})`,
  );
  return row.n <= SEARCH_SORTED_LIMIT ? "sorted" : "walk";
}
