import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { schema } from "~/server/db.server";
import { RESEND_API_URL, readAppEnv } from "~/server/env.server";
import { deliverEmail, enqueueEmail } from "~/server/mail/outbox.server";
import worker from "../../workers/app";
import { appEnv, db, productionBindings } from "../support/fixtures";

/**
 * The mail provider's address is a setting (RESEND_BASE_URL): Resend's own API unless configured, the local
 * simulator under `npm run dev` (scripts/lib/mail-simulator.ts). The adapter must post where it says.
 */
const { emailOutbox } = schema;

/** Every request the Worker makes, answered as Resend accepts a mail. */
function recordRequests() {
  const urls: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    urls.push(new Request(input as RequestInfo, init as RequestInit).url);
    return Response.json({ id: "re_accepted" });
  });
  return urls;
}

async function enqueueWelcome() {
  const [row] = await db.batch([
    enqueueEmail(db, { to: "provider-url@example.com", template: "welcome", data: { name: "Robin" } }),
  ]);
  const id = row[0]?.id;
  if (!id) throw new Error("no outbox row");
  return id;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the mail provider's address", () => {
  it("is Resend's own API unless configured", () => {
    expect(appEnv.RESEND_BASE_URL).toBe(RESEND_API_URL);
    expect(RESEND_API_URL).toBe("https://api.resend.com");
    expect(readAppEnv({ ...env, RESEND_BASE_URL: "" } as never).RESEND_BASE_URL).toBe(RESEND_API_URL);
  });

  it("is where the adapter posts each mail, without a doubled slash", async () => {
    const configured = readAppEnv({
      ...env,
      RESEND_API_KEY: "re_test_key",
      RESEND_BASE_URL: "http://127.0.0.1:9787/",
    } as never);
    const id = await enqueueWelcome();
    const urls = recordRequests();
    expect(await deliverEmail(db, configured, id)).toBe("sent");
    expect(urls).toEqual(["http://127.0.0.1:9787/emails"]);
  });

  it("is read from the Worker's bindings by the cron's delivery", async () => {
    const id = await enqueueWelcome();
    const urls = recordRequests();
    const ctx = createExecutionContext();
    await worker.scheduled(
      createScheduledController({ cron: "* * * * *" }),
      { ...env, RESEND_API_KEY: "re_test_key", RESEND_BASE_URL: "http://mail-simulator.test:8025" },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(urls).toContain("http://mail-simulator.test:8025/emails");
    expect(urls.filter((url) => !url.startsWith("http://mail-simulator.test:8025/"))).toEqual([]);
    expect((await db.select().from(emailOutbox).where(eq(emailOutbox.id, id)).get())?.status).toBe("sent");
  });

  it("must be an http(s) URL, and https in production, where the API key travels with every request", () => {
    const production = productionBindings();
    expect(() => readAppEnv({ ...production } as never)).not.toThrow();
    expect(() => readAppEnv({ ...production, RESEND_BASE_URL: "http://127.0.0.1:9787" } as never)).toThrow(
      /RESEND_BASE_URL must be an https URL in production/,
    );
    expect(() => readAppEnv({ ...env, RESEND_BASE_URL: "api.resend.com" } as never)).toThrow(
      /RESEND_BASE_URL must be an http\(s\) URL/,
    );
    expect(() => readAppEnv({ ...env, RESEND_BASE_URL: "ftp://127.0.0.1/" } as never)).toThrow(
      /RESEND_BASE_URL must be an http\(s\) URL/,
    );
  });
});
