/**
 * `npm run dev`: build, migrate and seed the local D1, then serve on http://127.0.0.1:8787 (PORT to
 * override) with the Remix build rebuilding on change and wrangler reloading the Worker.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { applyMigrations, BIN, ensureDevVars, quietEnv, ROOT, run } from "./lib/local-d1.ts";
import { printDemoLogins, seedIfEmpty } from "./seed.ts";

const port = process.env.PORT ?? "8787";
const inspectorPort = process.env.INSPECTOR_PORT ?? "9229";

ensureDevVars();
console.log("Building…");
run(join(BIN, "remix"), ["build"]);
console.log("Applying local D1 migrations…");
applyMigrations();
if (await seedIfEmpty()) console.log("Seeded demo data.");

const children: ChildProcess[] = [];
function start(command: string, args: string[]) {
  // Each child leads its own process group, so stopping it also stops workerd underneath.
  const child = spawn(command, args, { cwd: ROOT, env: quietEnv, stdio: "inherit", detached: true });
  children.push(child);
  child.on("exit", (code) => {
    if (!stopping) {
      console.error(`${command} exited (${code}); stopping.`);
      stop(1);
    }
  });
}

let stopping = false;
function stop(code = 0) {
  stopping = true;
  for (const child of children) {
    if (child.pid) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
  }
  process.exit(code);
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

start(join(BIN, "remix"), ["watch"]);
start(join(BIN, "wrangler"), ["dev", "--ip", "127.0.0.1", "--port", port, "--inspector-port", inspectorPort]);
printDemoLogins();
console.log(`Serving on http://127.0.0.1:${port}`);
