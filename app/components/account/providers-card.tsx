import { Form } from "react-router";
import { SubmitButton } from "~/components/form";
import { formatLongDate } from "~/lib/format";
import { OAUTH_MESSAGES } from "~/lib/schemas/oauth";
import type { ProviderRow } from "~/server/auth/oauth-links.server";

const LINK_CLASS =
  "inline-flex shrink-0 items-center justify-center rounded-md border border-border px-4 py-2 font-semibold text-ink hover:bg-surface-raised focus:outline-none focus-visible:ring-2 focus-visible:ring-brand/60";

/**
 * Account Settings' "Sign-in providers": each provider linked to the account (with Unlink while another way in
 * remains) and each offered one not linked yet (Link goes through the provider, then asks to confirm).
 */
export function ProvidersCard({ card }: { card: { forAdmin: boolean; providers: ProviderRow[] } }) {
  if (!card.forAdmin && card.providers.length === 0) return null;
  return (
    <article className="rounded-xl border border-border bg-surface p-6" aria-labelledby="providers-title">
      <h2 id="providers-title" className="text-lg font-semibold">
        Sign-in providers
      </h2>
      {card.forAdmin ? (
        <p className="mt-2 text-sm text-ink-muted">{OAUTH_MESSAGES.adminRefused}</p>
      ) : (
        <ul className="mt-4 divide-y divide-border">
          {card.providers.map((row) => (
            <li key={row.provider} className="flex flex-wrap items-center justify-between gap-3 py-3 sm:flex-nowrap">
              <div className="min-w-0 flex-1">
                <p className="font-medium">{row.name}</p>
                <p className="break-all text-sm text-ink-muted">
                  {row.linkedEmail
                    ? `Linked as ${row.linkedEmail}${row.linkedAt ? ` since ${formatLongDate(row.linkedAt)}` : ""}`
                    : "Not linked"}
                </p>
                {row.linkedEmail && !row.canUnlink ? (
                  <p className="mt-1 text-xs text-ink-muted">{OAUTH_MESSAGES.lastWayIn(row.name)}</p>
                ) : null}
              </div>
              {row.linkedEmail && row.canUnlink ? (
                <Form method="post" action="/account/providers" className="shrink-0">
                  <input type="hidden" name="provider" value={row.provider} />
                  <SubmitButton intent="unlink" pendingText="Unlinking..." tone="danger">
                    Unlink {row.name}
                  </SubmitButton>
                </Form>
              ) : null}
              {row.canLink ? (
                // A plain link: the browser goes to the provider and back (see /auth/{provider}).
                <a href={`/auth/${row.provider}`} className={LINK_CLASS}>
                  Link your {row.name} account
                </a>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}
