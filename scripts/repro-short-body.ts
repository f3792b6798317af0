/**
 * Reproduces issue #42 item 15: a request whose body ends before its Content-Length (or a chunked upload cut off
 * before its last chunk) makes `wrangler dev` exit, and every request in flight fails until it is back.
 *
 *   node_modules/.bin/node scripts/repro-short-body.ts --port 8787 [--case NAME] [--times N] [--hold MS]
 *     [--reset] [--wait S]
 *   node_modules/.bin/node scripts/repro-short-body.ts --workerd [--port 8795]
 *
 * Each case opens a raw socket, sends the head and 10 bytes of a body that declares more (or one chunk with no
 * last chunk), holds the socket `--hold` ms (1000), then closes its sending side (`--reset`: resets it instead),
 * and reads what came back. It then asks `/healthz` again: a server that no longer answers exited. Under
 * `npm run dev` the supervisor brings it back, and the script waits up to `--wait` s (90) before the next case.
 * `--workerd` runs the same requests at a bare workerd (the runtime production runs, without wrangler or
 * miniflare) serving a worker that reads the body, refuses without reading it, or cancels it and answers 411.
 * Exit code: 0 when the server survived every request, 1 when it exited at least once, 2 when it did not come back.
 * Why this is upstream, and what was measured: docs/decisions/0057-short-body-requests.md.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { DEMO_MONITORED_CLIENT } from "./lib/demo-people.ts";
import { signInCookie } from "./lib/local-server.ts";

const { values: options } = parseArgs({
  options: {
    port: { type: "string" },
    case: { type: "string" },
    times: { type: "string", default: "1" },
    hold: { type: "string", default: "1000" },
    reset: { type: "boolean", default: false },
    wait: { type: "string", default: "90" },
    workerd: { type: "boolean", default: false },
  },
});
const port = Number(options.port ?? (options.workerd ? 8795 : 8787));
const origin = `http://127.0.0.1:${port}`;
const holdMs = Number(options.hold);
const SENT = "email=a%40b"; // 11 bytes of a form that says it has 1000

interface Case {
  name: string;
  what: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  /** Signed in as the demo client who has no verification case yet, so an upload gets as far as reading. */
  signedIn?: boolean;
}

const shortForm = { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": "1000" };
const UPLOAD = "/account/verification/documents/identity_front?name=card.pdf";
const pdfHead = "%PDF-1.7\n%"; // 10 bytes: the file's first bytes pass the type check
const appCases: Case[] = [
  {
    name: "login-short",
    what: "sign-in form; the action reads the body",
    path: "/login",
    headers: shortForm,
    body: SENT,
  },
  {
    name: "csrf-short",
    what: "cross-site Origin; the CSRF check answers 403 without reading",
    path: "/login",
    headers: { ...shortForm, Origin: "http://cross-site.example" },
    body: SENT,
  },
  {
    name: "upload-signed-out",
    what: "document upload signed out; 401 without reading",
    path: UPLOAD,
    headers: { "Content-Type": "application/pdf", "Content-Length": "1000" },
    body: pdfHead,
  },
  {
    name: "upload-short",
    what: "document upload signed in; the body is streamed to R2",
    path: UPLOAD,
    headers: { "Content-Type": "application/pdf", "Content-Length": "1000" },
    body: pdfHead,
    signedIn: true,
  },
  {
    name: "upload-chunked",
    what: "chunked document upload signed in; 411, the body cancelled unread",
    path: UPLOAD,
    headers: { "Content-Type": "application/pdf", "Transfer-Encoding": "chunked" },
    body: `a\r\n${pdfHead}\r\n`, // one chunk, never the last one
    signedIn: true,
  },
];
const workerdCases: Case[] = [
  { name: "read-short", what: "the worker reads the body", path: "/read", headers: shortForm, body: SENT },
  { name: "refuse-short", what: "403 without reading", path: "/refuse", headers: shortForm, body: SENT },
  {
    name: "cancel-chunked",
    what: "body cancelled, 411",
    path: "/cancel",
    headers: { "Content-Type": "application/pdf", "Transfer-Encoding": "chunked" },
    body: `a\r\n${pdfHead}\r\n`,
  },
];

/** A worker with the three ways a route meets a body: read it, answer without it, cancel it. */
const BARE_WORKER = `export default {
  async fetch(request) {
    const { pathname } = new URL(request.url);
    if (pathname === "/read") {
      try { return new Response("read " + (await request.text()).length + " bytes"); }
      catch (error) { return new Response("read failed: " + error.message, { status: 400 }); }
    }
    if (pathname === "/refuse") return new Response("refused without reading", { status: 403 });
    if (pathname === "/cancel") { await request.body?.cancel(); return new Response("length required", { status: 411 }); }
    return new Response("ok");
  },
};`;

/** Starts node_modules' workerd on `port` with BARE_WORKER; it is killed when this script exits. */
async function startBareWorkerd(): Promise<ChildProcess> {
  const dir = mkdtempSync(join(tmpdir(), "short-body-"));
  writeFileSync(join(dir, "worker.js"), BARE_WORKER);
  writeFileSync(
    join(dir, "config.capnp"),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = (modules = [ (name = "worker.js", esModule = embed "worker.js") ],
                                          compatibilityDate = "2026-08-15")) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);`,
  );
  const workerd = spawn(join("node_modules", ".bin", "workerd"), ["serve", join(dir, "config.capnp")], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  process.on("exit", () => workerd.kill("SIGKILL"));
  if (!(await waitForServer(15))) throw new Error(`workerd did not start on ${origin}`);
  return workerd;
}

/** Whether the server answers `/healthz` (or, for bare workerd, anything) within `seconds`. */
async function waitForServer(seconds: number): Promise<boolean> {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    if (await answers()) return true;
    await sleep(500);
  }
  return false;
}

async function answers(): Promise<boolean> {
  try {
    const response = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(3_000) });
    await response.arrayBuffer();
    return response.status < 500;
  } catch {
    return false;
  }
}

interface Sent {
  answeredBeforeClose: string | null;
  answeredAfterClose: string | null;
  socketError: string | null;
}

/** Sends the case's head and partial body, holds, closes, and reports the status lines that came back. */
function sendShort(testCase: Case, cookie: string | null): Promise<Sent> {
  const head = [
    `POST ${testCase.path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    ...Object.entries(testCase.headers).map(([name, value]) => `${name}: ${value}`),
    ...(cookie ? [`Cookie: ${cookie}`] : []),
    "",
    "",
  ].join("\r\n");
  return new Promise((resolve) => {
    const result: Sent = { answeredBeforeClose: null, answeredAfterClose: null, socketError: null };
    let received = "";
    const socket = connect(port, "127.0.0.1", () =>
      socket.write(head + testCase.body, () => setTimeout(close, holdMs)),
    );
    const statusLine = () => received.split("\r\n")[0] || null;
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      result.socketError = error.code ?? error.message;
    });
    function close() {
      result.answeredBeforeClose = statusLine();
      if (options.reset) socket.resetAndDestroy();
      else socket.end();
      // An answer sent once the body failed comes after the close; a server gone sends none.
      setTimeout(() => {
        if (!result.answeredBeforeClose) result.answeredAfterClose = statusLine();
        socket.destroy();
        resolve(result);
      }, 1_500);
    }
  });
}

const cases = options.workerd ? workerdCases : appCases;
const chosen = options.case ? cases.filter((c) => c.name === options.case) : cases;
if (chosen.length === 0) {
  console.error(`no case "${options.case}"; the cases: ${cases.map((c) => c.name).join(", ")}`);
  process.exit(2);
}
if (options.workerd) await startBareWorkerd();
else if (!(await waitForServer(5))) {
  console.error(`nothing answers on ${origin}; start the dev server first (PORT=${port} npm run dev)`);
  process.exit(2);
}

const exits = new Map<string, number>();
let cookie: string | null = null;
for (let round = 1; round <= Number(options.times); round++) {
  for (const testCase of chosen) {
    if (testCase.signedIn && !cookie)
      cookie = await signInCookie(origin, DEMO_MONITORED_CLIENT.email, DEMO_MONITORED_CLIENT.password);
    const sent = await sendShort(testCase, testCase.signedIn ? cookie : null);
    const alive = await answers();
    const answer = sent.answeredBeforeClose
      ? `answered before the close: ${sent.answeredBeforeClose}`
      : `no answer in ${holdMs} ms; after the close: ${sent.answeredAfterClose ?? "none"}`;
    console.log(
      `${testCase.name} #${round} (${testCase.what}): ${answer}${sent.socketError ? ` [${sent.socketError}]` : ""}; ` +
        `server ${alive ? "still answers" : "EXITED"}`,
    );
    if (alive) continue;
    exits.set(testCase.name, (exits.get(testCase.name) ?? 0) + 1);
    cookie = null; // a restarted server keeps the database, but sign in again to be sure
    const startedWaiting = Date.now();
    if (!(await waitForServer(Number(options.wait)))) {
      console.log(`the server did not come back within ${options.wait} s; stopping`);
      process.exit(2);
    }
    console.log(`  back after ${((Date.now() - startedWaiting) / 1000).toFixed(1)} s`);
  }
}
for (const testCase of chosen)
  console.log(`${testCase.name}: server exited ${exits.get(testCase.name) ?? 0} of ${options.times}`);
process.exit(exits.size > 0 ? 1 : 0);
