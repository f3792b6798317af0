import { OAUTH_PROVIDERS, type OAuthProvider } from "../../../db/enums";
import { formSchema } from "../forms";

/**
 * Sign-in with Google or GitHub (docs/product.md, "Sign-in providers"): the providers' names as people read
 * them and every message the flow shows. Browser-safe: the buttons and cards use the names too.
 */
export type { OAuthProvider };

export const PROVIDER_NAMES: Record<OAuthProvider, string> = { google: "Google", github: "GitHub" };

export const isOAuthProvider = (value: unknown): value is OAuthProvider =>
  typeof value === "string" && (OAUTH_PROVIDERS as readonly string[]).includes(value);

export const OAUTH_MESSAGES = {
  /** The provider answered with an error (`?error=`), or the code could not be exchanged. */
  providerError: (provider: string) =>
    `${provider} did not complete the sign-in. Please try again, or sign in with your password.`,
  /** The state did not match this browser's, or its code verifier was gone (too late, another tab, or forged). */
  unverifiable: (provider: string) =>
    `The sign-in with ${provider} could not be checked: it may have taken too long or been started in another window. Please try again.`,
  unverifiedEmail: (provider: string) =>
    `${provider} did not give a verified e-mail address for this account. Verify your e-mail address with ${provider}, or sign in with your password.`,
  adminRefused: "Admin accounts sign in with their password and authenticator code only.",
  /** On /login, while a link waits for the account owner's proof. */
  linkRequired: (provider: string) =>
    `An account with this e-mail address already exists. Sign in with your password (and your authenticator code, if it is on) to link ${provider} to it.`,
  linkExpired: "This request to link a sign-in provider has expired or was already used. Please start again.",
  linkWrongAccount: (provider: string) =>
    `The e-mail address ${provider} gave is not the one of the account you are signed in to, so it cannot be linked.`,
  linked: (provider: string) => `${provider} is now linked to your account.`,
  linkCancelled: "Nothing was linked.",
  alreadyLinked: (provider: string) => `${provider} is already linked to your account.`,
  linkedElsewhere: (provider: string) => `This ${provider} account is linked to another account.`,
  unlinked: (provider: string) => `${provider} was unlinked from your account.`,
  notLinked: (provider: string) => `${provider} is not linked to your account.`,
  lastWayIn: (provider: string) =>
    `${provider} is the only way to sign in to your account, so it cannot be unlinked. Set a password first (Forgot your password? on the sign-in page) or link another provider.`,
  profileExpired: "Your sign-up with Google or GitHub has expired. Please start again.",
} as const;

/** The unlink button of the providers card. */
export const unlinkSchema = formSchema(
  (v) => ({ provider: typeof v.provider === "string" ? v.provider : "" }),
  [[(v) => isOAuthProvider(v.provider), "Unknown sign-in provider", "provider"]],
  (v) => ({ provider: v.provider as OAuthProvider }),
);
