import { clientPayouts } from "~/server/chain/payouts.server";
import { latestWithStatus } from "~/server/ledger/reads.server";
import { createdAtCursor, keysetPage, parseCursor } from "~/server/paging.server";
import { requireClient } from "~/server/session.server";
import type { Route } from "./+types/dashboard.activity";

/** "Show All" on the dashboard: the client's approved activity, 20 rows a page, newest first. */
const PAGE_SIZE = 20;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireClient(request, context, { signedOutTo: "/" });
  const before = parseCursor(new URL(request.url).searchParams.get("before"));
  const { rows, next } = keysetPage(
    await latestWithStatus(context.db, user.id, "approved", PAGE_SIZE + 1, before),
    { after: before },
    PAGE_SIZE,
    createdAtCursor,
  );
  return { rows, nextCursor: next, payouts: await clientPayouts(context, user.id, rows) };
}
