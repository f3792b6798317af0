import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

const migrationsDir = fileURLToPath(new URL("./db/migrations", import.meta.url));

/**
 * Tests run inside workerd with the Worker of wrangler.toml: real D1 (migrated in tests/setup/migrate.ts),
 * real Durable Objects. Storage is isolated per test file.
 */
export default defineConfig({
  plugins: [
    cloudflareTest(async () => ({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          ENVIRONMENT: "test",
          SESSION_SECRET: "test-session-secret-0123456789abcdef0123456789",
          MAIL_API_TOKEN: "test-mail-api-token-0123456789",
          RESEND_API_KEY: "",
          // Resend's own address, as deployed: a developer's .dev.vars (read here too) points it at the local mail
          // simulator, which production refuses. The tests stand in for the provider by mocking fetch.
          RESEND_BASE_URL: "https://api.resend.com",
          // No chain or rate API off this machine (wrangler.toml names mempool.space and CoinGecko): a test that
          // watches a chain points these at its own world of the run's chain simulator (inject("chainSimulatorUrl")).
          BITCOIN_ESPLORA_URL: "",
          ETHEREUM_RPC_URL: "",
          RATES_URL: "",
          // No stock quotes either (wrangler.toml names Alpaca): a test that reads prices points QUOTES_URL and the
          // keys at its own world of the same simulator (tests/support/quotes.ts's `vars`).
          QUOTES_URL: "",
          QUOTES_KEY_ID: "",
          QUOTES_SECRET_KEY: "",
          PASSWORD_HASH_COST: "fast",
          TOTP_ENCRYPTION_KEY: "dGVzdC10b3RwLWVuY3J5cHRpb24ta2V5LTMyLWJ5dGU=",
          // Cloudflare's always-pass Turnstile test keys: no siteverify call. Tests that need a real secret
          // run the Worker with a copy of these bindings holding real-looking keys (tests/worker/turnstile.test.ts).
          TURNSTILE_SITE_KEY: "1x00000000000000000000AA",
          TURNSTILE_SECRET_KEY: "1x0000000000000000000000000000000AA",
          TEST_MIGRATIONS: await readD1Migrations(migrationsDir),
        },
      },
    })),
  ],
  resolve: {
    alias: {
      "~": fileURLToPath(new URL("./app", import.meta.url)),
      "virtual:react-router/server-build": fileURLToPath(new URL("./build/server/index.js", import.meta.url)),
    },
  },
  test: {
    include: ["tests/worker/**/*.test.ts"],
    setupFiles: ["./tests/setup/migrate.ts"],
    // The chain simulator the tests reach by `inject("chainSimulatorUrl")`, one for the run.
    globalSetup: ["./tests/setup/chain-simulator.ts"],
  },
});
