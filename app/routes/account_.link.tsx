import { data, Form, Link } from "react-router";
import { AuthCard, Banner, SubmitButton } from "~/components/form";
import { pageMeta, RouteError } from "~/components/route-error";
import { OAUTH_MESSAGES, PROVIDER_NAMES } from "~/lib/schemas/oauth";
import { clearPendingCookie, dropPending } from "~/server/auth/oauth-accounts.server";
import { confirmLink, pendingLinkFor } from "~/server/auth/oauth-links.server";
import { readForm } from "~/server/form.server";
import { requireUser } from "~/server/session.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/account_.link";

export const meta: Route.MetaFunction = pageMeta(() => [{ title: "Link a sign-in provider" }]);

/**
 * The owner's confirmation before a provider is linked: reached after a full sign-in (password, and code when
 * two-factor is on) with the identity this browser holds, and only for the account with the same e-mail.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const pending = await pendingLinkFor(context, request, user);
  return pending.ok
    ? { ok: true as const, providerName: PROVIDER_NAMES[pending.provider], email: pending.email }
    : { ok: false as const, error: pending.error };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await readForm(request);
  if (form.get("intent") === "cancel") {
    const headers = { "Set-Cookie": await dropPending(context, request) };
    return redirectWithToast(
      context.env,
      "/account",
      { type: "info", description: OAUTH_MESSAGES.linkCancelled },
      { headers },
    );
  }
  const result = await confirmLink(context, request, user);
  if (!result.ok) return data({ error: result.error }, { status: 409 });
  return redirectWithToast(
    context.env,
    "/account",
    { type: "success", description: OAUTH_MESSAGES.linked(PROVIDER_NAMES[result.provider]) },
    { headers: { "Set-Cookie": await clearPendingCookie(context.env) } },
  );
}

export default function LinkProvider({ loaderData: page, actionData: refusal }: Route.ComponentProps) {
  const error = refusal?.error ?? (page.ok ? null : page.error);
  return (
    <AuthCard title="Link a sign-in provider">
      {error ? (
        <div className="space-y-4">
          <Banner tone="error">{error}</Banner>
          <Link to="/account" className="text-brand underline underline-offset-2 hover:decoration-2">
            Back to Account Settings
          </Link>
        </div>
      ) : page.ok ? (
        <Form method="post" className="space-y-4">
          <p className="text-sm text-ink-muted">
            Link the {page.providerName} account <strong className="break-all text-ink">{page.email}</strong> to your
            account? You will then be able to sign in with {page.providerName} too. You can unlink it at any time on
            Account Settings.
          </p>
          <div className="flex flex-wrap gap-3">
            <SubmitButton intent="link" pendingText="Linking...">
              Link {page.providerName}
            </SubmitButton>
            <button
              type="submit"
              name="intent"
              value="cancel"
              className="inline-flex items-center justify-center rounded-md border border-border px-4 py-2 font-semibold text-ink hover:bg-surface-raised"
            >
              Cancel
            </button>
          </div>
        </Form>
      ) : null}
    </AuthCard>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
