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
import { openArchivedMail, parseMailSearch, searchMail } from "~/server/admin/mail-search.server";
import { readForm } from "~/server/form.server";
import { dispatchIntent } from "~/server/intents.server";
import { parseCursor } from "~/server/paging.server";
import { requirePermission } from "~/server/session.server";
import type { Route } from "./+types/admin.mail";

export const meta: Route.MetaFunction = pageMeta(() => [{ title: adminPageTitle("Mail") }]);

export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "manageMail");
  const params = new URL(request.url).searchParams;
  const after = parseCursor(params.get("before"));
  const parsed = parseMailSearch(params);
  const [queue, found] = await Promise.all([
    mailQueue(context.db, { after }),
    parsed && "search" in parsed ? searchMail(context.db, context.bindings.MAIL_ARCHIVE, parsed.search) : null,
  ]);
  // Opened only from the search's own list, so the page never shows a mail the search did not find.
  const openId = parseRowId(params.get("open"));
  const toOpen = found?.mails.find((mail) => mail.id === openId && mail.archived);
  const opened = toOpen ? await openArchivedMail(context.db, context.bindings.MAIL_ARCHIVE, context.env, toOpen) : null;
  const search = parsed && "search" in parsed ? parsed.search : null;
  const searchError = parsed && "error" in parsed ? parsed.error : null;
  return { ...queue, search, searchError, found, opened, typed: { to: params.get("to"), month: params.get("month") } };
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

const FIELD =
  "mt-1 block w-full rounded-md border border-border bg-canvas px-3 py-2 text-ink focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/40";

type SearchData = Pick<Route.ComponentProps["loaderData"], "search" | "searchError" | "found" | "opened" | "typed">;

/** Any mail of one recipient and month, archived ones too; an archived mail's text opens from its archive. */
function MailSearch({ search, searchError, found, opened, typed }: SearchData) {
  const openHref = (id: number) =>
    `?${new URLSearchParams({ to: search?.to ?? "", month: search?.month ?? "", open: String(id) })}`;
  return (
    <div className="space-y-4 rounded-xl border border-border bg-surface p-4">
      <h2 className="text-lg font-semibold">Find a mail</h2>
      <Form method="get" key={`${typed.to}|${typed.month}`} className="grid gap-4 sm:grid-cols-3 sm:items-end">
        <div>
          <label htmlFor="mail-to" className="block text-sm font-medium">
            Recipient
          </label>
          <input id="mail-to" name="to" type="email" defaultValue={typed.to ?? ""} className={FIELD} />
        </div>
        <div>
          <label htmlFor="mail-month" className="block text-sm font-medium">
            Month (UTC)
          </label>
          <input id="mail-month" name="month" type="month" defaultValue={typed.month ?? ""} className={FIELD} />
        </div>
        <div>
          <button
            type="submit"
            className="rounded-md bg-brand-strong px-4 py-2 font-semibold text-white hover:bg-brand-hover"
          >
            Find
          </button>
        </div>
      </Form>
      {searchError ? <Banner tone="error">{searchError}</Banner> : null}
      {found && search ? (
        // Sideways on a phone, as the queue below: reachable by keyboard to scroll, and named.
        <section
          aria-label="Mails found"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is reached by keyboard to scroll it
          tabIndex={0}
          className="overflow-x-auto"
        >
          <table className="w-full min-w-[48rem] text-left text-sm">
            <ColumnHeads columns={["Created", "Template", "Status", "Sent", "Provider id", "Text"]} />
            <tbody className="divide-y divide-border">
              {found.mails.map((mail) => (
                <tr key={mail.id}>
                  <td className="py-2 pr-4 whitespace-nowrap">
                    <Moment at={mail.createdAt} />
                  </td>
                  <td className="py-2 pr-4 font-mono">{mail.template}</td>
                  <td className="py-2 pr-4">{mail.status}</td>
                  <td className="py-2 pr-4 whitespace-nowrap">{mail.sentAt ? <Moment at={mail.sentAt} /> : "—"}</td>
                  <td className="py-2 pr-4 font-mono break-all">{mail.providerId ?? "—"}</td>
                  <td className="py-2">
                    {mail.archived ? (
                      <a href={openHref(mail.id)} className="text-brand hover:underline">
                        {`Open #${mail.id}`}
                      </a>
                    ) : (
                      "In the outbox"
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {found.mails.length === 0 ? (
            <p className="py-4 text-sm text-ink-muted">{`No mail to ${search.to} in ${search.month}.`}</p>
          ) : null}
          {found.more ? <p className="py-2 text-sm text-ink-muted">{found.more}</p> : null}
          {found.unreadable ? <Banner tone="error">{found.unreadable}</Banner> : null}
        </section>
      ) : null}
      {opened ? (
        "problem" in opened ? (
          <Banner tone="error">{opened.problem}</Banner>
        ) : (
          <article aria-label={`Mail #${opened.id}`} className="space-y-2 rounded-md border border-border p-4">
            <h3 className="font-semibold">{opened.subject}</h3>
            <pre className="whitespace-pre-wrap break-words font-sans text-sm">{opened.text}</pre>
          </article>
        )
      ) : null}
    </div>
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
      {/* It scrolls sideways on a phone: focusable, so a keyboard scrolls it too, and named for a screen reader. */}
      <section
        aria-label="Mail queue"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is reached by keyboard to scroll it
        tabIndex={0}
        className="overflow-x-auto rounded-xl border border-border bg-surface p-4"
      >
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
      </section>
      <MailSearch {...loaderData} />
    </section>
  );
}

export function ErrorBoundary() {
  // A role without the mail queue gets the role message every back-office page gives; a failure says what failed.
  return <RouteError failed={{ title: "Failed to load the mail queue", text: null }} />;
}
