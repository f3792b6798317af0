import type { ReactNode } from "react";
import type { OAuthProvider } from "~/lib/schemas/oauth";

const BUTTON_CLASS =
  "inline-flex w-full items-center justify-center gap-2 rounded-md border border-border bg-canvas px-4 py-2 font-semibold text-ink hover:bg-surface-raised focus:outline-none focus-visible:ring-2 focus-visible:ring-brand/60";

const ICONS: Record<OAuthProvider, ReactNode> = {
  google: (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5">
      <path
        fill="#4285F4"
        d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.5h6.5a5.6 5.6 0 0 1-2.4 3.6v3h3.9c2.3-2.1 3.5-5.2 3.5-8.8z"
      />
      <path fill="#34A853" d="M12 24c3.2 0 6-1.1 8-2.9l-3.9-3a7.2 7.2 0 0 1-10.8-3.8h-4v3.1A12 12 0 0 0 12 24z" />
      <path fill="#FBBC05" d="M5.3 14.3a7.2 7.2 0 0 1 0-4.6V6.6h-4a12 12 0 0 0 0 10.8l4-3.1z" />
      <path fill="#EA4335" d="M12 4.8c1.8 0 3.3.6 4.6 1.8l3.4-3.4A12 12 0 0 0 1.3 6.6l4 3.1A7.2 7.2 0 0 1 12 4.8z" />
    </svg>
  ),
  github: (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5 fill-current">
      <path d="M12 .5a11.5 11.5 0 0 0-3.6 22.4c.6.1.8-.3.8-.6v-2c-3.2.7-3.9-1.5-3.9-1.5-.5-1.3-1.3-1.7-1.3-1.7-1-.7.1-.7.1-.7 1.2.1 1.8 1.2 1.8 1.2 1 1.8 2.7 1.3 3.4 1 .1-.8.4-1.3.7-1.6-2.6-.3-5.3-1.3-5.3-5.7 0-1.3.5-2.3 1.2-3.1-.1-.3-.5-1.5.1-3.1 0 0 1-.3 3.2 1.2a11 11 0 0 1 5.8 0c2.2-1.5 3.2-1.2 3.2-1.2.6 1.6.2 2.8.1 3.1.8.8 1.2 1.8 1.2 3.1 0 4.4-2.7 5.4-5.3 5.7.4.4.8 1.1.8 2.2v3.2c0 .3.2.7.8.6A11.5 11.5 0 0 0 12 .5z" />
    </svg>
  ),
};

/**
 * "Continue with Google / GitHub" under the sign-in and registration forms, for the configured providers only.
 * Plain links (not React Router's): the browser itself goes to /auth/{provider}, which sends it on to the provider.
 */
export function ContinueWithProviders({ providers }: { providers: Array<{ provider: OAuthProvider; name: string }> }) {
  if (providers.length === 0) return null;
  return (
    <div className="mt-6 space-y-3">
      <p className="flex items-center gap-3 text-sm text-ink-muted before:h-px before:flex-1 before:bg-border after:h-px after:flex-1 after:bg-border">
        or
      </p>
      {providers.map(({ provider, name }) => (
        <a key={provider} href={`/auth/${provider}`} className={BUTTON_CLASS}>
          {ICONS[provider]}
          Continue with {name}
        </a>
      ))}
    </div>
  );
}

/** A state of the page, neither an error nor a success: a link that waits for the owner to sign in. */
export function ProviderNotice({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="mb-4 rounded-md border border-brand/50 bg-brand/10 px-4 py-3 text-sm text-ink">
      {children}
    </p>
  );
}
