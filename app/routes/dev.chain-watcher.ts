import { runChainWatcher } from "~/server/chain/watcher.server";
import { isLoopbackRequest, notFound } from "~/server/http.server";
import type { Route } from "./+types/dev.chain-watcher";

/**
 * Development only: one run of the deposit watcher now, rather than at the next minute's cron, so that a payment
 * made with `npm run chain` is seen (and, once mined, credited) at once: `curl -X POST localhost:$PORT/dev/chain-watcher`.
 * The browser tests' server has no cron; their deposit test asks here. Nothing on any other environment or machine.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (context.env.ENVIRONMENT !== "development" || !isLoopbackRequest(request)) notFound();
  const runs = await runChainWatcher(context);
  return Response.json(
    runs.map(({ network, scan, credited, held, error }) => ({
      network,
      height: scan?.height ?? null,
      tip: scan?.tip ?? null,
      credited,
      held,
      ...(error ? { error } : {}),
    })),
  );
}

export function loader() {
  notFound();
}
