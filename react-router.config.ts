import type { Config } from "@react-router/dev/config";

/**
 * `react-router build`: the browser's files in build/client (served by wrangler's [assets]) and the server build in
 * build/server/index.js, which workers/app.ts imports and wrangler bundles into the Worker (docs/decisions/0052).
 */
export default {
  appDirectory: "app",
  buildDirectory: "build",
  serverBuildFile: "index.js",
  serverModuleFormat: "esm",
  ssr: true,
} satisfies Config;
