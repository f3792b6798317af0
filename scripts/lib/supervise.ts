/**
 * Keeps a long-running tool (wrangler dev, the build watcher) running for `npm run dev` and the browser tests' server.
 *
 * `wrangler dev` 4.124 can exit mid-run on a dropped connection inside its proxy, printing an empty "[ERROR]"
 * (cloudflare/workers-sdk#15451, #15317). The supervisor restarts it with the same arguments, so the same port and
 * the same local database, and says so in one line. A tool that keeps failing soon after each start is not
 * restarted forever: the pause between restarts doubles, and after several quick failures in a row it gives up
 * with a message saying so. See docs/decisions/0015. A server that answered before it exited started fine, so
 * its exit is never a quick failure: `wrangler dev` also exits on any request whose body ends before its
 * Content-Length (docs/decisions/0057), and a few such requests must not stop `npm run dev`.
 *
 * Each run leads its own process group, so stopping it or cleaning up after it reaches what it started too:
 * when wrangler dies, workerd can stay behind holding the port, and would make every restart fail. A small
 * watchdog process (scripts/lib/reaper.ts) stops those groups if the supervising script itself is killed.
 */
import { type ChildProcess, type StdioOptions, spawn } from "node:child_process";
import type { Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { quietEnv, ROOT } from "./local-d1.ts";

export interface RestartPolicy {
  /** An exit this soon after a start is a quick failure; a longer run resets the count. */
  quickExitMs: number;
  /** Give up at this many quick failures in a row. */
  maxQuickExits: number;
  /** Pause before a restart, doubled for each quick failure in a row, up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** How long `stop()` waits after SIGTERM before SIGKILL. */
  stopGraceMs: number;
  /** How often `answers` is asked until it says yes. */
  answerPollMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  quickExitMs: 30_000,
  maxQuickExits: 5,
  firstDelayMs: 500,
  maxDelayMs: 8_000,
  stopGraceMs: 5_000,
  answerPollMs: 500,
};

export interface SuperviseOptions {
  /** How the lines it prints name the tool ("wrangler dev"). */
  name: string;
  command: string;
  /** Called before every start, so that a start can take fresh values (a free inspector port). */
  args: () => string[] | Promise<string[]>;
  stdio?: StdioOptions;
  env?: NodeJS.ProcessEnv;
  /** Added to the restart line, e.g. "on the same port and database". */
  restartNote?: string;
  /** Where the lines about restarts and giving up go (stderr by default). */
  note?: (line: string) => void;
  policy?: Partial<RestartPolicy>;
  /** Whether the tool answers yet (for a server, `answersAt` its address); once it has, an exit is not a quick failure. */
  answers?: () => Promise<boolean>;
}

export type SupervisedOutcome = { reason: "stopped" } | { reason: "gave-up"; message: string };

export interface Supervised {
  /** Milliseconds since the running process started, or null while none runs (between restarts, after the end). */
  upForMs(): number | null;
  /** Process id of the running process (the leader of its group), if any. */
  pid(): number | undefined;
  /** How many times it was restarted. */
  restarts(): number;
  /** Settles once, when stopped or when it gave up. */
  readonly finished: Promise<SupervisedOutcome>;
  /** Stops the process group (SIGTERM, then SIGKILL after the grace period) and any pending restart. */
  stop(): Promise<void>;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is already gone
  }
}

/**
 * For `answers`: true once `url` gives any HTTP answer. No timeout: a request abandoned while wrangler queues it
 * during a start makes wrangler exit (cloudflare/workers-sdk#15447); a process that exits fails the request anyway.
 */
export function answersAt(url: string): () => Promise<boolean> {
  return async () => {
    try {
      const response = await fetch(url);
      await response.body?.cancel();
      return true;
    } catch {
      return false;
    }
  };
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `signal ${signal}` : `code ${code}`;
}

let reaperInput: Writable | null = null;
/** Tells the watchdog which process groups to stop if this process dies (see scripts/lib/reaper.ts). */
function tellReaper(line: string): void {
  if (!reaperInput) {
    const reaper = spawn(process.execPath, [fileURLToPath(new URL("./reaper.ts", import.meta.url))], {
      stdio: ["pipe", "ignore", "inherit"],
      detached: true,
    });
    reaper.unref();
    const input = reaper.stdin;
    if (!input) return;
    // Neither the watchdog nor its pipe may keep this process alive.
    (input as Writable & { unref?: () => void }).unref?.();
    input.on("error", () => {});
    reaperInput = input;
  }
  reaperInput.write(`${line}\n`);
}

export function supervise(options: SuperviseOptions): Supervised {
  const policy = { ...DEFAULT_RESTART_POLICY, ...options.policy };
  const note = options.note ?? ((line: string) => console.error(line));
  let child: ChildProcess | null = null;
  let startedAt = 0;
  /** Whether the running process has answered (`options.answers`). */
  let answered = false;
  let stopping = false;
  let ended = false;
  let quickExits = 0;
  let restarts = 0;
  let restartTimer: NodeJS.Timeout | null = null;
  let settle: (outcome: SupervisedOutcome) => void = () => {};
  const finished = new Promise<SupervisedOutcome>((resolve) => {
    settle = (outcome) => {
      ended = true;
      resolve(outcome);
    };
  });

  function exited(proc: ChildProcess, why: string): void {
    if (child !== proc) return;
    child = null;
    const hadAnswered = answered;
    if (proc.pid) {
      // What the tool started and left behind (workerd keeps the port when wrangler dies).
      signalGroup(proc.pid, "SIGKILL");
      tellReaper(`-${proc.pid}`);
    }
    if (stopping) return;
    scheduleRestart(why, Date.now() - startedAt, hadAnswered);
  }

  function scheduleRestart(why: string, ranForMs: number, hadAnswered = false): void {
    quickExits = !hadAnswered && ranForMs < policy.quickExitMs ? quickExits + 1 : 0;
    if (quickExits >= policy.maxQuickExits) {
      const message =
        `${options.name} exited ${quickExits} times in a row within ${policy.quickExitMs / 1000} s of starting ` +
        `(last: ${why}); giving up. Its output above says why.`;
      note(message);
      settle({ reason: "gave-up", message });
      return;
    }
    const delay = Math.min(policy.firstDelayMs * 2 ** quickExits, policy.maxDelayMs);
    restarts++;
    const where = options.restartNote ? ` ${options.restartNote}` : "";
    note(`${options.name} exited (${why}); restarting${where} in ${delay / 1000} s (restart ${restarts}).`);
    restartTimer = setTimeout(() => void start(), delay);
  }

  async function start(): Promise<void> {
    restartTimer = null;
    if (stopping) return;
    startedAt = Date.now();
    let args: string[];
    try {
      args = await options.args();
    } catch (error) {
      scheduleRestart(error instanceof Error ? error.message : String(error), 0);
      return;
    }
    if (stopping) return;
    const proc = spawn(options.command, args, {
      cwd: ROOT,
      env: options.env ?? quietEnv,
      stdio: options.stdio ?? "inherit",
      detached: true,
    });
    child = proc;
    answered = false;
    if (proc.pid) tellReaper(`+${proc.pid}`);
    proc.once("error", (error) => exited(proc, error.message));
    proc.once("exit", (code, signal) => exited(proc, describeExit(code, signal)));
    if (options.answers) void watchForAnswer(proc, options.answers);
  }

  async function watchForAnswer(proc: ChildProcess, answers: () => Promise<boolean>): Promise<void> {
    while (child === proc) {
      if (await answers()) {
        if (child === proc) answered = true;
        return;
      }
      await sleep(policy.answerPollMs, undefined, { ref: false });
    }
  }

  async function stop(): Promise<void> {
    stopping = true;
    if (restartTimer) clearTimeout(restartTimer);
    restartTimer = null;
    const proc = child;
    if (proc?.pid && proc.exitCode === null && proc.signalCode === null) {
      const gone = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
      signalGroup(proc.pid, "SIGTERM");
      const inTime = await Promise.race([gone.then(() => true), sleep(policy.stopGraceMs, false, { ref: false })]);
      signalGroup(proc.pid, "SIGKILL");
      if (!inTime) await Promise.race([gone, sleep(1_000, undefined, { ref: false })]);
    }
    if (!ended) settle({ reason: "stopped" });
  }

  void start();
  return {
    upForMs: () => (child ? Date.now() - startedAt : null),
    pid: () => child?.pid,
    restarts: () => restarts,
    finished,
    stop,
  };
}
