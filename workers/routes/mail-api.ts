import { Hono } from "hono";
import type { AppBindings } from "../types";

/** Mount point for the mail endpoints (/api/send-*-email), which answer JSON. */
export const mailApi = new Hono<AppBindings>().all("*", (c) => c.json({ error: "Not found" }, 404));
