import type { WorkerBindings } from "../app/server/env.server";

/** Hono's typed bindings and context variables for the Worker. */
export interface AppBindings {
  Bindings: WorkerBindings & { ENVIRONMENT?: string };
  Variables: { cspNonce: string };
}
