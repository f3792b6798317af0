/**
 * The supervisor's rule for a server that answered (scripts/lib/supervise.ts, docs/decisions/0057): `wrangler dev`
 * exits on a request whose body ends before its Content-Length, so a server that answered and then exited is
 * restarted at the first pause however often it happens, while a tool that exits before it ever answers still
 * counts quick failures and gives up. Run with `npm run test:scripts`.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort } from "../../scripts/lib/free-port.ts";
import { answersAt, supervise } from "../../scripts/lib/supervise.ts";

const POLICY = { quickExitMs: 10_000, maxQuickExits: 2, firstDelayMs: 50, maxDelayMs: 400, answerPollMs: 50 };

describe("the supervisor and a server that answered", { timeout: 60_000 }, () => {
  test("a server that answered, then exits on a request, is restarted every time at the first pause", async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}/`;
    // Answers a GET (the supervisor's check) and exits after answering a POST, as wrangler dev does on a body cut
    // short.
    const server = `require("node:http").createServer((request, response) => {
      response.end("ok");
      if (request.method === "POST") setTimeout(() => process.exit(1), 20);
    }).listen(${port}, "127.0.0.1");`;
    const lines: string[] = [];
    const supervised = supervise({
      name: "crashing server",
      command: process.execPath,
      args: () => ["-e", server],
      stdio: "ignore",
      note: (line) => lines.push(line),
      policy: POLICY,
      answers: answersAt(origin),
    });
    try {
      for (let crash = 1; crash <= 4; crash++) {
        while (!(await answersAt(origin)())) await sleep(20);
        // The supervisor asks every 50 ms: by now it has had its answer too.
        await sleep(300);
        await fetch(origin, { method: "POST", body: "x" }).then((response) => response.text());
        const until = Date.now() + 10_000;
        while (supervised.restarts() < crash && Date.now() < until) await sleep(20);
        assert.equal(supervised.restarts(), crash, lines.join("\n"));
      }
      assert.equal(await Promise.race([supervised.finished.then(() => "ended"), sleep(0, "running")]), "running");
      for (const line of lines) assert.match(line, /^crashing server exited \(code 1\); restarting in 0\.05 s/);
    } finally {
      await supervised.stop();
    }
    assert.deepEqual(await supervised.finished, { reason: "stopped" });
  });

  test("a tool that exits before it ever answers still gives up after the quick failures", async () => {
    const port = await freePort();
    const lines: string[] = [];
    const supervised = supervise({
      name: "silent tool",
      command: process.execPath,
      args: () => ["-e", "setTimeout(() => process.exit(3), 100)"],
      stdio: "ignore",
      note: (line) => lines.push(line),
      policy: POLICY,
      answers: answersAt(`http://127.0.0.1:${port}/`),
    });
    const outcome = await supervised.finished;
    assert.equal(outcome.reason, "gave-up");
    assert.equal(lines[0], "silent tool exited (code 3); restarting in 0.1 s (restart 1).");
    assert.match(lines[1] ?? "", /^silent tool exited 2 times in a row within 10 s of starting/);
  });
});
