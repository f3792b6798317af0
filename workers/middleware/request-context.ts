import type { MiddlewareHandler } from "hono";
import { createDb } from "../../app/server/db.server";
import { readAppEnv } from "../../app/server/env.server";
import type { AppBindings } from "../types";

/**
 * Validates the configuration and opens the database once per request, for every handler after it to read
 * as `c.var.env` and `c.var.db`. A configuration that does not validate fails here, loudly, before any
 * handler runs.
 */
export function requestContext(): MiddlewareHandler<AppBindings> {
  return async function requestContextMiddleware(c, next) {
    c.set("env", readAppEnv(c.env));
    c.set("db", createDb(c.env.DB));
    await next();
  };
}
