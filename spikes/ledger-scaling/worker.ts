/**
 * The spike's Worker: a plain fetch handler over the two object classes and the databases, for the runner
 * (run.ts) to drive from Node. No auth, no sessions: it measures storage and consistency, not the app.
 */

import type { AdminLimits } from "./admin-limits.ts";
import type { ClientLedger } from "./client-ledger.ts";
import { createSchema, deskFannedOut, deskOnOne, seedDesk } from "./desk.ts";
import { type StorageEnv, shards } from "./env.ts";

export { AdminLimits } from "./admin-limits.ts";
export { ClientLedger } from "./client-ledger.ts";

interface SpikeEnv extends StorageEnv {
  CLIENT_LEDGER: DurableObjectNamespace<ClientLedger>;
  ADMIN_LIMITS: DurableObjectNamespace<AdminLimits>;
}

const ledgerOf = (env: SpikeEnv, clientId: string) => env.CLIENT_LEDGER.get(env.CLIENT_LEDGER.idFromName(clientId));
const int = (url: URL, name: string) => Number(url.searchParams.get(name) ?? 0);

async function route(request: Request, env: SpikeEnv): Promise<unknown> {
  const url = new URL(request.url);
  const client = url.searchParams.get("client") ?? "";
  switch (url.pathname) {
    case "/ping":
      return "ok";
    case "/setup":
      await createSchema([env.READ_MODEL, env.ONE, ...shards(env)]);
      return "ok";
    case "/deposit":
      return ledgerOf(env, client).deposit(client, int(url, "amount"));
    case "/withdraw":
      return ledgerOf(env, client).requestWithdrawal(client, int(url, "amount"), url.searchParams.get("key") ?? "");
    case "/state":
      return ledgerOf(env, client).state();
    case "/approve":
      return approve(env, url);
    case "/admin-sum": {
      const admin = url.searchParams.get("admin") ?? "";
      return env.ADMIN_LIMITS.get(env.ADMIN_LIMITS.idFromName(admin)).confirmedCents();
    }
    case "/read-model": {
      const prefix = `${url.searchParams.get("prefix") ?? ""}%`;
      const row = await env.READ_MODEL.prepare(
        `SELECT count(*) AS rows, max(pushed_at - written_at) AS max_lag_ms,
           (SELECT count(*) FROM transactions) AS all_rows
         FROM transactions WHERE client_id LIKE ?`,
      )
        .bind(prefix)
        .first();
      const size = await env.READ_MODEL.prepare("SELECT 1").run();
      return { ...row, bytes: size.meta.size_after };
    }
    case "/lags": {
      const prefix = `${url.searchParams.get("prefix") ?? ""}%`;
      const { results } = await env.READ_MODEL.prepare(
        "SELECT pushed_at - written_at AS lag FROM transactions WHERE client_id LIKE ? ORDER BY lag",
      )
        .bind(prefix)
        .all<{ lag: number }>();
      return results.map((row) => row.lag);
    }
    case "/desk/seed":
      await seedDesk(env.ONE, shards(env), int(url, "rows"), int(url, "clients"));
      return "ok";
    case "/desk/one":
      return deskOnOne(env.ONE);
    case "/desk/fanout":
      return deskFannedOut(shards(env));
    default:
      return undefined;
  }
}

/** An admin approves a waiting withdrawal: their 24-hour sum over all clients first, then the client's object. */
async function approve(env: SpikeEnv, url: URL): Promise<{ approved: boolean; reason?: string }> {
  const client = url.searchParams.get("client") ?? "";
  const admin = env.ADMIN_LIMITS.get(env.ADMIN_LIMITS.idFromName(url.searchParams.get("admin") ?? ""));
  const [id, amount] = [int(url, "id"), int(url, "amount")];
  const key = `${client}:${id}`;
  if (!(await admin.reserve(key, amount, int(url, "limit")))) return { approved: false, reason: "limit" };
  if (!(await ledgerOf(env, client).approveWithdrawal(id, amount, url.searchParams.get("admin") ?? ""))) {
    await admin.release(key);
    return { approved: false, reason: "not pending" };
  }
  await admin.confirm(key);
  return { approved: true };
}

export default {
  async fetch(request, env): Promise<Response> {
    const body = await route(request, env);
    return body === undefined ? new Response("Not found", { status: 404 }) : Response.json(body);
  },
} satisfies ExportedHandler<SpikeEnv>;
