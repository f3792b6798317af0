/**
 * What a command needs beyond its input: the request's database, configuration and runtime. A module of its own
 * (re-exported by commands.server.ts), so that what runs after a commit (the monitoring rules) can name it without
 * importing the commands module back.
 */
import type { Db } from "./db.server";
import type { AppEnv, WorkerBindings } from "./env.server";

export interface CommandContext {
  db: Db;
  env: AppEnv;
  bindings: WorkerBindings;
  ctx: ExecutionContext;
}
