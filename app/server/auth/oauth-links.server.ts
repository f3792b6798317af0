import { and, eq, sql } from "drizzle-orm";
import { OAUTH_MESSAGES, type OAuthProvider, PROVIDER_NAMES } from "~/lib/schemas/oauth";
import type { AppContext } from "~/load-context";
import type { Result } from "../commands.server";
import { afterCommit } from "../commands.server";
import { returning, schema, writeTogether } from "../db.server";
import type { SessionUser } from "../session.server";
import { clientMeta } from "./client-meta.server";
import { configuredProviders } from "./oauth.server";
import { linkedUser, pendingOf } from "./oauth-accounts.server";
import { securityNotice, securityNoticeIf } from "./security-notice.server";

/**
 * Links between accounts and provider identities, made and undone by the account's owner (docs/product.md,
 * "Sign-in providers"): a link needs the owner signed in (password, and code when two-factor is on) in the
 * browser that holds the identity, for the account with the identity's e-mail, never an admin's; an unlink never
 * leaves an account without a way in. Each sends its security notice in the same batch.
 */
const { oauthAccounts, oauthPending, users } = schema;

type OAuthContext = Pick<AppContext, "db" | "env" | "ctx" | "cf" | "bindings">;

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

/**
 * Unlinks a provider, only while the account keeps another way in: a password (a non-empty hash), another
 * provider or a passkey. The rule is the delete's own condition, so two unlinks at once cannot both pass; the
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
    OR EXISTS (SELECT 1 FROM oauth_accounts other WHERE other.user_id = ${user.id} AND other.provider <> ${provider})
    OR EXISTS (SELECT 1 FROM passkeys WHERE passkeys.user_id = ${user.id}))`;
  const theLink = and(eq(oauthAccounts.userId, user.id), eq(oauthAccounts.provider, provider), keepsAWayIn);
  const { removed, notice } = await writeTogether(context.db, {
    notice: securityNoticeIf(
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
): Promise<{ forAdmin: boolean; hasPassword: boolean; providers: ProviderRow[] }> {
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
    hasPassword: Boolean(account?.hasPassword),
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
