/**
 * A local server for the measurement scripts (Lighthouse, realtime latency): the e2e server script on its own
 * port and its own throwaway database, started in its own process group so that stopping it stops workerd too.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { decodeBase32 } from "@oslojs/encoding";
import { TOTP_PERIOD_SECONDS, totpCodeAt, totpStepAt } from "../../app/server/auth/totp-crypto.server.ts";
import { BIN, quietEnv, ROOT } from "./local-d1.ts";

export async function startLocalServer(options: { port: string; state: string }) {
  const server = spawn(join(BIN, "node"), ["scripts/e2e-server.ts"], {
    cwd: ROOT,
    env: { ...quietEnv, E2E_PORT: options.port, E2E_STATE: options.state },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const origin = `http://127.0.0.1:${options.port}`;
  const stop = () => {
    try {
      if (server.pid) process.kill(-server.pid, "SIGTERM");
    } catch {
      // already gone
    }
  };
  process.on("exit", stop);
  // A fresh database is migrated and seeded through the wrangler CLI first: about a minute on two busy cores.
  for (let i = 0; i < 360; i++) {
    try {
      if ((await fetch(`${origin}/healthz`)).ok) return { origin, stop };
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  stop();
  throw new Error("the local server did not start");
}

const lastStepOf = new Map<string, number>();

/**
 * A code of the authenticator with this secret (base32) for a time step this process has not used yet: the
 * server takes each step once, and the current one or the next, so a second sign-in within 30 seconds takes the
 * next step's code, and a third waits for it.
 */
async function unusedTotpCode(secret: string): Promise<string> {
  const current = totpStepAt(Date.now());
  const step = Math.max(current, (lastStepOf.get(secret) ?? current - 1) + 1);
  if (step > current + 1) await sleep((step - 1) * TOTP_PERIOD_SECONDS * 1000 - Date.now() + 100);
  lastStepOf.set(secret, step);
  return totpCodeAt(decodeBase32(secret), step * TOTP_PERIOD_SECONDS * 1000);
}

/**
 * Signs in through the real forms and returns the session cookie ("session=…"). An account with two-factor
 * sign-in on (every admin) passes the second step with a code of its secret (base32, e.g. the demo admin's).
 */
export async function signInCookie(origin: string, email: string, password: string, totpSecret?: string) {
  const post = (path: string, fields: Record<string, string>, cookie?: string) =>
    fetch(`${origin}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: origin,
        "Sec-Fetch-Site": "same-origin",
        ...(cookie ? { Cookie: cookie } : {}),
      },
      body: new URLSearchParams(fields),
    });
  let response = await post("/login", { email, password, redirectTo: "" });
  if (response.headers.get("Location") === "/login/two-factor") {
    if (!totpSecret) throw new Error(`${email} has two-factor sign-in on: its secret is needed to sign in`);
    const challenge = response.headers.getSetCookie().find((c) => c.startsWith("sign-in-challenge="));
    response = await post("/login/two-factor", { code: await unusedTotpCode(totpSecret) }, challenge?.split(";")[0]);
  }
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("session="));
  if (!cookie) throw new Error(`could not sign in as ${email} (${response.status})`);
  return cookie.split(";")[0] ?? "";
}
