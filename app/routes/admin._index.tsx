import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { DeskCounts } from "~/components/admin/desk-counts";
import { PendingList } from "~/components/admin/pending-list";
import { UserManagement } from "~/components/admin/user-management";
import { WalletsModal } from "~/components/admin/wallets-modal";
import { pageMeta, RouteError } from "~/components/route-error";
import { ADMIN_MESSAGES } from "~/lib/schemas/admin";
import { useFeed, useThrottledRevalidate } from "~/lib/use-feed";
import { adminDesk, deleteClientData, parseClientCursor, updateDepositWallets } from "~/server/admin.server";
import { deliverInBackground } from "~/server/mail/outbox.server";
import { disconnectUser, publish } from "~/server/realtime.server";
import { requireAdmin } from "~/server/session.server";

export const meta: MetaFunction = pageMeta(() => [{ title: "Admin Panel" }]);

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  const url = new URL(request.url);
  const search = url.searchParams.get("q")?.slice(0, 100) ?? "";
  const desk = await adminDesk(context.db, { search, after: parseClientCursor(url.searchParams.get("after")) });
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
    const result = await updateDepositWallets(context.db, admin, submitted);
    if (!result.ok) return reply("wallets", "error", result.error, 400);
    if ("emailIds" in result && result.emailIds)
      deliverInBackground(context.ctx, context.db, context.env, result.emailIds);
    return reply("wallets", "success", `Updated ${"updated" in result ? result.updated : 0} wallet(s) successfully`);
  }
  if (form.get("intent") === "delete") {
    const userId = String(form.get("userId") ?? "");
    const result = await deleteClientData(context.db, admin, userId);
    if (!result.ok) return reply("delete", "error", result.error, 400);
    publish(context, userId, { type: "client.deleted", userId });
    disconnectUser(context, userId);
    return reply("delete", "success", ADMIN_MESSAGES.deleted);
  }
  return reply("delete", "error", "Unknown action", 400);
}

export default function AdminPanel() {
  const { counts, pending, clients, wallets, search } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  // The pending list and Active Alerts follow new requests and decisions live.
  const refresh = useThrottledRevalidate();
  useFeed("/ws/admin", { onEvent: refresh, onReconnect: refresh });

  return (
    <section className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">Admin Panel</h1>
        <div className="flex gap-3">
          <Link
            to="/admin/audit"
            className="rounded-md border border-border px-4 py-2 font-medium hover:bg-surface-raised"
          >
            Audit Log
          </Link>
          <WalletsModal wallets={wallets} reply={reply} />
        </div>
      </div>
      <DeskCounts counts={counts} />
      <PendingList pending={pending} />
      <UserManagement clients={clients.clients} next={clients.next} search={search} reply={reply} />
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
