import {
  CodeChallengeMethod,
  decodeIdToken,
  generateCodeVerifier,
  generateState,
  OAuth2Client,
  OAuth2RequestError,
  type OAuth2Tokens,
} from "arctic";
import { OAUTH_PROVIDERS, type OAuthProvider } from "../../../db/enums";
import type { AppEnv } from "../env.server";
import { siteOrigin } from "../http.server";

/**
 * The OAuth 2.0 side of "Continue with Google / GitHub", and the only module that imports `arctic` (pinned at
 * 3.7.0 and deprecated upstream: docs/decisions/0020). Replacing it means rewriting this file alone.
 *
 * arctic's `Google` class is its generic `OAuth2Client` with Google's endpoints; this module uses that client
 * with the endpoints written out below, for both providers, so that the browser tests can point them at a fake
 * provider on loopback (`OAUTH_TEST_ENDPOINTS`, refused in production) and run the very code production runs.
 * GitHub takes no PKCE, and its token endpoint can answer 200 with an error in the body: checked here.
 */
const ENDPOINTS = {
  google: {
    authorization: "https://accounts.google.com/o/oauth2/v2/auth",
    token: "https://oauth2.googleapis.com/token",
  },
  github: {
    authorization: "https://github.com/login/oauth/authorize",
    token: "https://github.com/login/oauth/access_token",
    user: "https://api.github.com/user",
    emails: "https://api.github.com/user/emails",
  },
} as const;

const SCOPES: Record<OAuthProvider, string[]> = {
  google: ["openid", "email", "profile"],
  // The profile (id, name) and the e-mail addresses with their verified flags; nothing to write.
  github: ["read:user", "user:email"],
};

/** Issuers of Google's id tokens (both spellings are in use). */
const GOOGLE_ISSUERS = new Set(["https://accounts.google.com", "accounts.google.com"]);

/** A person as a provider vouches for them: the stable id there, and the verified e-mail address (lower-cased). */
export interface ProviderIdentity {
  provider: OAuthProvider;
  providerUserId: string;
  email: string;
  firstName: string;
  lastName: string;
}

export type IdentityResult =
  | { ok: true; identity: ProviderIdentity }
  | { ok: false; reason: "provider" | "unverified" };

function credentials(env: AppEnv, provider: OAuthProvider) {
  const [id, secret] =
    provider === "google"
      ? [env.GOOGLE_CLIENT_ID, env.GOOGLE_CLIENT_SECRET]
      : [env.GITHUB_CLIENT_ID, env.GITHUB_CLIENT_SECRET];
  return id && secret ? { id, secret } : null;
}

/** The providers offered: those whose client id and secret are both set. */
export function configuredProviders(env: AppEnv): OAuthProvider[] {
  return OAUTH_PROVIDERS.filter((provider) => credentials(env, provider) !== null);
}

/** Where the provider sends the browser back; registered with the provider as the app's callback URL. */
export function callbackUrl(env: AppEnv, request: Request, provider: OAuthProvider): string {
  return `${siteOrigin(env, request)}/auth/${provider}/callback`;
}

/** The provider's endpoint, or under the test setting the fake provider's: its host becomes the first path segment. */
function endpoint(env: AppEnv, url: string): string {
  if (!env.OAUTH_TEST_ENDPOINTS) return url;
  const real = new URL(url);
  return `${env.OAUTH_TEST_ENDPOINTS}/${real.host}${real.pathname}`;
}

function clientFor(env: AppEnv, request: Request, provider: OAuthProvider) {
  const configured = credentials(env, provider);
  if (!configured) throw new Error(`${provider} sign-in is not configured`);
  return new OAuth2Client(configured.id, configured.secret, callbackUrl(env, request, provider));
}

/** The whole flow needs a code verifier only where the provider takes PKCE. */
export const usesPkce = (provider: OAuthProvider) => provider === "google";

/** A new authorization request: where to send the browser, and the state and verifier it must come back with. */
export function newAuthorization(env: AppEnv, request: Request, provider: OAuthProvider) {
  const client = clientFor(env, request, provider);
  const state = generateState();
  if (usesPkce(provider)) {
    const codeVerifier = generateCodeVerifier();
    const url = client.createAuthorizationURLWithPKCE(
      endpoint(env, ENDPOINTS.google.authorization),
      state,
      CodeChallengeMethod.S256,
      codeVerifier,
      SCOPES.google,
    );
    return { url, state, codeVerifier };
  }
  const url = client.createAuthorizationURL(endpoint(env, ENDPOINTS.github.authorization), state, SCOPES.github);
  return { url, state, codeVerifier: null };
}

/**
 * Exchanges the code and reads who signed in. `provider` when the provider refused or answered something we
 * cannot use (logged, without secrets), `unverified` when it gave no verified e-mail address.
 */
export async function verifiedIdentity(
  env: AppEnv,
  request: Request,
  provider: OAuthProvider,
  { code, codeVerifier }: { code: string; codeVerifier: string | null },
): Promise<IdentityResult> {
  try {
    const client = clientFor(env, request, provider);
    if (provider === "google") {
      const tokens = await client.validateAuthorizationCode(endpoint(env, ENDPOINTS.google.token), code, codeVerifier);
      return googleIdentity(env, tokens);
    }
    const tokens = await client.validateAuthorizationCode(endpoint(env, ENDPOINTS.github.token), code, null);
    // GitHub reports a bad or used code as 200 with {"error": ...}.
    const error = (tokens.data as { error?: unknown }).error;
    if (typeof error === "string") throw new OAuth2RequestError(error, null, null, null);
    return await githubIdentity(env, tokens.accessToken());
  } catch (error) {
    console.warn(`${provider} sign-in failed:`, describeFailure(error));
    return { ok: false, reason: "provider" };
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof OAuth2RequestError) return `${error.code}${error.description ? ` (${error.description})` : ""}`;
  if (error instanceof Error)
    return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
  return String(error);
}

const isEmail = (value: unknown): value is string =>
  typeof value === "string" && value.length <= 320 && /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(value);
const nameOf = (value: unknown) => (typeof value === "string" ? value.trim().slice(0, 100) : "");

/**
 * Google's id token, received straight from its token endpoint over TLS, so its signature need not be checked
 * (OpenID Connect Core 3.1.3.7); its issuer, audience and expiry still are. Only `email_verified: true` counts.
 */
function googleIdentity(env: AppEnv, tokens: OAuth2Tokens): IdentityResult {
  const claims = decodeIdToken(tokens.idToken()) as Record<string, unknown>;
  const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  const valid =
    GOOGLE_ISSUERS.has(String(claims.iss)) &&
    audience.includes(env.GOOGLE_CLIENT_ID) &&
    typeof claims.exp === "number" &&
    claims.exp * 1000 > Date.now() &&
    typeof claims.sub === "string" &&
    claims.sub !== "";
  if (!valid) throw new Error("Google's id token is not for this app, or has expired");
  if (claims.email_verified !== true || !isEmail(claims.email)) return { ok: false, reason: "unverified" };
  return {
    ok: true,
    identity: {
      provider: "google",
      providerUserId: claims.sub as string,
      email: claims.email.toLowerCase(),
      firstName: nameOf(claims.given_name),
      lastName: nameOf(claims.family_name),
    },
  };
}

/** GitHub's user (its numeric id is stable; the login can change) and its primary e-mail, if verified. */
async function githubIdentity(env: AppEnv, accessToken: string): Promise<IdentityResult> {
  const headers = {
    Authorization: `Bearer ${accessToken}`,
    Accept: "application/vnd.github+json",
    "X-GitHub-Api-Version": "2022-11-28",
    // GitHub refuses requests without a User-Agent.
    "User-Agent": env.BRAND_NAME,
  };
  const [userResponse, emailsResponse] = await Promise.all([
    fetch(endpoint(env, ENDPOINTS.github.user), { headers }),
    fetch(endpoint(env, ENDPOINTS.github.emails), { headers }),
  ]);
  if (!userResponse.ok || !emailsResponse.ok) {
    throw new Error(`GitHub answered ${userResponse.status} for the user and ${emailsResponse.status} for the e-mails`);
  }
  const user = (await userResponse.json()) as { id?: unknown; name?: unknown };
  const emails = (await emailsResponse.json()) as unknown;
  if (typeof user.id !== "number" && typeof user.id !== "string") throw new Error("GitHub's user has no id");
  const primary = Array.isArray(emails)
    ? (emails as Array<{ email?: unknown; primary?: unknown; verified?: unknown }>).find((e) => e.primary === true)
    : undefined;
  if (primary?.verified !== true || !isEmail(primary.email)) return { ok: false, reason: "unverified" };
  // GitHub has one display name: the first word is taken as the first name, the rest as the last.
  const [firstName = "", ...rest] = nameOf(user.name).split(/\s+/);
  return {
    ok: true,
    identity: {
      provider: "github",
      providerUserId: String(user.id),
      email: primary.email.toLowerCase(),
      firstName,
      lastName: rest.join(" ").slice(0, 100),
    },
  };
}
