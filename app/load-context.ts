import { RouterContextProvider } from "react-router";
import type { Db } from "~/server/db.server";
import type { AppEnv, WorkerBindings } from "~/server/env.server";

/**
 * What every loader and action receives as `context`, built once per request in workers/app.ts from Hono's
 * context: `db` and `env` as `requestContext()` set them, `cspNonce` as hono/secure-headers drew it.
 */
export interface AppContext {
  db: Db;
  env: AppEnv;
  bindings: WorkerBindings;
  ctx: ExecutionContext;
  cspNonce: string;
  /** Cloudflare's facts about the connection (country, city); absent locally. The router's own Request may lose it. */
  cf: { country?: unknown; city?: unknown } | null;
}

// `context` is a RouterContextProvider (React Router 8). React Router's documented migration from `AppLoadContext`:
// the provider carries our fields as its own properties, so loaders keep reading `context.db`. The route types
// see this through tsconfig.json's path for "react-router/internal".
declare module "react-router" {
  interface RouterContextProvider extends AppContext {}
}

/** The router's `context` for one request: a RouterContextProvider holding our fields (docs/decisions/0052). */
export function routerContext(app: AppContext): RouterContextProvider {
  return Object.assign(new RouterContextProvider(), app);
}
