import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../workers/app";
import { createUser } from "../support/fixtures";

/** A forgot-password request as someone sends it, to a host of their choosing, against a Worker with `bindings`. */
async function forgotPassword(email: string, host: string, bindings: Record<string, unknown>) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`http://${host}/forgot-password`, {
      method: "POST",
      body: new URLSearchParams({ email }).toString(),
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: `http://${host}`,
        "Sec-Fetch-Site": "same-origin",
        Host: host,
      },
    }),
    { ...env, ...bindings },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

async function latestResetUrl(email: string) {
  const row = await env.DB.prepare(
    "SELECT payload FROM email_outbox WHERE to_address = ? AND template = 'password_reset' ORDER BY id DESC",
  )
    .bind(email)
    .first<{ payload: string }>();
  return new URL(JSON.parse(row?.payload ?? "{}").resetUrl);
}

describe("links in mails", () => {
  it("point at the configured site, whatever host the request named", async () => {
    const client = await createUser();
    const response = await forgotPassword(client.email, "evil.example", { SITE_URL: "https://portal.example" });
    expect(response.status).toBe(200);
    expect((await latestResetUrl(client.email)).origin).toBe("https://portal.example");
  });

  it("point at the request's own address when no site is configured (local development)", async () => {
    const client = await createUser();
    await forgotPassword(client.email, "localhost", {});
    expect((await latestResetUrl(client.email)).origin).toBe("http://localhost");
  });
});
