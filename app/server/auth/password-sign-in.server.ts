/**
 * The first step of a password sign-in, with its failure budgets and the security check (docs/product.md,
 * "Accounts and sessions"). The second step, where two-factor sign-in is on, is ./second-step.server.ts.
 */
import { eq } from "drizzle-orm";
import { MESSAGES } from "~/lib/schemas/auth";
import type { AccountContext } from "../accounts.server";
import { randomToken } from "../crypto.server";
import { schema, writeTogether } from "../db.server";
import type { AppEnv } from "../env.server";
import { hashPassword, scryptCostFor, verifyPassword } from "../password.server";
import { BUDGETS, clearAttempts, countAttempts, recordAttempt } from "../rate-limit.server";
import type { ClientMeta } from "./client-meta.server";
import { type SignedInUser, signedInUserColumns, signInEventInsert } from "./sign-in.server";

const { users, profiles } = schema;

const dummyHashes = new Map<string, Promise<string>>();
/** Verifying against a throwaway hash makes an unknown e-mail cost as much time as a wrong password. */
function hashForUnknownAccount(env: AppEnv): Promise<string> {
  let hash = dummyHashes.get(env.PASSWORD_HASH_COST);
  if (!hash) {
    hash = hashPassword(randomToken(16), scryptCostFor(env));
    dummyHashes.set(env.PASSWORD_HASH_COST, hash);
  }
  return hash;
}

/** A refused sign-in; `challenge` says whether the next attempt for this e-mail from here needs the security check. */
type SignInRefusal = { ok: false; error: string; challenge: boolean };

/**
 * The first step of a password sign-in, with the failure budgets checked before any hashing (docs/product.md, "Accounts and sessions"):
 * - an address over its budget is refused ('Too many sign-in attempts. Please try again later.');
 * - an account over its budget, or an address with repeated failures, must pass the security check
 *   (`challenge`, Cloudflare Turnstile) instead: an attacker's failures never lock the owner out. Without a
 *   passing check the password is not looked at.
 * Every refusal after the address check counts as a failure for the account and the address. Unknown e-mail
 * and wrong password get the same message. A user without a profile (deleted by an admin) gets a fresh one.
 */
export async function signIn(
  { db, env }: AccountContext,
  credentials: { email: string; password: string },
  {
    ip,
    challenge,
    meta,
    now = Date.now(),
  }: { ip: string; challenge: () => Promise<boolean>; meta: ClientMeta; now?: number },
): Promise<{ ok: true; user: SignedInUser } | SignInRefusal> {
  const [accountFailures, ipFailures] = await Promise.all([
    countAttempts(db, BUDGETS.signInPerAccount, credentials.email, now),
    countAttempts(db, BUDGETS.signInPerIp, ip, now),
  ]);
  if (ipFailures >= BUDGETS.signInPerIp.limit) return { ok: false, error: MESSAGES.tooManyAttempts, challenge: false };

  const needsCheck = (failures: { account: number; ip: number }) =>
    failures.account >= BUDGETS.signInPerAccount.limit || failures.ip >= BUDGETS.signInCheckPerIp.limit;
  const refuse = async (error: string) => {
    await writeTogether(db, {
      account: recordAttempt(db, BUDGETS.signInPerAccount, credentials.email, now),
      address: recordAttempt(db, BUDGETS.signInPerIp, ip, now),
    });
    return { ok: false, error, challenge: needsCheck({ account: accountFailures + 1, ip: ipFailures + 1 }) } as const;
  };
  if (needsCheck({ account: accountFailures, ip: ipFailures }) && !(await challenge())) {
    return refuse(MESSAGES.challengeRequired);
  }

  const user = await db
    .select({ ...signedInUserColumns, passwordHash: users.passwordHash, deactivatedAt: users.deactivatedAt })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.email, credentials.email))
    .get()
    // A deactivated admin is answered as an unknown account: nothing tells that the account exists.
    .then((row) => (row?.deactivatedAt == null ? row : undefined));
  // An account made through a provider has no password: it costs the same throwaway check as an unknown e-mail,
  // so the answer's timing does not tell that it exists.
  const valid = user?.passwordHash
    ? await verifyPassword(credentials.password, user.passwordHash)
    : await verifyPassword(credentials.password, await hashForUnknownAccount(env)).then(() => false);
  if (!user || !valid) {
    const refusal = await refuse(MESSAGES.invalidCredentials);
    if (user) {
      await signInEventInsert({ db }, { userId: user.id, result: "wrong_password", method: "password", meta, now });
    }
    return refusal;
  }

  await clearAttempts(db, BUDGETS.signInPerAccount, credentials.email).run();
  const { passwordHash: _hash, deactivatedAt: _deactivated, ...signedIn } = user;
  return { ok: true, user: signedIn };
}
