import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { test } from "@playwright/test";

/**
 * Codes of an authenticator for the browser tests. The server accepts each 30-second step of an account once
 * (the current one, or one either side), and the tests run in parallel processes that sign the demo admins in
 * at the same moments: so steps are handed out one after the other across processes (a lock file and the last
 * step given, per secret, in test-results/), and each code is entered and accepted before the next is handed
 * out. A third sign-in within one step waits for the next. Each account has its own secret and so its own
 * hand-out: the second demo admin's codes never wait for the first's.
 */
const STEP_MS = 30_000;
const DIR = join(process.cwd(), "test-results", `totp-steps-${process.env.E2E_STATE ?? "e2e"}`);

/** Whether a process still runs: a lock left by a worker that was stopped mid-test is taken over. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function withLock<T>(name: string, work: () => Promise<T>): Promise<T> {
  mkdirSync(DIR, { recursive: true });
  const lock = join(DIR, `${name}.lock`);
  for (;;) {
    try {
      const fd = openSync(lock, "wx");
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      let holder = 0;
      try {
        holder = Number(readFileSync(lock, "utf8"));
      } catch {
        // Released meanwhile.
      }
      if (holder > 0 && !running(holder)) rmSync(lock, { force: true });
      await sleep(100);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { force: true });
  }
}

/** The secret as authenticator apps take it (base32, spaces allowed), as bytes. */
export const secretBytes = (secret: string) => decodeBase32IgnorePadding(secret.replace(/\s/g, "").toUpperCase());

/**
 * Runs `enter` with a code of a step no other test has used for this secret, and hands out no other step of it
 * until `enter` has finished: `enter` must wait until the server has taken the code.
 */
export async function withUnusedCode<T>(secret: string, enter: (code: string) => Promise<T>): Promise<T> {
  const bytes = secretBytes(secret);
  // The whole secret names its lock and state: two secrets alike in their first characters stay apart.
  const name = secret.replace(/\s/g, "").toUpperCase();
  const asked = Date.now();
  return withLock(name, async () => {
    const state = join(DIR, `${name}.json`);
    const last = existsSync(state) ? (JSON.parse(readFileSync(state, "utf8")) as { step: number }).step : 0;
    const now = Date.now();
    const current = Math.floor(now / STEP_MS);
    // The step before is accepted too, while there is time left in this one for the server to see it as such.
    const earliest = now % STEP_MS < STEP_MS - 10_000 ? current - 1 : current;
    const step = Math.max(earliest, last + 1);
    // The next step is accepted already; beyond it, wait until it is the next one.
    if (step > current + 1) await sleep((step - 1) * STEP_MS - Date.now() + 200);
    writeFileSync(state, JSON.stringify({ step }));
    // Waiting for a step (or for another test's code) is no time of the test's own.
    extendTestTimeout(Date.now() - asked);
    return enter(generateHOTP(bytes, BigInt(step), 6));
  });
}

/**
 * Runs one sign-in of the account with this secret, from its password step to its code being accepted, while no
 * other test signs that account in: the password step replaces any second step the account has open, so two at
 * once would leave one of them with a code page that sends it back to /login.
 */
export async function oneSignInAtATime<T>(secret: string, signIn: () => Promise<T>): Promise<T> {
  const asked = Date.now();
  return withLock(`sign-in-${secret.replace(/\s/g, "").toUpperCase()}`, () => {
    extendTestTimeout(Date.now() - asked);
    return signIn();
  });
}

function extendTestTimeout(ms: number) {
  if (ms < 1_000) return;
  try {
    const info = test.info();
    info.setTimeout(info.timeout + ms);
  } catch {
    // Not inside a test (a hook or a script): nothing to extend.
  }
}
