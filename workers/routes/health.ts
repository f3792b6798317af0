import { Hono } from "hono";
import type { AppBindings } from "../types";

/** Liveness plus one D1 round trip: a load balancer should stop sending traffic when the database is gone. */
export const health = new Hono<AppBindings>().get("/", async (c) => {
  const started = Date.now();
  try {
    await c.var.db.$client.prepare("SELECT 1").first();
    return c.json({ status: "ok", db: "ok", dbMs: Date.now() - started }, 200, { "Cache-Control": "no-store" });
  } catch (error) {
    console.error("healthz: D1 round trip failed", error);
    return c.json({ status: "error", db: "unreachable" }, 503, { "Cache-Control": "no-store" });
  }
});
