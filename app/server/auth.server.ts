import { and, eq, gt, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { MESSAGES, type RegistrationInput } from "~/lib/schemas/auth";
import type { OAuthProvider } from "../../db/enums";
import type { ClientMeta } from "./auth/client-meta.server";
import { checkCurrentPassword } from "./auth/current-password.server";
import { securityNotice, securityNoticeIf } from "./auth/security-notice.server";
import { type SignedInUser, signedInUserColumns, signInEventInsert } from "./auth/sign-in.server";
import type { Result } from "./commands.server";
import { randomToken, sha256Hex } from "./crypto.server";
import type { Db, Write } from "./db.server";
import { returning, schema, writeTogether } from "./db.server";
import type { AppEnv } from "./env.server";
import { enqueueEmail } from "./mail/outbox.server";
import { hashPassword, scryptCostFor, verifyPassword } from "./password.server";
import { BUDGETS, clearAttempts, countAttempts, isOverBudget, recordAttempt } from "./rate-limit.server";
import { endSessionsOf, insertSession, newSession, type SessionUser } from "./session.server";

/**
 * Accounts: registration, sign-in, password reset, e-mail confirmation, profile and password changes.
 * Each change that touches several tables is one atomic batch.
 */
const { users, profiles, authTokens } = schema;

export const RESET_TOKEN_TTL_MS = 30 * 60 * 1000;
export const CONFIRM_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;

interface AccountContext {
  db: Db;
  env: AppEnv;
}

/** A single-use link's token (only its hash is stored) and its row, valid for its purpose's time. */
export function newToken(purpose: "reset" | "confirm", userId: string, now: number) {
  const token = randomToken(32);
  return sha256Hex(token).then((id) => ({
    token,
    row: {
      id,
      userId,
      purpose,
      createdAt: now,
      expiresAt: now + (purpose === "reset" ? RESET_TOKEN_TTL_MS : CONFIRM_TOKEN_TTL_MS),
    },
  }));
}

/** What a new client gives besides a password: the registration form's fields, or the profile completed after a provider's sign-in. */
type NewClient = Pick<
  RegistrationInput,
  "email" | "firstName" | "lastName" | "phoneNumber" | "username" | "country" | "referralId"
>;

interface NewClientOptions {
  ip?: string;
  meta?: ClientMeta;
  deviceHash?: string | null;
  now?: number;
}

/** The provider a sign-up came through, and its writes for the new account's batch (given the new user's id). */
type ProviderCredential = {
  method: OAuthProvider;
  alsoWrite: (userId: string) => Record<string, Write<unknown> | undefined>;
};

type Registered = Result<{ userId: string; setCookie: string; emailIds: number[] }>;

/**
 * A new client: login account (role user), profile (balance 0, active), confirmation token, welcome mail
 * and the first session, all in one batch. Last login equals creation, which is how the dashboard knows
 * it is the first visit.
 *
 * Registrations are budgeted per address and per e-mail (each one mails that e-mail), and the password is
 * hashed before the e-mail is looked up, so a taken address costs as long to answer as a new one and the
 * answer's timing does not tell who has an account.
 */
export function registerClient(
  context: AccountContext,
  input: RegistrationInput,
  origin: string,
  options: NewClientOptions = {},
): Promise<Registered> {
  return openClientAccount(context, input, { password: input.password, origin }, options);
}

/**
 * A new client whose e-mail address a sign-in provider vouched for (docs/product.md, "Sign-in providers"): as
 * above, but with no password (an empty hash, which no password matches), the e-mail confirmed already (so the
 * welcome mail carries no confirmation link), the sign-in recorded with the provider as its method, and the
 * provider's own writes (its link to the account, the spent pending sign-up) in the same batch.
 */
export function registerClientWithProvider(
  context: AccountContext,
  input: NewClient,
  provider: ProviderCredential,
  options: NewClientOptions = {},
): Promise<Registered> {
  return openClientAccount(context, input, provider, options);
}

async function openClientAccount(
  { db, env }: AccountContext,
  input: NewClient,
  credential: { password: string; origin: string } | ProviderCredential,
  { ip, meta = { userAgent: null, country: null, city: null }, deviceHash = null, now = Date.now() }: NewClientOptions,
): Promise<Registered> {
  const [ipLimited, emailLimited] = await Promise.all([
    ip ? isOverBudget(db, BUDGETS.registerPerIp, ip, now) : false,
    isOverBudget(db, BUDGETS.registerPerEmail, input.email, now),
  ]);
  await writeTogether(db, {
    address: ip ? recordAttempt(db, BUDGETS.registerPerIp, ip, now) : undefined,
    email: recordAttempt(db, BUDGETS.registerPerEmail, input.email, now),
  });
  if (ipLimited || emailLimited) return { ok: false, error: MESSAGES.tooManyRegistrations };

  const userId = crypto.randomUUID();
  const withPassword = "password" in credential;
  const passwordHash = withPassword ? await hashPassword(credential.password, scryptCostFor(env)) : "";
  const taken = await db.select({ id: users.id }).from(users).where(eq(users.email, input.email)).get();
  if (taken) return { ok: false, error: MESSAGES.emailTaken };
  const confirm = withPassword ? await newToken("confirm", userId, now) : null;
  const session = await newSession(env, userId, now, { meta });
  try {
    const written = await writeTogether(db, {
      user: db.insert(users).values({
        id: userId,
        email: input.email,
        passwordHash,
        role: "user",
        createdAt: now,
        lastLoginAt: now,
        emailConfirmedAt: withPassword ? null : now,
      }),
      profile: db.insert(profiles).values({
        userId,
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        phoneNumber: input.phoneNumber,
        username: input.username,
        country: input.country,
        referralId: input.referralId || null,
        balanceCents: 0,
        status: "active",
        role: "user",
        createdAt: now,
        updatedAt: now,
      }),
      confirmToken: confirm ? db.insert(authTokens).values(confirm.row) : undefined,
      welcome: returning<{ id: number }>(
        enqueueEmail(db, {
          to: input.email,
          template: "welcome",
          data: {
            name: input.firstName,
            confirmUrl:
              confirm && withPassword ? `${credential.origin}/confirm-email?token=${confirm.token}` : undefined,
          },
        }),
      ),
      session: insertSession(db, session.row),
      // The browser the account began in is a known one: signing in there later sends no new-browser notice.
      event: signInEventInsert(
        { db },
        { userId, result: "success", method: withPassword ? "register" : credential.method, meta, deviceHash, now },
      ),
      ...(withPassword ? {} : credential.alsoWrite(userId)),
    });
    const welcome = written.welcome as Array<{ id: number }>;
    return { ok: true, userId, setCookie: session.setCookie, emailIds: welcome.map((row) => row.id) };
  } catch (error) {
    // Two registrations of one address at once: the unique index decides, the loser gets the same message.
    if (String((error as { cause?: unknown }).cause ?? error).includes("UNIQUE constraint failed: users.email")) {
      return { ok: false, error: MESSAGES.emailTaken };
    }
    throw error;
  }
}

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
    .select({ ...signedInUserColumns, passwordHash: users.passwordHash })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.email, credentials.email))
    .get();
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
  const { passwordHash: _hash, ...signedIn } = user;
  return { ok: true, user: signedIn };
}

/**
 * Forgot password. Whatever happens the caller shows the same text, so nobody can learn which addresses
 * have accounts. A mail goes out only for an existing account within its budget; earlier unused reset
 * links stop working.
 */
export async function requestPasswordReset(
  { db }: AccountContext,
  email: string,
  ip: string,
  origin: string,
  now = Date.now(),
): Promise<{ emailIds: number[] }> {
  const [accountLimited, ipLimited] = await Promise.all([
    isOverBudget(db, BUDGETS.resetPerAccount, email, now),
    isOverBudget(db, BUDGETS.resetPerIp, ip, now),
  ]);
  await writeTogether(db, {
    account: recordAttempt(db, BUDGETS.resetPerAccount, email, now),
    address: recordAttempt(db, BUDGETS.resetPerIp, ip, now),
  });
  if (accountLimited || ipLimited) return { emailIds: [] };

  const user = await db
    .select({ id: users.id, firstName: profiles.firstName })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.email, email))
    .get();
  if (!user) return { emailIds: [] };

  const reset = await newToken("reset", user.id, now);
  const { notice } = await writeTogether(db, {
    earlierLinks: db
      .update(authTokens)
      .set({ usedAt: now })
      .where(and(eq(authTokens.userId, user.id), eq(authTokens.purpose, "reset"), isNull(authTokens.usedAt))),
    token: db.insert(authTokens).values(reset.row),
    notice: returning<{ id: number }>(
      enqueueEmail(db, {
        to: email,
        template: "password_reset",
        data: { name: user.firstName ?? "", resetUrl: `${origin}/reset-password?token=${reset.token}` },
      }),
    ),
  });
  return { emailIds: notice.map((row) => row.id) };
}

/** The row of an unspent, unexpired token of this purpose (by its hash), as a condition. */
async function usableTokenCondition(purpose: "reset" | "confirm", token: string, now: number) {
  const id = await sha256Hex(token);
  const condition = and(
    eq(authTokens.id, id),
    eq(authTokens.purpose, purpose),
    isNull(authTokens.usedAt),
    gt(authTokens.expiresAt, now),
  );
  return { id, condition };
}

/**
 * The same token, for the batch that spends it: the user it belongs to (a subquery) and the write that
 * spends it, which returns a row only for the first of two submissions of one link.
 */
async function usableToken(db: Db, purpose: "reset" | "confirm", token: string, now: number) {
  const { id, condition } = await usableTokenCondition(purpose, token, now);
  return {
    /** The token is still unspent and unexpired, as a condition on `auth_tokens`. */
    usable: condition,
    owner: db.select({ userId: authTokens.userId }).from(authTokens).where(condition),
    spend: returning<{ id: string }>(
      db
        .update(authTokens)
        .set({ usedAt: now })
        .where(and(eq(authTokens.id, id), condition))
        .returning({ id: authTokens.id }),
    ),
  };
}

export async function isResetTokenUsable(db: Db, token: string, now = Date.now()): Promise<boolean> {
  if (!token) return false;
  const { condition } = await usableTokenCondition("reset", token, now);
  return Boolean(await db.select({ id: authTokens.id }).from(authTokens).where(condition).get());
}

/**
 * Sets the new password, ends every session of the user, enqueues the password-changed notice and spends the
 * token, in one batch. The token is spent by the last statement and the notice is conditional on it being
 * unspent, so two submissions of one link change the password once and mail once. `meta` describes the
 * browser the reset came from (there is no session to take it from).
 */
export async function resetPassword(
  { db, env }: AccountContext,
  token: string,
  newPassword: string,
  { meta, now = Date.now() }: { meta: ClientMeta; now?: number },
): Promise<{ changed: false } | { changed: true; userId: string; emailIds: number[] }> {
  if (!token) return { changed: false };
  const { owner, spend, usable } = await usableToken(db, "reset", token, now);
  const person = await db
    .select({ id: users.id, email: users.email, firstName: profiles.firstName })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(inArray(users.id, owner))
    .get();
  if (!person) return { changed: false };
  const passwordHash = await hashPassword(newPassword, scryptCostFor(env));
  const { spent, notice } = await writeTogether(db, {
    password: db.update(users).set({ passwordHash }).where(inArray(users.id, owner)),
    signOut: endSessionsOf(db, sql`(${owner})`),
    notice: securityNoticeIf(
      { to: person.email, name: person.firstName ?? "", event: "password_changed", meta, at: now },
      sql`${authTokens} WHERE ${usable}`,
    ),
    spent: spend,
    // Any other unused reset link of the same user goes too.
    otherLinks: spendResetLinks(db, sql`(${owner})`, now),
  });
  if (spent.length !== 1) return { changed: false };
  return { changed: true, userId: person.id, emailIds: notice.map((row) => row.id) };
}

/** Spends every unused reset link of a user: after a password change or reset, none may change it again. */
function spendResetLinks(db: Db, userId: string | SQL, now: number) {
  return db
    .update(authTokens)
    .set({ usedAt: now })
    .where(and(eq(authTokens.userId, userId), eq(authTokens.purpose, "reset"), isNull(authTokens.usedAt)));
}

/** Marks the e-mail confirmed and spends the link; false for an unknown, used or expired link. */
export async function confirmEmail(db: Db, token: string, now = Date.now()): Promise<boolean> {
  if (!token) return false;
  const { owner, spend } = await usableToken(db, "confirm", token, now);
  const { spent } = await writeTogether(db, {
    confirmed: db
      .update(users)
      .set({ emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, ${now})` })
      .where(inArray(users.id, owner)),
    spent: spend,
  });
  return spent.length === 1;
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

/**
 * Changes the password after checking the current one; the user's other sessions end, this one stays, and the
 * password-changed notice is enqueued, in one batch. `effects` is for `afterCommit`: the notice to deliver and
 * the ended sessions whose sockets close. `meta` describes the browser the change came from.
 */
export async function changePassword(
  { db, env }: AccountContext,
  user: SessionUser,
  input: { currentPassword: string; newPassword: string },
  { meta, now = Date.now() }: { meta: ClientMeta; now?: number },
): Promise<Result<{ effects: { emailIds: number[]; endedSessions: Array<{ userId: string; sessionId: string }> } }>> {
  const account = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, user.id)).get();
  if (!account) return { ok: false, error: MESSAGES.currentPasswordWrong };
  const refused = await checkCurrentPassword(db, user.id, input.currentPassword, account.passwordHash, now);
  if (refused) return { ok: false, error: refused };
  const passwordHash = await hashPassword(input.newPassword, scryptCostFor(env));
  const { otherSessions, notice } = await writeTogether(db, {
    password: db.update(users).set({ passwordHash }).where(eq(users.id, user.id)),
    otherSessions: returning<{ id: string }>(
      endSessionsOf(db, user.id, user.sessionId).returning({ id: schema.sessions.id }),
    ),
    // A reset link asked for before the change must not set the password back.
    resetLinks: spendResetLinks(db, user.id, now),
    notice: returning<{ id: number }>(
      securityNotice(db, { to: user.email, name: user.firstName, event: "password_changed", meta, at: now }),
    ),
  });
  return {
    ok: true,
    effects: {
      emailIds: notice.map((row) => row.id),
      endedSessions: otherSessions.map((row) => ({ userId: user.id, sessionId: row.id })),
    },
  };
}
