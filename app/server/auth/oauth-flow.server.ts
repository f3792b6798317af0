import { redirect } from "react-router";
import { isOAuthProvider, OAUTH_MESSAGES, type OAuthProvider, PROVIDER_NAMES } from "~/lib/schemas/oauth";
import type { AppContext } from "~/load-context";
import { constantTimeEqual } from "../crypto.server";
import type { AppEnv } from "../env.server";
import { notFound } from "../http.server";
import { getSessionUser, type SessionUser } from "../session.server";
import { redirectWithToast } from "../toast.server";
import {
  configuredProviders,
  newAuthorization,
  type ProviderIdentity,
  usesPkce,
  verifiedIdentity,
} from "./oauth.server";
import { accountWithEmail, holdIdentity, linkedUser, oauthCookie } from "./oauth-accounts.server";
import { afterFirstFactor } from "./sign-in.server";

/**
 * The round trip to the provider (docs/product.md, "Sign-in providers"): the start sends the browser there with
 * a fresh state (and, for Google, a PKCE code verifier) in 10-minute cookies; the callback accepts the answer
 * only from the browser that started it (same state, compared in constant time; the verifier still there),
 * then decides by who the identity is: a linked account signs in (second step included), an account with the
 * same e-mail must prove it owns it before a link, a new person completes their profile. Refusals go to /login
 * with a message, and nothing is created.
 */
const FLOW_TTL_S = 10 * 60;
const stateCookie = (env: AppEnv) => oauthCookie(env, "oauth-state", FLOW_TTL_S);
const verifierCookie = (env: AppEnv) => oauthCookie(env, "oauth-verifier", FLOW_TTL_S);

type FlowContext = Pick<AppContext, "db" | "env" | "ctx" | "cf">;

/** The provider of the URL, if it is one that is configured; a 404 otherwise. */
export function offeredProvider(env: AppEnv, value: string | undefined): OAuthProvider {
  if (!isOAuthProvider(value) || !configuredProviders(env).includes(value)) notFound();
  return value;
}

/**
 * Starts a sign-in: a link the sign-in, registration and account pages show. It is a GET, so that the answer
 * may send the browser to the provider (the pages' CSP allows forms to post only to this site, and a browser
 * applies that to a form's redirects); a start that another site triggered (Sec-Fetch-Site cross-site or
 * same-site) is not made, which keeps the rule that other sites cannot set anything in motion here.
 */
export async function startSignIn(context: Pick<AppContext, "env">, request: Request, provider: OAuthProvider) {
  const fetchSite = request.headers.get("Sec-Fetch-Site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return redirect("/login");
  const { url, state, codeVerifier } = newAuthorization(context.env, request, provider);
  const headers = new Headers({ "Cache-Control": "no-store" });
  headers.append("Set-Cookie", await stateCookie(context.env).serialize({ provider, state }));
  headers.append(
    "Set-Cookie",
    codeVerifier
      ? await verifierCookie(context.env).serialize(codeVerifier)
      : await verifierCookie(context.env).serialize("", { maxAge: 0 }),
  );
  return redirect(url.toString(), { headers });
}

/** The state and verifier this browser holds, and the headers that clear them (each is good for one callback). */
async function takeFlowCookies(env: AppEnv, request: Request) {
  const cookie = request.headers.get("Cookie");
  const state: unknown = await stateCookie(env).parse(cookie);
  const verifier: unknown = await verifierCookie(env).parse(cookie);
  const headers = new Headers({ "Cache-Control": "no-store" });
  headers.append("Set-Cookie", await stateCookie(env).serialize("", { maxAge: 0 }));
  headers.append("Set-Cookie", await verifierCookie(env).serialize("", { maxAge: 0 }));
  const started =
    typeof state === "object" && state !== null && "provider" in state && "state" in state
      ? (state as { provider: unknown; state: unknown })
      : null;
  return {
    started: typeof started?.state === "string" ? { provider: started.provider, state: started.state } : null,
    verifier: typeof verifier === "string" && verifier !== "" ? verifier : null,
    headers,
  };
}

/** The provider's answer (`/auth/{provider}/callback`). */
export async function finishSignIn(context: FlowContext, request: Request, provider: OAuthProvider) {
  const url = new URL(request.url);
  const name = PROVIDER_NAMES[provider];
  const [{ started, verifier, headers }, viewer] = await Promise.all([
    takeFlowCookies(context.env, request),
    getSessionUser(request, context),
  ]);
  // Someone signed in was linking from Account Settings: the answer goes back there.
  const refuse = (message: string) =>
    redirectWithToast(
      context.env,
      viewer ? "/account" : "/login",
      { type: "error", description: message },
      { headers },
    );

  if (url.searchParams.has("error")) return refuse(OAUTH_MESSAGES.providerError(name));
  const state = url.searchParams.get("state") ?? "";
  const sameBrowser =
    started !== null &&
    started.provider === provider &&
    state !== "" &&
    (await constantTimeEqual(state, started.state));
  if (!sameBrowser || (usesPkce(provider) && !verifier)) return refuse(OAUTH_MESSAGES.unverifiable(name));
  const code = url.searchParams.get("code");
  if (!code) return refuse(OAUTH_MESSAGES.providerError(name));

  const result = await verifiedIdentity(context.env, request, provider, { code, codeVerifier: verifier });
  if (!result.ok) {
    return refuse(
      result.reason === "unverified" ? OAUTH_MESSAGES.unverifiedEmail(name) : OAUTH_MESSAGES.providerError(name),
    );
  }
  return continueAs(context, request, { identity: result.identity, viewer, headers, refuse });
}

async function continueAs(
  context: FlowContext,
  request: Request,
  {
    identity,
    viewer,
    headers,
    refuse,
  }: {
    identity: ProviderIdentity;
    viewer: SessionUser | null;
    headers: Headers;
    refuse: (message: string) => Promise<Response>;
  },
): Promise<Response> {
  const name = PROVIDER_NAMES[identity.provider];
  const linked = await linkedUser(context.db, identity.provider, identity.providerUserId);
  const hold = async (purpose: "register" | "link", to: string) => {
    headers.append("Set-Cookie", await holdIdentity(context, request, identity, purpose));
    return redirect(to, { headers });
  };

  // Signed in already (Link on /account): only a link to this account, which the owner then confirms.
  if (viewer) {
    if (linked?.id === viewer.id) {
      return redirectWithToast(
        context.env,
        "/account",
        { type: "info", description: OAUTH_MESSAGES.alreadyLinked(name) },
        { headers },
      );
    }
    if (linked) return refuse(OAUTH_MESSAGES.linkedElsewhere(name));
    if (viewer.role === "admin") return refuse(OAUTH_MESSAGES.adminRefused);
    if (identity.email !== viewer.email.toLowerCase()) return refuse(OAUTH_MESSAGES.linkWrongAccount(name));
    return hold("link", "/account/link");
  }

  if (linked) {
    // An account made admin after it was linked: admins sign in with a password and a code only.
    if (linked.role === "admin") return refuse(OAUTH_MESSAGES.adminRefused);
    const response = await afterFirstFactor(context, request, linked, {
      method: identity.provider,
      redirectTo: "/dashboard",
    });
    for (const cookie of headers.getSetCookie()) response.headers.append("Set-Cookie", cookie);
    response.headers.set("Cache-Control", "no-store");
    return response;
  }

  const owner = await accountWithEmail(context.db, identity.email);
  if (owner?.role === "admin") return refuse(OAUTH_MESSAGES.adminRefused);
  // Never linked silently: the owner signs in with the password (and code) first, then confirms on /account/link.
  if (owner) return hold("link", `/login?redirectTo=${encodeURIComponent("/account/link")}`);
  return hold("register", "/register/complete");
}
