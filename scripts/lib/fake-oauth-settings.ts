/**
 * Where the browser tests' fake Google and GitHub listen and the credentials they accept: the browser tests'
 * server runs with these settings (scripts/e2e-server.ts), and the fake provider (tests/e2e/fake-oauth-provider.ts)
 * checks them. Test-only values, refused in production (OAUTH_TEST_ENDPOINTS).
 */
export const FAKE_PROVIDER_PORT = Number(process.env.E2E_OAUTH_PORT ?? Number(process.env.E2E_PORT ?? 8788) + 1000);

export const FAKE_PROVIDER_CLIENTS = {
  google: { id: "e2e-google-client", secret: "e2e-google-secret" },
  github: { id: "e2e-github-client", secret: "e2e-github-secret" },
} as const;

/** The settings the browser tests' server runs with (scripts/e2e-server.ts): both providers, pointed here. */
export const FAKE_PROVIDER_SETTINGS = {
  GOOGLE_CLIENT_ID: FAKE_PROVIDER_CLIENTS.google.id,
  GOOGLE_CLIENT_SECRET: FAKE_PROVIDER_CLIENTS.google.secret,
  GITHUB_CLIENT_ID: FAKE_PROVIDER_CLIENTS.github.id,
  GITHUB_CLIENT_SECRET: FAKE_PROVIDER_CLIENTS.github.secret,
  OAUTH_TEST_ENDPOINTS: `http://127.0.0.1:${FAKE_PROVIDER_PORT}`,
};
