import { Banner } from "~/components/form";
import { NotificationList } from "~/components/notifications/notification-list";
import { pageMeta, RouteError } from "~/components/route-error";
import { parseRowId } from "~/lib/row-id";
import { useFeed, useThrottledRevalidate } from "~/lib/use-feed";
import { readForm } from "~/server/form.server";
import { dispatchIntent } from "~/server/intents.server";
import {
  markNotificationsRead,
  NOTIFICATION_MESSAGES,
  notificationsPage,
} from "~/server/notifications/notifications.server";
import { requireClient } from "~/server/session.server";
import type { Route } from "./+types/notifications";

export const meta: Route.MetaFunction = pageMeta(() => [{ title: "Notifications" }]);

/** The client's notifications, newest first, 20 a page by keyset (docs/product.md, "Notifications"). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireClient(request, context);
  const url = new URL(request.url);
  const page = await notificationsPage(context.db, user.id, {
    after: url.searchParams.get("after"),
    before: url.searchParams.get("before"),
  });
  return { accountId: user.id, ...page };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireClient(request, context);
  const formData = await readForm(request);
  return dispatchIntent(formData, {
    read: async (reply) => {
      const id = String(formData.get("id") ?? "");
      const notificationId = parseRowId(id);
      if (notificationId === null) return reply.refused({ error: NOTIFICATION_MESSAGES.notFound, status: 404 });
      const result = await markNotificationsRead(context, user.id, { id: notificationId });
      return result.ok ? reply.done(NOTIFICATION_MESSAGES.markedRead) : reply.refused(result);
    },
    "read-all": async (reply) => {
      await markNotificationsRead(context, user.id, "all");
      return reply.done(NOTIFICATION_MESSAGES.allMarkedRead);
    },
  });
}

export default function Notifications({ loaderData, actionData: result }: Route.ComponentProps) {
  const { accountId, ...page } = loaderData;
  // A decision or an entry while the list is open brings its notification in without a reload.
  const refresh = useThrottledRevalidate();
  useFeed(`/ws/clients/${accountId}`, { onEvent: refresh, onReconnect: refresh });
  return (
    <section className="mx-auto max-w-3xl space-y-6">
      <h1 className="text-3xl font-bold">Notifications</h1>
      {result ? <Banner tone={result.tone}>{result.message}</Banner> : null}
      <NotificationList {...page} />
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
