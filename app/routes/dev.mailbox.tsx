import { pageMeta, RouteError } from "~/components/route-error";
import { isLoopbackRequest, notFound } from "~/server/http.server";
import { recentEmails } from "~/server/mail/outbox.server";
import { escapeHtml, renderStoredEmail } from "~/server/mail/templates.server";
import type { Route } from "./+types/dev.mailbox";

export const meta: Route.MetaFunction = pageMeta(() => [
  { title: "Local mailbox" },
  { name: "robots", content: "noindex" },
]);

/**
 * Development only: the notices the app would have sent, so reset and confirmation links work offline. It
 * shows live reset links for every account, so it answers only `ENVIRONMENT=development` on this machine.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (context.env.ENVIRONMENT !== "development" || !isLoopbackRequest(request)) notFound();
  const rows = await recentEmails(context.db, 50);
  return {
    emails: rows.map((row) => {
      let rendered: { subject: string; bodyHtml: string };
      try {
        // A delivered mail's body moves to the mail archive after 30 days (docs/decisions/0075).
        if (row.payload === null) throw new Error("archived: its text is in the mail archive (/admin/mail)");
        rendered = renderStoredEmail(row.template, row.payload, context.env);
      } catch (error) {
        rendered = { subject: `(${row.template}: cannot render)`, bodyHtml: escapeHtml(String(error)) };
      }
      return {
        id: row.id,
        to: row.toAddress,
        template: row.template,
        status: row.status,
        attempts: row.attempts,
        lastError: row.lastError,
        createdAt: new Date(row.createdAt).toISOString(),
        subject: rendered.subject,
        bodyHtml: rendered.bodyHtml,
      };
    }),
  };
}

export default function Mailbox({ loaderData }: Route.ComponentProps) {
  const { emails } = loaderData;
  return (
    <section>
      <h1 className="text-2xl font-bold">Local mailbox</h1>
      <p className="mt-2 text-ink-muted">
        Notices captured in development (no RESEND_API_KEY) and sent ones, newest first. Not available in production.
      </p>
      {emails.length === 0 ? (
        <p className="mt-8 text-ink-muted">No mail yet.</p>
      ) : (
        <ol className="mt-8 space-y-6">
          {emails.map((email) => (
            <li key={email.id} className="rounded-lg border border-border bg-surface p-4">
              <article aria-labelledby={`mail-${email.id}`}>
                <header className="flex flex-wrap items-baseline justify-between gap-2">
                  <h2 id={`mail-${email.id}`} className="text-lg font-semibold">
                    {email.subject}
                  </h2>
                  <span className="text-sm text-ink-muted">
                    {email.status} · {email.createdAt.replace("T", " ").slice(0, 19)} UTC
                  </span>
                </header>
                <p className="mt-1 text-sm text-ink-muted">
                  To {email.to} · {email.template}
                  {email.attempts > 0 ? ` · ${email.attempts} attempt(s)` : ""}
                  {email.lastError ? ` · last error: ${email.lastError}` : ""}
                </p>
                {/* Rendered by our own templates, which escape every value. */}
                <div
                  className="mt-4 rounded-md bg-white p-4 text-[#111] [&_a]:text-[#1d4ed8] [&_a]:underline"
                  // biome-ignore lint/security/noDangerouslySetInnerHtml: template output, every value escaped
                  dangerouslySetInnerHTML={{ __html: email.bodyHtml }}
                />
              </article>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
