import { createCookie } from "@remix-run/cloudflare";
import { and, eq, gt, lte, sql } from "drizzle-orm";
import type { CompleteProfileInput } from "~/lib/schemas/auth";
import { MESSAGES } from "~/lib/schemas/auth";
import { OAUTH_MESSAGES, type OAuthProvider, PROVIDER_NAMES } from "~/lib/schemas/oauth";
import type { AppContext } from "~/load-context";
import { registerClientWithProvider } from "../auth.server";
import type { Outcome, Result } from "../commands.server";
import { afterCommit } from "../commands.server";
import { randomToken, sha256Hex } from "../crypto.server";
import { type Db, returning, schema, writeTogether } from "../db.server";
import { type AppEnv, isProduction } from "../env.server";
import { clientIp } from "../rate-limit.server";
import type { SessionUser } from "../session.server";
import { clientMeta } from "./client-meta.server";
import type { ProviderIdentity } from "./oauth.server";
import { configuredProviders } from "./oauth.server";
import { securityNotice, securityNoticeWhere } from "./security-notice.server";
import { deviceOf } from "./sign-in.server";

/**
 * Accounts and the identities providers vouch for (docs/product.md, "Sign-in providers"): who an identity is
 * linked to, the identity held while the person completes their profile or proves they own the account with its
 * e-mail (`oauth_pending`, 15 minutes, the browser holding the token and the table its hash), the sign-up that
 * creates the account, the link that needs the owner signed in, and the unlink that never leaves an account
 * without a way in. Admins are never linked: they sign in with a password and a code only.
 */
const { oauthAccounts, oauthPending, users, profiles } = schema;

export const OAUTH_PENDING_TTL_MS = 15 * 60 * 1000;

type OAuthContext = Pick<AppContext, "db" | "env" | "ctx" | "cf" | "bindings">;

/** The short-lived cookies of the flow: HttpOnly, SameSite=Lax, `__Host-` and Secure in production. */
export function oauthCookie(env: AppEnv, name: string, maxAgeSeconds: number) {
  return createCookie(isProduction(env) ? `__Host-${name}` : name, {
    httpOnly: true,
    sameSite: "lax",
    secure: isProduction(env),
    path: "/",
    maxAge: maxAgeSeconds,
  });
}

const pendingCookie = (env: AppEnv) => oauthCookie(env, "oauth-pending", OAUTH_PENDING_TTL_MS / 1000);
export const clearPendingCookie = (env: AppEnv) => pendingCookie(env).serialize("", { maxAge: 0 });

/** The stored id of this browser's pending identity (the hash of its cookie's token), if it has one. */
async function pendingId(request: Request, env: AppEnv): Promise<string | null> {
  const token: unknown = await pendingCookie(env).parse(request.headers.get("Cookie"));
  return typeof token === "string" && /^[\w-]{43}$/.test(token) ? sha256Hex(token) : null;
}

/** Who an identity is linked to, if anyone. */
export function linkedUser(db: Db, provider: OAuthProvider, providerUserId: string) {
  return db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      firstName: sql<string>`coalesce(${profiles.firstName}, '')`,
    })
    .from(oauthAccounts)
    .innerJoin(users, eq(users.id, oauthAccounts.userId))
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(and(eq(oauthAccounts.provider, provider), eq(oauthAccounts.providerUserId, providerUserId)))
    .get();
}

export function accountWithEmail(db: Db, email: string) {
  return db.select({ id: users.id, role: users.role }).from(users).where(eq(users.email, email)).get();
}

/**
 * Holds an identity for its next step (completing the profile, or the owner's proof); returns the Set-Cookie
 * that gives this browser its token. This browser's earlier pending identity goes, and so do expired ones.
 */
export async function holdIdentity(
  context: Pick<OAuthContext, "db" | "env">,
  request: Request,
  identity: ProviderIdentity,
  purpose: "register" | "link",
  now = Date.now(),
): Promise<string> {
  const token = randomToken(32);
  const earlier = await pendingId(request, context.env);
  await writeTogether(context.db, {
    expired: context.db.delete(oauthPending).where(lte(oauthPending.expiresAt, now)),
    earlier: earlier ? context.db.delete(oauthPending).where(eq(oauthPending.id, earlier)) : undefined,
    pending: context.db.insert(oauthPending).values({
      id: await sha256Hex(token),
      purpose,
      provider: identity.provider,
      providerUserId: identity.providerUserId,
      email: identity.email,
      firstName: identity.firstName,
      lastName: identity.lastName,
      createdAt: now,
      expiresAt: now + OAUTH_PENDING_TTL_MS,
    }),
  });
  return pendingCookie(context.env).serialize(token);
}

/** This browser's unexpired pending identity of that purpose. */
async function pendingOf(
  context: Pick<OAuthContext, "db" | "env">,
  request: Request,
  purpose: "register" | "link",
  now: number,
) {
  const id = await pendingId(request, context.env);
  if (!id) return null;
  return context.db
    .select()
    .from(oauthPending)
    .where(and(eq(oauthPending.id, id), eq(oauthPending.purpose, purpose), gt(oauthPending.expiresAt, now)))
    .get();
}

/** The sign-up waiting for "Complete your profile": what the provider gave. */
export async function pendingSignUp(context: Pick<OAuthContext, "db" | "env">, request: Request, now = Date.now()) {
  const row = await pendingOf(context, request, "register", now);
  return row
    ? {
        provider: row.provider,
        providerName: PROVIDER_NAMES[row.provider],
        email: row.email,
        firstName: row.firstName,
        lastName: row.lastName,
      }
    : null;
}

/**
 * Creates the account of a completed sign-up: the client with no password and the e-mail confirmed, the link to
 * the provider's identity, the welcome mail, the first session and its sign-in record (the provider as method),
 * the pending sign-up spent; one batch. A second submission finds the sign-up spent, or loses on the e-mail's
 * unique index. Returns the response that signs the new client in, or the refusal.
 */
export async function completeSignUp(
  context: OAuthContext,
  request: Request,
  input: CompleteProfileInput,
  now = Date.now(),
): Promise<Outcome<{ response: Response }>> {
  const pending = await pendingOf(context, request, "register", now);
  if (!pending) return { ok: false, error: OAUTH_MESSAGES.profileExpired, status: 410 };
  const device = await deviceOf(request, context.env);
  const result = await registerClientWithProvider(
    context,
    { ...input, email: pending.email },
    {
      method: pending.provider,
      alsoWrite: (userId) => ({
        link: context.db.insert(oauthAccounts).values({
          provider: pending.provider,
          providerUserId: pending.providerUserId,
          userId,
          email: pending.email,
          createdAt: now,
        }),
        spent: context.db.delete(oauthPending).where(eq(oauthPending.id, pending.id)),
      }),
    },
    { ip: clientIp(request), meta: clientMeta(request, context.cf), deviceHash: device.hash, now },
  );
  if (!result.ok) {
    const status = result.error === MESSAGES.tooManyRegistrations ? 429 : 409;
    return { ok: false, error: result.error, status };
  }
  afterCommit(context, { emailIds: result.emailIds });
  const headers = new Headers({ Location: "/dashboard", "Cache-Control": "no-store" });
  headers.append("Set-Cookie", result.setCookie);
  if (device.setCookie) headers.append("Set-Cookie", device.setCookie);
  headers.append("Set-Cookie", await clearPendingCookie(context.env));
  return { ok: true, response: new Response(null, { status: 302, headers }) };
}

/**
 * The link this browser holds, if the signed-in user may confirm it: unexpired, for the e-mail of this very
 * account, and not an admin's.
 */
export async function pendingLinkFor(
  context: Pick<OAuthContext, "db" | "env">,
  request: Request,
  user: Pick<SessionUser, "email" | "role">,
  now = Date.now(),
): Promise<Result<{ id: string; provider: OAuthProvider; providerUserId: string; email: string }>> {
  const row = await pendingOf(context, request, "link", now);
  if (!row) return { ok: false, error: OAUTH_MESSAGES.linkExpired };
  if (user.role === "admin") return { ok: false, error: OAUTH_MESSAGES.adminRefused };
  if (row.email !== user.email.toLowerCase()) {
    return { ok: false, error: OAUTH_MESSAGES.linkWrongAccount(PROVIDER_NAMES[row.provider]) };
  }
  return { ok: true, id: row.id, provider: row.provider, providerUserId: row.providerUserId, email: row.email };
}

/** The banner on /login while this browser holds a link waiting for the owner's sign-in. */
export async function linkWaitingForSignIn(context: Pick<OAuthContext, "db" | "env">, request: Request) {
  const row = await pendingOf(context, request, "link", Date.now());
  return row ? OAUTH_MESSAGES.linkRequired(PROVIDER_NAMES[row.provider]) : null;
}

/**
 * Links the held identity to the signed-in account once its owner confirms: the link, the pending row spent
 * and the provider_linked notice, one batch. The identity's primary key and one-link-per-provider index make a
 * second confirmation fail whole, so the notice goes once.
 */
export async function confirmLink(
  context: OAuthContext,
  request: Request,
  user: SessionUser,
  now = Date.now(),
): Promise<Result<{ provider: OAuthProvider }>> {
  const pending = await pendingLinkFor(context, request, user, now);
  if (!pending.ok) return pending;
  const name = PROVIDER_NAMES[pending.provider];
  const owner = await linkedUser(context.db, pending.provider, pending.providerUserId);
  if (owner) {
    await context.db.delete(oauthPending).where(eq(oauthPending.id, pending.id));
    return {
      ok: false,
      error: owner.id === user.id ? OAUTH_MESSAGES.alreadyLinked(name) : OAUTH_MESSAGES.linkedElsewhere(name),
    };
  }
  try {
    const { notice } = await writeTogether(context.db, {
      link: context.db.insert(oauthAccounts).values({
        provider: pending.provider,
        providerUserId: pending.providerUserId,
        userId: user.id,
        email: pending.email,
        createdAt: now,
      }),
      spent: context.db.delete(oauthPending).where(eq(oauthPending.id, pending.id)),
      notice: returning<{ id: number }>(
        securityNotice(context.db, {
          to: user.email,
          name: user.firstName,
          event: "provider_linked",
          meta: clientMeta(request, context.cf),
          at: now,
          provider: name,
        }),
      ),
    });
    afterCommit(context, { emailIds: notice.map((row) => row.id) });
    return { ok: true, provider: pending.provider };
  } catch (error) {
    if (String((error as { cause?: unknown }).cause ?? error).includes("UNIQUE constraint failed: oauth_accounts")) {
      return { ok: false, error: OAUTH_MESSAGES.alreadyLinked(name) };
    }
    throw error;
  }
}

/** Drops this browser's pending identity (the person chose not to link, or it was used). */
export async function dropPending(context: Pick<OAuthContext, "db" | "env">, request: Request) {
  const id = await pendingId(request, context.env);
  if (id) await context.db.delete(oauthPending).where(eq(oauthPending.id, id));
  return clearPendingCookie(context.env);
}

/**
 * Unlinks a provider, only while the account keeps another way in: a password (a non-empty hash) or another
 * provider. The rule is the delete's own condition, so two unlinks at once cannot both pass; the
 * provider_unlinked notice is enqueued under the same condition in the same batch.
 */
export async function unlinkProvider(
  context: OAuthContext,
  request: Request,
  user: SessionUser,
  provider: OAuthProvider,
  now = Date.now(),
): Promise<Result<object>> {
  const name = PROVIDER_NAMES[provider];
  const keepsAWayIn = sql`(
    EXISTS (SELECT 1 FROM users WHERE users.id = ${user.id} AND users.password_hash <> '')
    OR EXISTS (SELECT 1 FROM oauth_accounts other WHERE other.user_id = ${user.id} AND other.provider <> ${provider}))`;
  const theLink = and(eq(oauthAccounts.userId, user.id), eq(oauthAccounts.provider, provider), keepsAWayIn);
  const { removed, notice } = await writeTogether(context.db, {
    notice: securityNoticeWhere(
      {
        to: user.email,
        name: user.firstName,
        event: "provider_unlinked",
        meta: clientMeta(request, context.cf),
        at: now,
        provider: name,
      },
      sql`oauth_accounts WHERE ${theLink}`,
    ),
    removed: returning<{ provider: string }>(
      context.db.delete(oauthAccounts).where(theLink).returning({ provider: oauthAccounts.provider }),
    ),
  });
  if (removed.length === 0) {
    const stillLinked = await context.db
      .select({ provider: oauthAccounts.provider })
      .from(oauthAccounts)
      .where(and(eq(oauthAccounts.userId, user.id), eq(oauthAccounts.provider, provider)))
      .get();
    return { ok: false, error: stillLinked ? OAUTH_MESSAGES.lastWayIn(name) : OAUTH_MESSAGES.notLinked(name) };
  }
  afterCommit(context, { emailIds: notice.map((row) => row.id) });
  return { ok: true };
}

export interface ProviderRow {
  provider: OAuthProvider;
  name: string;
  /** The e-mail address the provider gave when it was linked; null when not linked. */
  linkedEmail: string | null;
  linkedAt: number | null;
  canLink: boolean;
  canUnlink: boolean;
}

/**
 * The providers card of /account: each offered provider, and any linked one no longer offered (so it can still
 * be unlinked), with what the user may do. Admins see none: they cannot use providers.
 */
export async function providersOf(
  context: Pick<OAuthContext, "db" | "env">,
  user: Pick<SessionUser, "id" | "role">,
): Promise<{ forAdmin: boolean; providers: ProviderRow[] }> {
  const [links, account] = await Promise.all([
    context.db
      .select({ provider: oauthAccounts.provider, email: oauthAccounts.email, createdAt: oauthAccounts.createdAt })
      .from(oauthAccounts)
      .where(eq(oauthAccounts.userId, user.id)),
    context.db
      .select({ hasPassword: sql<number>`${users.passwordHash} <> ''` })
      .from(users)
      .where(eq(users.id, user.id))
      .get(),
  ]);
  const offered = configuredProviders(context.env);
  const shown = [...new Set([...offered, ...links.map((link) => link.provider)])];
  const forAdmin = user.role === "admin";
  return {
    forAdmin,
    providers: forAdmin
      ? []
      : shown.map((provider) => {
          const link = links.find((row) => row.provider === provider);
          return {
            provider,
            name: PROVIDER_NAMES[provider],
            linkedEmail: link?.email ?? null,
            linkedAt: link?.createdAt ?? null,
            canLink: !link && offered.includes(provider),
            canUnlink: Boolean(link) && (Boolean(account?.hasPassword) || links.length > 1),
          };
        }),
  };
}

/** "Continue with …" buttons: the providers whose id and secret are configured. */
export function signInProviders(env: AppEnv) {
  return configuredProviders(env).map((provider) => ({ provider, name: PROVIDER_NAMES[provider] }));
}
