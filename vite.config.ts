import { fileURLToPath } from "node:url";
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";

/**
 * The Remix build (`remix vite:build`): the browser's assets in build/client, served by wrangler's [assets] (with
 * the files of public/), and the server build in build/server/index.js, which workers/app.ts imports and wrangler
 * bundles into the Worker. There is no `vite dev` server: the Hono middleware in front of Remix runs only inside the
 * Worker, so `npm run dev` rebuilds and serves through `wrangler dev` (docs/decisions/0038).
 */
export default defineConfig({
  plugins: [
    remix({
      buildDirectory: "build",
      serverBuildFile: "index.js",
      serverModuleFormat: "esm",
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_lazyRouteDiscovery: true,
        v3_singleFetch: true,
        // The routes come from app/routes.ts (flatRoutes: the same file names, the same URLs).
        v3_routeConfig: true,
      },
    }),
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
});
