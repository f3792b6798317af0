import { eq } from "drizzle-orm";
import { MESSAGES } from "~/lib/schemas/auth";
import { type Db, schema } from "../db.server";
import { verifyPassword } from "../password.server";
import { BUDGETS, takeBudgetPlace } from "../rate-limit.server";

/**
 * The current password, asked again by a signed-in account's forms (password change, turning two-factor on or
 * off, new recovery codes). The session is already proof of something, but not of the password: a stolen one must
 * not be a way to guess it. Wrong answers count against the account (10 in 15 minutes, however many are sent at
 * once); over that, the password is not even looked at. Null when it is right, else the refusal: its message, the field it is about, and its
 * status (429 once the budget is spent, 400 for a wrong password).
 */
export type PasswordRefusal = { error: string; field: "currentPassword"; status: 400 | 429 };

export async function checkCurrentPassword(
  db: Db,
  userId: string,
  typed: string,
  storedHash: string,
  now = Date.now(),
): Promise<PasswordRefusal | null> {
  // Each try takes a place in the budget first, in one conditional statement: tries sent at once cannot all be
  // looked at. A right password gives its place back.
  const place = await takeBudgetPlace(db, BUDGETS.currentPasswordPerAccount, userId, now);
  if (place === null) return { error: MESSAGES.tooManyWrongPasswords, field: "currentPassword", status: 429 };
  if (await verifyPassword(typed, storedHash)) {
    await db.delete(schema.authFailures).where(eq(schema.authFailures.id, place));
    return null;
  }
  return { error: MESSAGES.currentPasswordWrong, field: "currentPassword", status: 400 };
}
