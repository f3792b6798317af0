import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Every test file starts from an empty D1 with all migrations applied (idempotent within a file).
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
