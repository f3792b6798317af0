/**
 * A local server for the measurement scripts (Lighthouse, realtime latency): the e2e server script on its own
 * port and its own throwaway database, started in its own process group so that stopping it stops workerd too.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { BIN, quietEnv, ROOT } from "./local-d1.ts";

export async function startLocalServer(options: { port: string; inspectorPort: string; state: string }) {
  const server = spawn(join(BIN, "node"), ["scripts/e2e-server.ts"], {
    cwd: ROOT,
    env: { ...quietEnv, E2E_PORT: options.port, E2E_INSPECTOR_PORT: options.inspectorPort, E2E_STATE: options.state },
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
  for (let i = 0; i < 120; i++) {
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

/** Signs in through the real form and returns the session cookie ("session=…"). */
export async function signInCookie(origin: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${origin}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin, "Sec-Fetch-Site": "same-origin" },
    body: new URLSearchParams({ email, password, redirectTo: "" }),
  });
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("session="));
  if (!cookie) throw new Error(`could not sign in as ${email} (${response.status})`);
  return cookie.split(";")[0] ?? "";
}
