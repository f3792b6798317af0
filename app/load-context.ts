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

declare module "react-router" {
  interface AppLoadContext extends AppContext {}
}
