/**
 * `npm run dev` as tests/scripts/dev.test.ts starts it: in this checkout or a copy of it, on its own ports and its own
 * throwaway state folder (never the developer's .wrangler/state), its output kept for the assertions.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ROOT } from "../../scripts/lib/local-d1.ts";

const START_TIMEOUT_MS = 300_000;
/** Never copied into a second checkout: what installs, builds and local state make. */
const NOT_IN_A_CHECKOUT = new Set(["node_modules", "build", ".wrangler", "test-results", "playwright-report", ".git"]);

/**
 * A second checkout of the project as it is on disk (uncommitted edits too), using this one's installed packages but
 * with a node_modules folder of its own, as its own install would have: Vite keeps its dependency cache there.
 */
export function secondCheckout(): string {
  const folder = mkdtempSync(join(tmpdir(), "dev-test-checkout-"));
  cpSync(ROOT, folder, {
    recursive: true,
    filter: (source) => !NOT_IN_A_CHECKOUT.has(relative(ROOT, source).split("/")[0] ?? ""),
  });
  mkdirSync(join(folder, "node_modules"));
  for (const entry of readdirSync(join(ROOT, "node_modules"))) {
    if (entry !== ".vite") symlinkSync(join(ROOT, "node_modules", entry), join(folder, "node_modules", entry));
  }
  return folder;
}

function listens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * A free port for a dev server, with its simulator's (+ 1000) free too, below the range the OS hands out: the
 * inspector's free port comes from that range and could otherwise be the one a server is about to take, which a
 * developer's 8787 never is.
 */
export async function devServerPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 10_000);
    if ((await listens(port)) && (await listens(port + 1000))) return port;
  }
}

/** Every process below `root`, from `ps`. */
export function descendants(root: number): number[] {
  const table = spawnSync("ps", ["-eo", "pid=,ppid="], { encoding: "utf8" }).stdout;
  const children = new Map<number, number[]>();
  for (const line of table.split("\n")) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (!pid || ppid === undefined) continue;
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** Running, not merely a zombie waiting for its new parent to reap it. */
export function alive(pid: number): boolean {
  const state = spawnSync("ps", ["-o", "stat=", "-p", String(pid)], { encoding: "utf8" }).stdout.trim();
  return state !== "" && !state.startsWith("Z");
}

export function commandOf(pid: number): string {
  return spawnSync("ps", ["-o", "args=", "-p", String(pid)], { encoding: "utf8" }).stdout.trim();
}

/** `what` names the wait in the timeout's message; a function is asked at the timeout (a server's latest output). */
export async function waitUntil<T>(
  what: string | (() => string),
  timeoutMs: number,
  check: () => Promise<T | undefined> | T | undefined,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    await sleep(250);
  }
  throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${typeof what === "string" ? what : what()}`);
}

/** A page's text, or undefined when the answer is not 200 or the connection closed (the Worker reloading). */
export async function textDuringReloads(url: string): Promise<string | undefined> {
  try {
    const response = await fetch(url);
    return response.status === 200 ? await response.text() : undefined;
  } catch {
    return undefined;
  }
}

/** One `npm run dev` on its own port and state folder. */
export class DevServer {
  readonly stateDir = mkdtempSync(join(tmpdir(), "dev-test-state-"));
  readonly origin: string;
  output = "";
  readonly process: ChildProcess;
  /** Every process it started, as last seen: killed in `kill` whatever happened. */
  seen = new Set<number>();

  readonly port: number;
  readonly checkout: string;

  constructor(port: number, checkout: string, env: Record<string, string> = {}) {
    this.port = port;
    this.checkout = checkout;
    this.origin = `http://127.0.0.1:${port}`;
    const { DEBUGGER_PORT: _debugger, MAIL_SIMULATOR_PORT: _simulator, ...inherited } = process.env;
    this.process = spawn("npm", ["run", "dev"], {
      cwd: checkout,
      env: { ...inherited, PORT: String(port), DEV_STATE_DIR: this.stateDir, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const keep = (chunk: Buffer) => {
      this.output += chunk.toString();
    };
    this.process.stdout?.on("data", keep);
    this.process.stderr?.on("data", keep);
  }

  get exited(): boolean {
    return this.process.exitCode !== null || this.process.signalCode !== null;
  }

  processes(): number[] {
    const pid = this.process.pid;
    if (!pid || this.exited) return [];
    const found = descendants(pid);
    for (const p of found) this.seen.add(p);
    return found;
  }

  /** The last lines it printed, for a failure's message: what went wrong is there, not in the assertion. */
  tail(): string {
    return `--- the last output of npm run dev on ${this.origin}:\n${this.output.slice(-4000)}`;
  }

  async healthy(timeoutMs = START_TIMEOUT_MS): Promise<void> {
    await waitUntil(
      () => `${this.origin}/healthz\n${this.tail()}`,
      timeoutMs,
      async () => {
        if (this.exited) throw new Error(`npm run dev exited early:\n${this.output.slice(-3000)}`);
        this.processes();
        try {
          return (await fetch(`${this.origin}/healthz`, { signal: AbortSignal.timeout(10_000) })).ok || undefined;
        } catch {
          return undefined;
        }
      },
    );
  }

  /** SIGTERM, as a process manager would send it; resolves once it has exited. */
  async terminate(timeoutMs = 30_000): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.process.once("exit", () => resolve()));
    this.process.kill("SIGTERM");
    await Promise.race([
      gone,
      sleep(timeoutMs, undefined, { ref: false }).then(() => Promise.reject(new Error("did not stop on SIGTERM"))),
    ]);
  }

  /** Last resort: nothing it started may outlive the tests. */
  kill(): void {
    this.processes();
    for (const pid of [this.process.pid, ...this.seen]) {
      if (!pid) continue;
      for (const target of [-pid, pid]) {
        try {
          process.kill(target, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }
    rmSync(this.stateDir, { recursive: true, force: true });
    if (this.checkout !== ROOT) rmSync(this.checkout, { recursive: true, force: true });
  }
}
