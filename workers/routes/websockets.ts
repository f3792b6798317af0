import { Hono } from "hono";
import type { AppBindings } from "../types";

/** Mount point for websocket upgrades (/ws/...); each route checks session and role before it forwards. */
export const websockets = new Hono<AppBindings>().all("*", (c) => c.json({ error: "Not found" }, 404));
