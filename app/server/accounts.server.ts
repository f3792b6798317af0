/**
 * Accounts as the rest of the code reads them: who a person is (`personColumns`, for every list and page that
 * names someone), a client's account page data, and the profile's own changes.
 */
import { eq, sql } from "drizzle-orm";
import type { Db } from "./db.server";
import { schema } from "./db.server";
import type { AppEnv } from "./env.server";

const { users, profiles } = schema;

/** What account commands need: the database and the configuration. */
export interface AccountContext {
  db: Db;
  env: AppEnv;
}

/** Who a person is, as lists and pages name them: the login's columns and the profile's name and status. */
export const personColumns = {
  id: users.id,
  email: users.email,
  createdAt: users.createdAt,
  lastLoginAt: users.lastLoginAt,
  firstName: profiles.firstName,
  lastName: profiles.lastName,
  /** null when the client's data was deleted (the login stays; a new profile comes with the next sign-in). */
  status: profiles.status,
};

export function accountQuery(db: Db, userId: string) {
  return db
    .select({
      ...personColumns,
      phoneNumber: profiles.phoneNumber,
      username: profiles.username,
      country: profiles.country,
      /** When the e-mail address was confirmed; null until then ('Send the link again' is offered). */
      emailConfirmedAt: users.emailConfirmedAt,
      /** When this profile began: at registration, or at the first sign-in after the client's data was deleted. */
      // Aliased: D1 returns a batch's rows keyed by column name, and users.created_at has the same name.
      profileCreatedAt: sql<number | null>`${profiles.createdAt}`.as("profile_created_at"),
      /** The profile's projections of the ledger, kept by every batch that changes approved rows. */
      balanceCents: profiles.balanceCents,
      totalTrades: profiles.totalTrades,
      winRate: profiles.winRate,
    })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
}

export async function getAccount(db: Db, userId: string) {
  const [account] = await accountQuery(db, userId);
  return account;
}

export async function updateProfile(
  db: Db,
  userId: string,
  input: { firstName: string; lastName: string; phoneNumber: string },
  now = Date.now(),
) {
  await db
    .update(profiles)
    .set({
      firstName: input.firstName,
      lastName: input.lastName,
      phoneNumber: input.phoneNumber || null,
      updatedAt: now,
    })
    .where(eq(profiles.userId, userId));
}
