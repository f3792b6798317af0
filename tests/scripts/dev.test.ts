/**
 * `npm run dev` (scripts/dev.ts) as a developer runs it, and the supervisor it shares with the browser tests'
 * server (scripts/lib/supervise.ts). Run with `npm run test:scripts` (node's test runner, Node 24).
 *
 * Two dev servers run side by side, as two checkouts of the project would (this one and a copy of it), each on its
 * own ports and its own throwaway state folder (never the developer's .wrangler/state): both must answer, the
 * scheduled handler must run under dev, a crashed wrangler must come back on the same port with the same data, an
 * edit to a route file must be served (page and browser module) after the rebuild, and SIGTERM must leave no process
 * behind. Each checkout builds into its own build/; one checkout is one dev server.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { after, before, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { withFolderLock } from "../../scripts/lib/folder-lock.ts";
import { freePort } from "../../scripts/lib/free-port.ts";
import { executeStatements, ROOT } from "../../scripts/lib/local-d1.ts";
import { signInCookie } from "../../scripts/lib/local-server.ts";
import { supervise } from "../../scripts/lib/supervise.ts";
import { DEMO_ADMIN, DEMO_SECOND_ADMIN, demoLoginLines } from "../../scripts/seed.ts";

const START_TIMEOUT_MS = 180_000;
/** Never copied into a second checkout: what installs, builds and local state make. */
const NOT_IN_A_CHECKOUT = new Set(["node_modules", "build", ".wrangler", "test-results", "playwright-report", ".git"]);

/** A second checkout of the project as it is on disk (uncommitted edits too), sharing this one's installed packages. */
function secondCheckout(): string {
  const folder = mkdtempSync(join(tmpdir(), "dev-test-checkout-"));
  cpSync(ROOT, folder, {
    recursive: true,
    filter: (source) => !NOT_IN_A_CHECKOUT.has(relative(ROOT, source).split("/")[0] ?? ""),
  });
  symlinkSync(join(ROOT, "node_modules"), join(folder, "node_modules"));
  return folder;
}

/** Every process below `root`, from `ps`. */
function descendants(root: number): number[] {
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
function alive(pid: number): boolean {
  const state = spawnSync("ps", ["-o", "stat=", "-p", String(pid)], { encoding: "utf8" }).stdout.trim();
  return state !== "" && !state.startsWith("Z");
}

function commandOf(pid: number): string {
  return spawnSync("ps", ["-o", "args=", "-p", String(pid)], { encoding: "utf8" }).stdout.trim();
}

/** `what` names the wait in the timeout's message; a function is asked at the timeout (a server's latest output). */
async function waitUntil<T>(
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

/** A page's text, or undefined when the answer is not 200 or the connection closed (the server reloading). */
async function textDuringReloads(url: string): Promise<string | undefined> {
  try {
    const response = await fetch(url);
    return response.status === 200 ? await response.text() : undefined;
  } catch {
    return undefined;
  }
}

/** One `npm run dev` on its own port and state folder, its output kept for the assertions. */
class DevServer {
  readonly stateDir = mkdtempSync(join(tmpdir(), "dev-test-state-"));
  readonly port: number;
  readonly origin: string;
  output = "";
  readonly process: ChildProcess;
  /** Every process it started, as last seen: killed in `after` whatever happened. */
  seen = new Set<number>();

  readonly checkout: string;

  constructor(port: number, checkout: string, env: Record<string, string> = {}) {
    this.port = port;
    this.checkout = checkout;
    this.origin = `http://127.0.0.1:${port}`;
    const { DEBUGGER_PORT: _debugger, MAIL_SIMULATOR_PORT: _simulator, ...inherited } = process.env;
    this.process = spawn(process.execPath, ["scripts/dev.ts"], {
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

  waitForOutput(pattern: RegExp, from: number, timeoutMs: number): Promise<RegExpMatchArray> {
    return waitUntil(`${pattern} in the output`, timeoutMs, () => this.output.slice(from).match(pattern) ?? undefined);
  }

  /** SIGTERM, as Ctrl-C or a process manager would; resolves once it has exited. */
  async terminate(timeoutMs = 30_000): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.process.once("exit", () => resolve()));
    this.process.kill("SIGTERM");
    await Promise.race([
      gone,
      sleep(timeoutMs, undefined, { ref: false }).then(() => Promise.reject(new Error("did not stop on SIGTERM"))),
    ]);
  }

  /** Last resort for `after`: nothing it started may outlive the tests. */
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

describe("npm run dev", { timeout: 400_000 }, () => {
  let first: DevServer;
  let second: DevServer;

  before(async () => {
    const [firstPort, secondPort] = [await freePort(), await freePort()];
    // Both at once, as two checkouts side by side would be; the first fires the scheduled handler every 2 s.
    first = new DevServer(firstPort, ROOT, { DEV_CRON_INTERVAL_MS: "2000" });
    second = new DevServer(secondPort, secondCheckout());
  });

  after(() => {
    first?.kill();
    second?.kill();
  });

  test("two dev servers on one machine both answer, neither collides on a port", async () => {
    await Promise.all([first.healthy(), second.healthy()]);
    for (const server of [first, second]) {
      const tail = server.tail();
      assert.doesNotMatch(server.output, /wrangler dev exited/, tail);
      // The build watcher listens on no port: any collision fails.
      const collisions = server.output.split("\n").filter((line) => /address already in use/i.test(line));
      assert.deepEqual(collisions, [], tail);
      assert.doesNotMatch(server.output, /build watcher exited/, tail);
    }
  });

  test("prints both demo admins' logins with their two-factor keys, and the second admin signs in with its own", async () => {
    for (const server of [first, second]) {
      for (const line of demoLoginLines())
        assert.ok(server.output.includes(line), `missing "${line}"\n${server.tail()}`);
    }
    assert.match(
      first.output,
      /admin2 {2}admin2@example\.com \/ demo-admin2-2026 \/ two-factor key DEMO SECO NDAD MINT/,
    );
    const cookie = await signInCookie(
      first.origin,
      DEMO_SECOND_ADMIN.email,
      DEMO_SECOND_ADMIN.password,
      DEMO_SECOND_ADMIN.totpSecret,
    );
    const admin = await fetch(`${first.origin}/admin`, { headers: { Cookie: cookie }, redirect: "manual" });
    assert.equal(admin.status, 200);
  });

  test("the scheduled handler runs under dev and delivers a pending outbox notice to dev's mail simulator", async () => {
    const from = first.output.length;
    executeStatements(
      [
        `INSERT INTO email_outbox (to_address, template, payload) VALUES ('cron-check@example.invalid', 'welcome', '{"name":"Cron Check"}')`,
      ],
      { persistTo: first.stateDir },
    );
    // The handler logs its outcomes after a run that handled something; the only due notice is the one just
    // written, so wait for a run that reports it.
    const handled = await waitUntil("a scheduled run that handled the notice", 30_000, () => {
      // Every outcome's count, whatever outcomes the outbox reports (sent, captured, retry, held, failed).
      const runs = [...first.output.slice(from).matchAll(/outbox \{([^}]*)\}/g)];
      const counts = runs.map((run) =>
        [...(run[1] ?? "").matchAll(/\w+: (\d+)/g)].reduce((sum, count) => sum + Number(count[1]), 0),
      );
      return counts.find((count) => count > 0);
    });
    assert.equal(handled, 1);
    assert.doesNotMatch(first.output, /cron: /, "the timer reported a failure");
    // Sent, not captured: through the Resend SDK to the simulator this dev server runs on its port + 1000.
    const simulator = (await (await fetch(`http://127.0.0.1:${first.port + 1000}/_simulator`)).json()) as {
      mails: Array<{ to: string[] }>;
    };
    assert.ok(
      simulator.mails.some((mail) => mail.to.includes("cron-check@example.invalid")),
      `the mail simulator did not get the notice\n${first.tail()}`,
    );
  });

  test("an edit to a route file is served after the rebuild, the page and its browser module alike", async () => {
    const routeFile = join(ROOT, "app", "routes", "about-us.tsx");
    const original = readFileSync(routeFile, "utf8");
    const marker = `About Us (edited ${Date.now()})`;
    assert.ok(original.includes('<Article title="About Us"'), "the route file changed: pick another line to edit");
    try {
      writeFileSync(routeFile, original.replace('<Article title="About Us"', `<Article title="${marker}"`));
      // wrangler reloads once for the browser's files and once for the server build: a request that meets a reload
      // may see its connection closed, which is the reload, not the answer, so it is asked again.
      const page = await waitUntil("the edited page", 120_000, async () => {
        const html = await textDuringReloads(`${first.origin}/about-us`);
        return html?.includes(marker) ? html : undefined;
      });
      // The server's manifest names the browser's new module for the route, and it is there, edited too:
      // hydration would otherwise fail or render the old text.
      const moduleUrl = /\/assets\/about-us-[\w-]+\.js/.exec(page)?.[0];
      assert.ok(moduleUrl, "the page names no browser module for /about-us");
      const module = await waitUntil("the route's browser module", 30_000, () =>
        textDuringReloads(`${first.origin}${moduleUrl}`),
      );
      assert.ok(module.includes(marker), "the browser module is the old one");
      // The other checkout's server builds its own files: an edit here is not its business.
      const elsewhere = await waitUntil("the other checkout's page", 30_000, () =>
        textDuringReloads(`${second.origin}/about-us`),
      );
      assert.ok(!elsewhere.includes(marker), "the other checkout serves this checkout's edit");
    } finally {
      writeFileSync(routeFile, original);
    }
    // It rebuilds again for the undoing: later tests may only start once it serves the original page.
    await waitUntil(`${first.origin} to serve the original page again`, 120_000, async () => {
      const html = await textDuringReloads(`${first.origin}/about-us`);
      return html?.includes("About Us") && !html.includes(marker) ? true : undefined;
    });
  });

  test("a crashed wrangler comes back on the same port with the same database", async () => {
    await second.healthy();
    const cookie = await signInCookie(second.origin, DEMO_ADMIN.email, DEMO_ADMIN.password, DEMO_ADMIN.totpSecret);
    const admin = () => fetch(`${second.origin}/admin`, { headers: { Cookie: cookie }, redirect: "manual" });
    assert.equal((await admin()).status, 200);

    const wrangler = second.processes().find((pid) => /wrangler-dist\/cli\.js dev/.test(commandOf(pid)));
    assert.ok(wrangler, "no wrangler process under npm run dev");
    const from = second.output.length;
    process.kill(wrangler, "SIGKILL");

    await second.waitForOutput(
      /wrangler dev exited \(.*\); restarting on http:\/\/127\.0\.0\.1:\d+ with the same database/,
      from,
      15_000,
    );
    await second.healthy(90_000);
    // The session written before the crash is still there: same database.
    assert.equal((await admin()).status, 200);
  });

  test("SIGTERM stops wrangler, workerd and the build watcher, leaving no process behind", async () => {
    const started = [...first.processes(), ...second.processes()];
    const commands = started.map(commandOf).join("\n");
    assert.match(commands, /workerd/);
    assert.match(commands, /scripts\/build-watch\.ts/);
    await Promise.all([first.terminate(), second.terminate()]);
    const left = await waitUntil("every process to stop", 10_000, () => {
      const running = started.filter(alive);
      return running.length === 0 ? [] : undefined;
    }).catch(() => started.filter(alive));
    assert.deepEqual(
      left.map((pid) => `${pid} ${commandOf(pid)}`),
      [],
      "processes left after SIGTERM",
    );
  });
});

describe("the supervisor (scripts/lib/supervise.ts)", { timeout: 60_000 }, () => {
  test("backs off and gives up after several quick failures, saying so", async () => {
    const lines: string[] = [];
    const supervised = supervise({
      name: "failing tool",
      command: process.execPath,
      args: () => ["-e", "process.exit(3)"],
      stdio: "ignore",
      note: (line) => lines.push(line),
      policy: { quickExitMs: 10_000, maxQuickExits: 3, firstDelayMs: 50, maxDelayMs: 150 },
    });
    const outcome = await supervised.finished;
    assert.equal(outcome.reason, "gave-up");
    assert.deepEqual(lines.slice(0, 2), [
      "failing tool exited (code 3); restarting in 0.1 s (restart 1).",
      "failing tool exited (code 3); restarting in 0.15 s (restart 2).",
    ]);
    assert.match(
      lines[2] ?? "",
      /^failing tool exited 3 times in a row within 10 s of starting \(last: code 3\); giving up\./,
    );
    assert.equal(lines.length, 3);
  });

  test("what it started does not outlive a supervising script that is killed", async () => {
    const supervisor = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { supervise } from ${JSON.stringify(join(ROOT, "scripts/lib/supervise.ts"))};
         const s = supervise({ name: "sleeper", command: process.execPath, args: () => ["-e", "setInterval(() => {}, 1000)"], stdio: "ignore" });
         const wait = setInterval(() => { if (s.pid()) { console.log(s.pid()); clearInterval(wait); } }, 20);`,
      ],
      { stdio: ["ignore", "pipe", "inherit"], detached: true },
    );
    let printed = "";
    supervisor.stdout?.on("data", (chunk: Buffer) => {
      printed += chunk.toString();
    });
    const sleeper = await waitUntil("the supervised process", 10_000, () => Number(printed.trim()) || undefined);
    try {
      assert.ok(alive(sleeper));
      supervisor.kill("SIGKILL");
      await waitUntil("the supervised process to be stopped", 10_000, () => !alive(sleeper) || undefined);
    } finally {
      for (const pid of [sleeper, supervisor.pid ?? 0]) {
        try {
          if (pid) process.kill(-pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }
  });
});

describe("the setup lock (scripts/lib/folder-lock.ts)", { timeout: 30_000 }, () => {
  test("two dev servers setting up one state folder take turns", async () => {
    const folder = mkdtempSync(join(tmpdir(), "dev-test-lock-"));
    const events: string[] = [];
    const setUp = (name: string) =>
      withFolderLock(folder, async () => {
        events.push(`${name} in`);
        await sleep(300);
        events.push(`${name} out`);
      });
    try {
      await Promise.all([setUp("a"), setUp("b")]);
      assert.deepEqual(events, ["a in", "a out", "b in", "b out"]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test("a lock left by a process that died is taken over", async () => {
    const folder = mkdtempSync(join(tmpdir(), "dev-test-lock-"));
    const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    mkdirSync(join(folder, ".setup.lock"));
    writeFileSync(join(folder, ".setup.lock", "pid"), gone.stdout);
    try {
      assert.equal(await withFolderLock(folder, () => "done"), "done");
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
