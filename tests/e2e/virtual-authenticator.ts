import type { BrowserContext, Page } from "@playwright/test";

// Browsers refuse passkeys on an IP address: passkey pages are opened on localhost, the test server's other name.
export const LOCALHOST = `http://localhost:${process.env.E2E_PORT ?? "8788"}`;

/** Chromium's virtual authenticator (DevTools protocol): a platform passkey with user verification, offline. */
export async function virtualAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials,
    /** The device is lost: the passkeys it held are gone. */
    lose: () => cdp.send("WebAuthn.clearCredentials", { authenticatorId }),
  };
}
