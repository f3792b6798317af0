import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

/**
 * The React Router build (`react-router build`, options in react-router.config.ts): the browser's assets in
 * build/client, served by wrangler's [assets] (with the files of public/), and the server build in
 * build/server/index.js, which workers/app.ts imports and wrangler bundles into the Worker. There is no `vite dev`
 * server: the Hono middleware in front of the router runs only inside the Worker, so `npm run dev` rebuilds and
 * serves through `wrangler dev` (docs/decisions/0038, 0052).
 */
export default defineConfig({
  plugins: [reactRouter()],
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  ssr: {
    // Dependencies stay imports of the server build: wrangler's esbuild bundles them into the Worker with the
    // workerd conditions, as it did for the classic compiler's server build.
    resolve: { conditions: ["workerd", "worker", "browser"], externalConditions: ["workerd", "worker"] },
    // Not minified (Vite's default for a server build, as serverMinify: false was): readable stack traces.
  },
});
