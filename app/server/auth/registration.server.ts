/**
 * Opening a client's account (docs/product.md, "Accounts and sessions"): with a password from the registration
 * form, or through a sign-in provider that vouched for the e-mail address. One atomic batch each.
 */
import { eq } from "drizzle-orm";
import { MESSAGES, type RegistrationInput } from "~/lib/schemas/auth";
import type { OAuthProvider } from "../../../db/enums";
import type { AccountContext } from "../accounts.server";
import type { Write } from "../db.server";
import { returning, schema, writeTogether } from "../db.server";
import { enqueueEmail } from "../mail/outbox.server";
import { hashPassword, scryptCostFor } from "../password.server";
import { BUDGETS, isOverBudget, recordAttempt } from "../rate-limit.server";
import { insertSession, newSession } from "../session.server";
import type { ClientMeta } from "./client-meta.server";
import { newToken } from "./links.server";
import { signInEventInsert } from "./sign-in.server";

const { users, profiles, authTokens } = schema;

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

/** A refusal says its status: 429 over a budget, 409 for an address already taken (with the field it is about). */
type Registered =
  | { ok: true; userId: string; setCookie: string; emailIds: number[] }
  | { ok: false; error: string; status: 409 | 429; field?: "email" };

const emailTaken = { ok: false, error: MESSAGES.emailTaken, status: 409, field: "email" } as const;

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
  if (ipLimited || emailLimited) return { ok: false, error: MESSAGES.tooManyRegistrations, status: 429 };

  const userId = crypto.randomUUID();
  const withPassword = "password" in credential;
  const passwordHash = withPassword ? await hashPassword(credential.password, scryptCostFor(env)) : "";
  const taken = await db.select({ id: users.id }).from(users).where(eq(users.email, input.email)).get();
  if (taken) return emailTaken;
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
      return emailTaken;
    }
    throw error;
  }
}
