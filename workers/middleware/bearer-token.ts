import type { MiddlewareHandler } from "hono";
import { constantTimeEqual } from "../../app/server/crypto.server";
import { readAppEnv } from "../../app/server/env.server";
import type { AppBindings } from "../types";

/** Server-to-server endpoints: `Authorization: Bearer <MAIL_API_TOKEN>`, compared in constant time. */
export function requireMailApiToken(): MiddlewareHandler<AppBindings> {
  return async function mailApiTokenMiddleware(c, next) {
    const expected = readAppEnv(c.env).MAIL_API_TOKEN;
    const header = c.req.header("Authorization") ?? "";
    const match = /^Bearer (.+)$/.exec(header);
    if (!match?.[1] || !(await constantTimeEqual(match[1], expected))) {
      return c.json({ error: "Unauthorized" }, 401, { "WWW-Authenticate": 'Bearer realm="mail"' });
    }
    return next();
  };
}
