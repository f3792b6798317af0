import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams, useSubmit } from "@remix-run/react";
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { MailFailureBanner } from "~/components/admin/mail-failure-banner";
import { Banner } from "~/components/form";
import { Modal } from "~/components/modal";
import { formatCents, formatLongDate } from "~/lib/format";
import { ADMIN_MESSAGES } from "~/lib/schemas/admin";
import { DELETE_ERROR_MS, SUCCESS_MESSAGE_MS, WALLET_MODAL_CLOSE_MS } from "~/lib/timers";
import { useFeed, useThrottledRevalidate } from "~/lib/use-feed";
import { deleteClient } from "~/server/admin/deletion.server";
import { adminDesk } from "~/server/admin/desk.server";
import { saveDepositWallets } from "~/server/admin/wallets.server";
import { parseUserCursor } from "~/server/paging.server";
import { requireAdmin } from "~/server/session.server";

export const meta: MetaFunction = () => [{ title: "Admin Panel" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const url = new URL(request.url);
  const search = url.searchParams.get("q")?.slice(0, 100) ?? "";
  const desk = await adminDesk(context.db, { search, after: parseUserCursor(url.searchParams.get("after")) });
  return { ...desk, search };
}

type Reply = { intent: "wallets" | "delete"; tone: "success" | "error"; message: string; at: number };

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const form = await request.formData();
  const reply = (intent: Reply["intent"], tone: Reply["tone"], message: string, status = 200) =>
    data<Reply>({ intent, tone, message, at: Date.now() }, { status });

  if (form.get("intent") === "wallets") {
    const submitted = [...form.entries()]
      .filter(([name]) => name.startsWith("wallet-"))
      .map(([name, value]) => ({ id: Number(name.slice("wallet-".length)), walletAddress: String(value) }));
    const result = await saveDepositWallets(context, admin, submitted);
    if (!result.ok) return reply("wallets", "error", result.error, result.status);
    return reply("wallets", "success", `Updated ${result.updated} wallet(s) successfully`);
  }
  if (form.get("intent") === "delete") {
    const userId = String(form.get("userId") ?? "");
    const result = await deleteClient(context, admin, userId);
    if (!result.ok) return reply("delete", "error", result.error, result.status);
    return reply("delete", "success", ADMIN_MESSAGES.deleted);
  }
  return reply("delete", "error", "Unknown action", 400);
}

const dateOnly = (epochMs: number) => formatLongDate(epochMs);

function useTimedMessage(reply: Reply | undefined, intent: Reply["intent"]) {
  const [shown, setShown] = useState<Reply | null>(null);
  const relevant = reply?.intent === intent ? reply : undefined;
  const stamp = relevant?.at;
  // biome-ignore lint/correctness/useExhaustiveDependencies: one timer per reply, identified by its stamp
  useEffect(() => {
    if (!relevant) return;
    setShown(relevant);
    const timer = setTimeout(() => setShown(null), relevant.tone === "success" ? SUCCESS_MESSAGE_MS : DELETE_ERROR_MS);
    return () => clearTimeout(timer);
  }, [stamp]);
  return shown;
}

function WalletsModal({
  wallets,
  reply,
}: {
  wallets: Array<{ id: number; walletType: string; walletAddress: string }>;
  reply?: Reply;
}) {
  const [open, setOpen] = useState(false);
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "wallets";
  const message = reply?.intent === "wallets" ? reply : undefined;

  // SPEC: the modal closes 1.5 s after a successful save. Keyed on the reply's stamp, not its identity: live
  // updates reload the page's data (and may hand back an equal but new reply object) while the timer runs.
  const savedAt = message?.tone === "success" ? message.at : null;
  const savedText = message?.message;
  useEffect(() => {
    if (savedAt === null) return;
    if (savedText) toast.success(savedText);
    const timer = setTimeout(() => setOpen(false), WALLET_MODAL_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [savedAt, savedText]);

  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="rounded-md bg-brand-strong px-4 py-2 font-semibold text-white hover:bg-brand"
      >
        Update Deposit Wallets
      </button>
      <Modal open={open} title="Deposit Wallets" onClose={() => setOpen(false)}>
        {wallets.length === 0 ? (
          <p className="text-sm text-ink-muted">No deposit wallets found.</p>
        ) : (
          <Form method="post" className="space-y-4" key={message?.at}>
            {message && !saving ? <Banner tone={message.tone}>{message.message}</Banner> : null}
            {wallets.map((wallet) => (
              <div key={wallet.id}>
                <label htmlFor={`wallet-${wallet.id}`} className="block text-sm font-medium">
                  {wallet.walletType}
                </label>
                <input
                  id={`wallet-${wallet.id}`}
                  name={`wallet-${wallet.id}`}
                  defaultValue={wallet.walletAddress}
                  spellCheck={false}
                  className="mt-1 block w-full rounded-md border border-border bg-canvas px-3 py-2 font-mono text-sm"
                />
              </div>
            ))}
            <button
              type="submit"
              name="intent"
              value="wallets"
              disabled={saving}
              className="w-full rounded-md bg-brand-strong px-4 py-2 font-semibold text-white hover:bg-brand disabled:opacity-60"
            >
              {saving ? "Saving..." : "Save Changes"}
            </button>
          </Form>
        )}
      </Modal>
    </>
  );
}

export default function AdminPanel() {
  const { counts, pending, clients, wallets, search, mailTrouble } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const deleteMessage = useTimedMessage(reply, "delete");
  const submit = useSubmit();
  const [params] = useSearchParams();
  // The pending list and Active Alerts follow new requests and decisions live.
  const refresh = useThrottledRevalidate();
  useFeed("/ws/admin", { onEvent: refresh, onReconnect: refresh });

  return (
    <section className="space-y-6">
      <MailFailureBanner trouble={mailTrouble} />
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">Admin Panel</h1>
        <div className="flex gap-3">
          <Link
            to="/admin/audit"
            className="rounded-md border border-border px-4 py-2 font-medium hover:bg-surface-raised"
          >
            Audit Log
          </Link>
          <Link
            to="/admin/mail"
            className="rounded-md border border-border px-4 py-2 font-medium hover:bg-surface-raised"
          >
            Mail
          </Link>
          <WalletsModal wallets={wallets} reply={reply} />
        </div>
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        <article className="rounded-xl border border-border bg-surface p-5">
          <h2 className="text-sm text-ink-muted">Total Users</h2>
          <p className="mt-1 text-3xl font-semibold" data-testid="total-users">
            {counts.totalUsers}
          </p>
        </article>
        <article className="rounded-xl border border-border bg-surface p-5">
          <h2 className="text-sm text-ink-muted">Active Alerts</h2>
          <p className="mt-1 text-3xl font-semibold text-pending" data-testid="active-alerts">
            {counts.activeAlerts}
          </p>
        </article>
      </div>

      <details open className="rounded-xl border border-border bg-surface p-5">
        <summary className="cursor-pointer text-lg font-semibold">Pending Transactions</summary>
        {pending.length === 0 ? (
          <p className="mt-4 text-sm text-ink-muted">No pending transactions found.</p>
        ) : (
          <ul className="mt-4 divide-y divide-border">
            {pending.map((group) => (
              <li key={group.userId} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <Link to={`/user/${group.userId}`} className="font-medium text-brand hover:underline">
                  {group.name}
                </Link>
                <span className="text-ink-muted">
                  {group.count} pending · in {formatCents(group.incomingCents)} · out {formatCents(group.outgoingCents)}{" "}
                  · since {dateOnly(group.oldest)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </details>

      <article className="rounded-xl border border-border bg-surface p-5">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 className="text-lg font-semibold">User Management</h2>
          <Form method="get" role="search" className="flex gap-2">
            <label htmlFor="client-search" className="sr-only">
              Search clients by name or email
            </label>
            <input
              id="client-search"
              name="q"
              type="search"
              defaultValue={search}
              placeholder="Search by name or email"
              className="rounded-md border border-border bg-canvas px-3 py-2 text-sm"
            />
            <button type="submit" className="rounded-md border border-border px-3 py-2 text-sm hover:bg-surface-raised">
              Search
            </button>
          </Form>
        </div>
        {deleteMessage ? (
          <div className="mt-4">
            <Banner tone={deleteMessage.tone}>{deleteMessage.message}</Banner>
          </div>
        ) : null}
        <div className="mt-4 overflow-x-auto">
          <table className="w-full min-w-[40rem] text-left text-sm">
            <thead className="text-ink-muted">
              <tr>
                <th scope="col" className="py-2 pr-4 font-medium">
                  User
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Status
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Last Activity
                </th>
                <th scope="col" className="py-2 font-medium">
                  Actions
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {clients.clients.map((client) => (
                <tr key={client.id}>
                  <td className="py-3 pr-4">
                    <div className="flex items-center gap-3">
                      <span
                        aria-hidden="true"
                        className="flex h-9 w-9 items-center justify-center rounded-full bg-surface-raised font-semibold"
                      >
                        {client.name.charAt(0).toUpperCase()}
                      </span>
                      <div>
                        <Link to={`/user/${client.id}`} className="font-medium text-brand hover:underline">
                          {client.name}
                        </Link>
                        <p className="text-xs text-ink-muted">Since {dateOnly(client.joinedAt)}</p>
                      </div>
                    </div>
                  </td>
                  <td className="py-3 pr-4">
                    <span className={client.status === "active" ? "text-success" : "text-danger"}>{client.status}</span>
                    {client.suspended ? <span className="ml-2 text-xs text-danger">(suspended)</span> : null}
                  </td>
                  <td className="py-3 pr-4">{client.lastActivityAt ? dateOnly(client.lastActivityAt) : "N/A"}</td>
                  <td className="py-3">
                    <button
                      type="button"
                      className="rounded-md border border-danger/60 px-3 py-1 text-danger hover:bg-danger/10 disabled:opacity-50"
                      disabled={!client.hasProfile}
                      aria-label={`Delete ${client.name}'s data`}
                      onClick={() => {
                        if (window.confirm(ADMIN_MESSAGES.deleteConfirm)) {
                          submit({ intent: "delete", userId: client.id }, { method: "post" });
                        }
                      }}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {clients.clients.length === 0 ? <p className="py-4 text-sm text-ink-muted">No clients found.</p> : null}
        </div>
        <div className="mt-4 flex gap-3 text-sm">
          {params.get("after") ? (
            <Link to={search ? `?q=${encodeURIComponent(search)}` : "."} className="text-brand hover:underline">
              First page
            </Link>
          ) : null}
          {clients.next ? (
            <Link
              to={`?${new URLSearchParams({ ...(search ? { q: search } : {}), after: clients.next })}`}
              className="text-brand hover:underline"
            >
              Next page
            </Link>
          ) : null}
        </div>
      </article>
    </section>
  );
}
