/**
 * What `npm run dev` does before workerd opens the local state (scripts/lib/vite-dev-loop.ts runs it once per
 * process): the local D1's migrations and, on an empty database, the demo data, then the demo logins.
 *
 * Its own process, because the seed imports the app's modules, which the bundle Vite makes of its config cannot.
 * DEV_STATE_DIR: the state folder, as the dev server uses it (.wrangler/state by default).
 */
import { join, resolve } from "node:path";
import { withFolderLock } from "./lib/folder-lock.ts";
import { applyMigrations, type D1Target, ROOT } from "./lib/local-d1.ts";
import { printDemoLogins, seedIfEmpty } from "./seed.ts";

const target: D1Target = process.env.DEV_STATE_DIR ? { persistTo: resolve(process.env.DEV_STATE_DIR) } : {};

// Another dev server started at the same moment on the same state folder would apply the same migrations.
await withFolderLock(
  target.persistTo ?? join(ROOT, ".wrangler", "state"),
  async () => {
    console.log("Applying local D1 migrations…");
    applyMigrations(target);
    if (await seedIfEmpty(target)) console.log("Seeded demo data.");
  },
  () => console.log("Waiting for another npm run dev to finish setting up the same local database…"),
);
printDemoLogins();
