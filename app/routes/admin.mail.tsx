import { Form, useNavigation } from "react-router";
import { AdminPageHeader } from "~/components/admin/page-header";
import { ColumnHeads, NewestOlderLinks } from "~/components/admin/table";
import { Banner } from "~/components/form";
import { Moment } from "~/components/moment";
import { pageMeta, RouteError } from "~/components/route-error";
import { adminPageTitle } from "~/lib/navigation";
import { parseRowId } from "~/lib/row-id";
import { actsOf } from "~/server/acts.server";
import { MAIL_MESSAGES, mailQueue, resendEmail } from "~/server/admin/mail.server";
import { readForm } from "~/server/form.server";
import { dispatchIntent } from "~/server/intents.server";
import { parseCursor } from "~/server/paging.server";
import { requirePermission } from "~/server/session.server";
import type { Route } from "./+types/admin.mail";

export const meta: Route.MetaFunction = pageMeta(() => [{ title: adminPageTitle("Mail") }]);

export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "manageMail");
  const after = parseCursor(new URL(request.url).searchParams.get("before"));
  return mailQueue(context.db, { after });
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "manageMail");
  const form = await readForm(request);
  const act = actsOf(context, admin, form);
  return dispatchIntent(form, {
    resend: act("mailResend", {
      before: () => {
        const id = parseRowId(form.get("id"));
        return id === null
          ? { ok: false as const, error: MAIL_MESSAGES.notFound, status: 404 }
          : { ok: true, data: id };
      },
      run: async (reply, id) => {
        const result = await resendEmail(context, admin, id);
        return result.ok ? reply.done(MAIL_MESSAGES.resent(result.id)) : reply.refused(result);
      },
    }),
  });
}

function ResendButton({ id }: { id: number }) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("id") === String(id);
  return (
    <Form method="post">
      <input type="hidden" name="id" value={id} />
      <button
        type="submit"
        name="intent"
        value="resend"
        disabled={pending}
        aria-busy={pending}
        className="rounded-md bg-brand-strong px-3 py-1 text-sm font-semibold text-white hover:bg-brand-hover disabled:cursor-not-allowed disabled:opacity-60"
      >
        {pending ? "Resending…" : "Resend"}
      </button>
    </Form>
  );
}

export default function AdminMail({ loaderData, actionData: reply }: Route.ComponentProps) {
  const { emails, next, keyRefused } = loaderData;
  return (
    <section className="space-y-6">
      <AdminPageHeader title="Mail">
        Notices not delivered yet, newest first. A notice the provider cannot take is retried for 72 hours, then marked
        failed; a failed notice can be resent.
      </AdminPageHeader>
      {keyRefused ? (
        <Banner tone="error">
          The mail provider refuses our API key. Delivery is on hold and nothing is marked failed: check RESEND_API_KEY
          and the sending domain, and delivery resumes within a minute of the fix.
        </Banner>
      ) : null}
      {reply ? <Banner tone={reply.tone === "success" ? "success" : "error"}>{reply.message}</Banner> : null}
      <div className="overflow-x-auto rounded-xl border border-border bg-surface p-4">
        <table className="w-full min-w-[56rem] text-left text-sm">
          <ColumnHeads
            columns={["Created", "Template", "Recipient", "Status", "Attempts", "Last error", "Next attempt", ""]}
          />
          <tbody className="divide-y divide-border">
            {emails.map((email) => (
              <tr key={email.id}>
                <td className="py-2 pr-4 whitespace-nowrap">
                  <Moment at={email.createdAt} />
                </td>
                <td className="py-2 pr-4 font-mono">{email.template}</td>
                <td className="py-2 pr-4 break-all">{email.toAddress}</td>
                <td className={`py-2 pr-4 ${email.status === "failed" ? "font-semibold text-danger" : ""}`}>
                  {email.status}
                </td>
                <td className="py-2 pr-4">{email.attempts}</td>
                <td className="py-2 pr-4 text-ink-muted break-words">{email.lastError ?? ""}</td>
                <td className="py-2 pr-4 whitespace-nowrap">
                  {email.status === "pending" ? <Moment at={email.nextAttemptAt} /> : "—"}
                </td>
                <td className="py-2">{email.status === "failed" ? <ResendButton id={email.id} /> : null}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {emails.length === 0 ? <p className="py-4 text-sm text-ink-muted">Every notice has been delivered.</p> : null}
        <NewestOlderLinks next={next} olderLabel="Older notices" />
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  // A role without the mail queue gets the role message every back-office page gives; a failure says what failed.
  return <RouteError failed={{ title: "Failed to load the mail queue", text: null }} />;
}
