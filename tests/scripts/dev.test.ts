/**
 * `npm run dev` (`vite dev` with the Cloudflare plugin and scripts/lib/vite-dev-loop.ts; docs/decisions/0061) as a
 * developer runs it. Run with `npm run test:scripts` (node's test runner, Node 24).
 *
 * Two dev servers run side by side, as two checkouts of the project would (this one and a copy of it), each on its
 * own ports and its own throwaway state folder: both must answer, migrated and seeded, the scheduled handler must
 * deliver a notice to the server's own mail simulator, an edit to a route file must be served (page and browser
 * module, the edge cache notwithstanding), and SIGTERM must leave no process behind.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { withFolderLock } from "../../scripts/lib/folder-lock.ts";
import { executeStatements, ROOT } from "../../scripts/lib/local-d1.ts";
import { signInCookie } from "../../scripts/lib/local-server.ts";
import { DEMO_CLIENT, DEMO_SECOND_ADMIN, demoLoginLines } from "../../scripts/seed.ts";
import {
  alive,
  commandOf,
  DevServer,
  devServerPort,
  secondCheckout,
  textDuringReloads,
  waitUntil,
} from "./dev-server.ts";

describe("npm run dev", { timeout: 600_000 }, () => {
  let first: DevServer;
  let second: DevServer;

  before(async () => {
    const firstPort = await devServerPort();
    let secondPort = await devServerPort();
    while (Math.abs(secondPort - firstPort) <= 1000) secondPort = await devServerPort();
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
      const collisions = server.output.split("\n").filter((line) => /address already in use|not available/i.test(line));
      assert.deepEqual(collisions, [], tail);
      // Each its own mail simulator, on its port + 1000.
      const simulator = await fetch(`http://127.0.0.1:${server.port + 1000}/_simulator`);
      assert.equal(simulator.status, 200, tail);
    }
    // Each has its local D1 in its own state folder, not in .wrangler/state.
    for (const server of [first, second]) assert.ok(existsSync(join(server.stateDir, "v3", "d1")), server.tail());
  });

  test("prints the demo logins, and the demo people sign in on either server", async () => {
    for (const server of [first, second]) {
      for (const line of demoLoginLines())
        assert.ok(server.output.includes(line), `missing "${line}"\n${server.tail()}`);
    }
    const cookie = await signInCookie(
      first.origin,
      DEMO_SECOND_ADMIN.email,
      DEMO_SECOND_ADMIN.password,
      DEMO_SECOND_ADMIN.totpSecret,
    );
    const admin = await fetch(`${first.origin}/admin`, { headers: { Cookie: cookie }, redirect: "manual" });
    assert.equal(admin.status, 200);
    const client = await signInCookie(second.origin, DEMO_CLIENT.email, DEMO_CLIENT.password);
    const dashboard = await fetch(`${second.origin}/dashboard`, { headers: { Cookie: client }, redirect: "manual" });
    assert.equal(dashboard.status, 200);
  });

  test("the scheduled handler runs under dev and delivers a pending outbox notice to dev's mail simulator", async () => {
    const from = first.output.length;
    executeStatements(
      [
        `INSERT INTO email_outbox (to_address, template, payload) VALUES ('cron-check@example.invalid', 'welcome', '{"name":"Cron Check"}')`,
      ],
      { persistTo: first.stateDir },
    );
    // Sent, not captured: through the Resend SDK to the simulator this dev server runs on its port + 1000.
    await waitUntil(
      () => `the mail simulator to get the notice\n${first.tail()}`,
      60_000,
      async () => {
        const answer = await textDuringReloads(`http://127.0.0.1:${first.port + 1000}/_simulator`);
        const simulator = JSON.parse(answer ?? '{"mails":[]}') as { mails: Array<{ to: string[] }> };
        return simulator.mails.some((mail) => mail.to.includes("cron-check@example.invalid")) || undefined;
      },
    );
    // The cron logs its count once the delivery's answer is back, a moment after the simulator has the mail.
    await waitUntil(
      () => `the cron's outbox line\n${first.tail()}`,
      30_000,
      async () => /outbox \{[^}]*sent: 1/.test(first.output.slice(from)) || undefined,
    );
    assert.doesNotMatch(first.output, /cron: /, "the timer reported a failure");
  });

  test("an edit to a route file is served at once, the page (past the edge cache) and its browser module alike", async () => {
    const routeFile = join(ROOT, "app", "routes", "about-us.tsx");
    const original = readFileSync(routeFile, "utf8");
    const marker = `About Us (edited ${Date.now()})`;
    assert.ok(original.includes('<Article title="About Us"'), "the route file changed: pick another line to edit");
    // A visitor's page is kept by the edge cache: asked twice so that the second answer comes from it.
    for (let i = 0; i < 2; i++) assert.ok(await textDuringReloads(`${first.origin}/about-us`));
    try {
      writeFileSync(routeFile, original.replace('<Article title="About Us"', `<Article title="${marker}"`));
      const page = await waitUntil("the edited page", 60_000, async () => {
        const html = await textDuringReloads(`${first.origin}/about-us`);
        return html?.includes(marker) ? html : undefined;
      });
      // Vite serves the route's module to the browser as the file, transformed: hydration renders the new text.
      const moduleUrl = /\/app\/routes\/about-us\.tsx[^"]*/.exec(page)?.[0];
      assert.ok(moduleUrl, "the page names no browser module for /about-us");
      const module = await textDuringReloads(`${first.origin}${moduleUrl}`);
      assert.ok(module?.includes(marker), "the browser module is the old one");
      // The other checkout has its own files: an edit here is not its business.
      const elsewhere = await textDuringReloads(`${second.origin}/about-us`);
      assert.ok(elsewhere && !elsewhere.includes(marker), "the other checkout serves this checkout's edit");
    } finally {
      writeFileSync(routeFile, original);
    }
    await waitUntil(`${first.origin} to serve the original page again`, 60_000, async () => {
      const html = await textDuringReloads(`${first.origin}/about-us`);
      return html?.includes("About Us") && !html.includes(marker) ? true : undefined;
    });
  });

  test("SIGTERM stops Vite and workerd, leaving no process behind", async () => {
    const started = [...first.processes(), ...second.processes()];
    assert.match(started.map(commandOf).join("\n"), /workerd/);
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
