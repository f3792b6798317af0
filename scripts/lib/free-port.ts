import { createServer } from "node:net";

/**
 * A TCP port nobody listens on right now: the OS picks one for a throwaway listener, which is closed
 * before the port is handed on. Another process could take it in between; the callers start at once and
 * a server that fails to bind is restarted with a new port (scripts/lib/supervise.ts).
 */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error("no free port"))));
    });
  });
}

/**
 * The arguments of `wrangler dev` for a local server: loopback only, on `port`, with the debugger on
 * `debuggerPort` or a free port (so that several checkouts run side by side), and the local state in
 * `persistTo` when given.
 */
export async function wranglerDevArgs(options: { port: string; debuggerPort?: string; persistTo?: string }) {
  return [
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    options.port,
    "--inspector-port",
    options.debuggerPort ?? String(await freePort()),
    ...(options.persistTo ? ["--persist-to", options.persistTo] : []),
    "--show-interactive-dev-session=false",
  ];
}
