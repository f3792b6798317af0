import type { Db } from "../app/server/db.server";
import type { AppEnv, WorkerBindings } from "../app/server/env.server";

/**
 * Hono's typed bindings and context variables for the Worker. `env` (the validated configuration) and `db`
 * are set once per request by `requestContext()`; the CSP nonce is hono's `secureHeadersNonce`.
 */
export interface AppBindings {
  Bindings: WorkerBindings & { ENVIRONMENT?: string };
  Variables: {
    env: AppEnv;
    db: Db;
    /** The request's D1 bookmark after its queries so far (null before any). */
    d1Bookmark: () => string | null;
  };
}
