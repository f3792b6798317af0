import { fileURLToPath } from "node:url";
import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import { devChainVars, devLoop, devMailVars, devSettings } from "./scripts/lib/vite-dev-loop.ts";

/**
 * The React Router build (`react-router build`, options in react-router.config.ts): the browser's assets in
 * build/client, served by wrangler's [assets] (with the files of public/), and the server build in
 * build/server/index.js, which workers/app.ts imports (as `virtual:react-router/server-build`, aliased to that file in
 * wrangler.toml and vitest.config.ts) and wrangler bundles into the Worker.
 *
 * `npm run dev` is `vite dev` (docs/decisions/0061): the Cloudflare plugin runs the whole Worker, the Hono middleware
 * in front of the router, the Durable Objects and the scheduled handler, in workerd, with the router's modules served
 * by Vite; the dev loop plugin migrates and seeds the local D1, starts the mail and chain simulators and runs the
 * cron. Both only for `serve`: with the Cloudflare plugin, `react-router build` would write the Worker bundled by
 * Vite, a generated wrangler.json and a .wrangler/deploy/config.json redirecting every later wrangler command to it.
 */
export default defineConfig(async ({ command }) => {
  const dev = command === "serve" ? await devSettings() : undefined;
  return {
    plugins: [
      ...(dev
        ? [
            devLoop(dev),
            cloudflare({
              viteEnvironment: { name: "ssr" },
              inspectorPort: dev.inspectorPort,
              persistState: dev.stateDir ? { path: dev.stateDir } : true,
              config: { vars: { ...devMailVars(dev), ...devChainVars(dev) } },
            }),
          ]
        : []),
      reactRouter(),
    ],
    resolve: {
      alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
    },
    ssr: {
      // Dependencies stay imports of the server build: wrangler's esbuild bundles them into the Worker with the
      // workerd conditions, as it did for the classic compiler's server build.
      resolve: { conditions: ["workerd", "worker", "browser"], externalConditions: ["workerd", "worker"] },
      // Not minified (Vite's default for a server build, as serverMinify: false was): readable stack traces.
    },
    ...(dev && {
      // Loopback only, on PORT and no other: the simulators' ports, `npm run mail` and `npm run chain` follow it.
      server: { host: "127.0.0.1", port: dev.port, strictPort: true },
      // The setup's output and the demo logins stay above Vite's banner.
      clearScreen: false,
      // Found late otherwise, on a first visit, and Vite reloads the page (or the Worker) for them.
      optimizeDeps: { include: ["@simplewebauthn/browser", "sonner"] },
      environments: {
        ssr: {
          // The Worker's own scan starts at workers/app.ts and stops at the virtual server build, so the routes'
          // dependencies (react, sonner, zod and more) would be found one request at a time, each a reload.
          optimizeDeps: {
            entries: ["app/entry.server.tsx", "app/root.tsx", "app/routes/**/*.{ts,tsx}"],
            include: ["pdf-lib", "zod"],
          },
        },
      },
    }),
  };
});
