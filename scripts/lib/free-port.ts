import { createServer } from "node:net";

/**
 * A TCP port nobody listens on right now: the OS picks one for a throwaway listener, which is closed before the port
 * is handed on (`npm run dev`'s inspector). Another process could take it in between, but it is used at once, and it
 * comes from the range the OS hands out, where no dev server's `PORT` (8787 and the like) lies.
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
