import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import app from "../../workers/app";

describe("/healthz", () => {
  it("answers 200 after a D1 round trip", async () => {
    const response = await exports.default.fetch("http://localhost/healthz");
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(await response.json()).toMatchObject({ status: "ok", db: "ok" });
  });

  it("answers 503 when the database cannot be reached", async () => {
    // The outside world failing: a D1 binding whose every query errors, as during an outage (the Worker
    // queries through a session of it).
    const failing = {
      prepare: () => ({
        first: () => Promise.reject(new Error("D1_ERROR: network connection lost")),
      }),
      getBookmark: () => null,
    };
    const unreachable = { ...failing, withSession: () => failing } as unknown as D1Database;
    const ctx = createExecutionContext();
    const response = await app.fetch(new Request("http://localhost/healthz"), { ...env, DB: unreachable }, ctx);
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: "error", db: "unreachable" });
  });
});
