import type { D1Migration } from "@cloudflare/vitest-pool-workers";
import type { WorkerBindings } from "../app/server/env.server";

declare global {
  namespace Cloudflare {
    interface Env extends WorkerBindings {
      TEST_MIGRATIONS: D1Migration[];
      ENVIRONMENT: string;
      SESSION_SECRET: string;
      MAIL_API_TOKEN: string;
    }
    interface GlobalProps {
      mainModule: typeof import("../workers/app");
    }
  }
}
