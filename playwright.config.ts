import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";

/** Debian's Chromium; never a downloaded browser. */
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromiumPath)) {
  console.error(
    `Chromium not found at ${chromiumPath}: install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH.`,
  );
  process.exit(1);
}

const port = process.env.E2E_PORT ?? "8788";
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  // One worker in CI: the machine has two cores, and the server and the browser share them. A test is retried once;
  // one that passes only on retry is reported as flaky, and the CI summary counts them.
  workers: process.env.CI ? 1 : 2,
  retries: 1,
  forbidOnly: true,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  outputDir: "test-results/e2e-artifacts",
  // The fake OAuth provider the server's sign-in with Google and GitHub goes to (tests/e2e/fake-oauth-provider.ts).
  globalSetup: "./tests/e2e/global-setup.ts",
  reporter: [["list"], ["json", { outputFile: "test-results/e2e-report.json" }]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: {
    command: "node scripts/e2e-server.ts",
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
