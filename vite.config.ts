import { fileURLToPath } from "node:url";
import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import { devLoop, devMailVars } from "./scripts/lib/vite-dev-loop.ts";

/**
 * The React Router build (`react-router build`, options in react-router.config.ts): the browser's assets in
 * build/client, served by wrangler's [assets] (with the files of public/), and the server build in
 * build/server/index.js, which workers/app.ts imports (as `virtual:react-router/server-build`, aliased to that file in
 * wrangler.toml and vitest.config.ts) and wrangler bundles into the Worker.
 *
 * `vite dev` (docs/decisions/0061): the Cloudflare plugin runs the whole Worker, the Hono middleware in front of the
 * router, the Durable Objects and the scheduled handler, in workerd, with the router's modules served by Vite; the
 * dev loop plugin migrates and seeds the local D1, starts the mail simulator and runs the cron. Only for `serve`:
 * with it, `react-router build` would write the Worker bundled by Vite and a generated wrangler.json instead.
 */
export default defineConfig(({ command }) => ({
  plugins: [
    ...(command === "serve"
      ? [devLoop(), cloudflare({ viteEnvironment: { name: "ssr" }, config: { vars: devMailVars() } })]
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
}));
