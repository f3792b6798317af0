import { and, eq, gt, lte } from "drizzle-orm";
import type { CompleteProfileInput } from "~/lib/schemas/auth";
import { OAUTH_MESSAGES, type OAuthProvider, PROVIDER_NAMES } from "~/lib/schemas/oauth";
import type { AppContext } from "~/load-context";
import type { Outcome } from "../commands.server";
import { afterCommit } from "../commands.server";
import { appCookie } from "../cookies.server";
import { randomToken, sha256Hex } from "../crypto.server";
import { type Db, schema, writeTogether } from "../db.server";
import type { AppEnv } from "../env.server";
import { clientIp } from "../rate-limit.server";
import { clientMeta } from "./client-meta.server";
import type { ProviderIdentity } from "./oauth.server";
import { configuredProviders } from "./oauth.server";
import { registerClientWithProvider } from "./registration.server";
import { deviceOf, signedInUserColumns } from "./sign-in.server";

/**
 * The identities providers vouch for, on their way to an account (docs/product.md, "Sign-in providers"): who an
 * identity is linked to, the identity held while the person completes their profile or proves they own the
 * account with its e-mail (`oauth_pending`, 15 minutes, the browser holding the token and the table its hash),
 * and the sign-up that creates the account. Links made and undone by the owner: oauth-links.server.ts.
 */
const { oauthAccounts, oauthPending, users, profiles } = schema;

export const OAUTH_PENDING_TTL_MS = 15 * 60 * 1000;

type OAuthContext = Pick<AppContext, "db" | "env" | "ctx" | "cf" | "bindings">;

/** The short-lived cookies of the flow, under the app's cookie rule (app/server/cookies.server.ts). */
export function oauthCookie(env: AppEnv, name: string, maxAgeSeconds: number) {
  return appCookie(env, name, { maxAge: maxAgeSeconds });
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
    .select(signedInUserColumns)
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
export async function pendingOf(
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
): Promise<Outcome<{ response: Response }> & { field?: string }> {
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
  if (!result.ok) return result;
  afterCommit(context, { emailIds: result.emailIds });
  const headers = new Headers({ Location: "/dashboard", "Cache-Control": "no-store" });
  headers.append("Set-Cookie", result.setCookie);
  if (device.setCookie) headers.append("Set-Cookie", device.setCookie);
  headers.append("Set-Cookie", await clearPendingCookie(context.env));
  return { ok: true, response: new Response(null, { status: 302, headers }) };
}

/** Drops this browser's pending identity (the person chose not to link, or it was used). */
export async function dropPending(context: Pick<OAuthContext, "db" | "env">, request: Request) {
  const id = await pendingId(request, context.env);
  if (id) await context.db.delete(oauthPending).where(eq(oauthPending.id, id));
  return clearPendingCookie(context.env);
}

/** "Continue with …" buttons: the providers whose id and secret are configured. */
export function signInProviders(env: AppEnv) {
  return configuredProviders(env).map((provider) => ({ provider, name: PROVIDER_NAMES[provider] }));
}
