import { env } from "cloudflare:workers";
import { createDb, schema } from "~/server/db.server";
import { readAppEnv } from "~/server/env.server";
import { hashPassword } from "~/server/password.server";
import { createSession } from "~/server/session.server";

/** Cheap scrypt settings for fixtures: the format is the production one, only the cost differs. */
export const TEST_SCRYPT_COST = { N: 2 ** 10, r: 8, p: 1 };

export const db = createDb(env.DB);
export const appEnv = readAppEnv(env);
export const ORIGIN = "http://localhost";

let counter = 0;

export async function createUser(options: { role?: "user" | "admin"; firstName?: string; email?: string } = {}) {
  counter++;
  const id = crypto.randomUUID();
  const email = options.email ?? `person${counter}-${id.slice(0, 8)}@example.com`;
  await db.batch([
    db.insert(schema.users).values({
      id,
      email,
      passwordHash: await hashPassword("correct horse battery", TEST_SCRYPT_COST),
      role: options.role ?? "user",
    }),
    db.insert(schema.profiles).values({
      userId: id,
      email,
      firstName: options.firstName ?? "Pat",
      lastName: "Tester",
      role: options.role ?? "user",
    }),
  ]);
  return { id, email };
}

/** A signed-in browser: the Cookie header for a fresh session of this user. */
export async function sessionCookieFor(userId: string, now = Date.now()) {
  const { setCookie } = await createSession(db, appEnv, userId, now);
  return setCookie.split(";")[0] ?? "";
}

export async function insertTransaction(
  userId: string,
  values: Partial<typeof schema.transactions.$inferInsert> = {},
): Promise<number> {
  const row = await db
    .insert(schema.transactions)
    .values({ userId, transactionType: "deposit", amountCents: 10_000, status: "pending", ...values })
    .returning({ id: schema.transactions.id })
    .get();
  return row.id;
}

/** The database's own message for a refused statement (drizzle wraps it as the error's cause). */
export async function dbRefusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? cause.message : String(error);
  }
  throw new Error("expected the database to refuse the statement, but it succeeded");
}
