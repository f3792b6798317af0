import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, inject, it, vi } from "vitest";
import { readQuote, readQuotes } from "~/server/quotes/quotes.server";
import worker from "../../workers/app";
import { createUser, ORIGIN, sessionCookieFor, signedInAdmin } from "../support/fixtures";
import { quotesControl } from "../support/quotes";

/**
 * Stock quotes (docs/decisions/0072) read for real from a world of the run's chain simulator (its `quotes` area,
 * Alpaca's latest-quotes API): the adapter's units and refusals, and `/quotes` and the stock pages through the
 * whole Worker with bindings pointed at that world.
 */
function quotesWorld(overrides: Record<string, string> = {}) {
  const quotes = quotesControl(inject("chainSimulatorUrl"), `quotes-${crypto.randomUUID().slice(0, 8)}`);
  const bindings = { ...env, ...quotes.vars, ...overrides } as typeof env;
  return { quotes, bindings };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("readQuotes", () => {
  it("reads a pinned price back exactly, in ten-thousandths, with the mid rounded", async () => {
    const { quotes, bindings } = quotesWorld();
    const pinned = await quotes.set("AAPL", { bid: "189.98", ask: "190.02" });
    expect(await readQuote(bindings, "aapl")).toEqual({
      ok: true,
      quote: { symbol: "AAPL", bidE4: 1_899_800, askE4: 1_900_200, midE4: 1_900_000, at: expect.any(Number) },
    });
    // A pinned price is quoted afresh at every read.
    expect(((await readQuote(bindings, "AAPL")) as { quote: { at: number } }).quote.at).toBeGreaterThanOrEqual(
      pinned.at,
    );
    await quotes.set("TSLA", 190);
    await quotes.set("MSFT", { bid: "10.0001", ask: "10.0004" });
    const reads = await readQuotes(bindings, ["TSLA", "MSFT"]);
    expect(reads.get("TSLA")).toMatchObject({ ok: true, quote: { bidE4: 1_899_900, askE4: 1_900_100 } });
    expect(reads.get("MSFT")).toMatchObject({ ok: true, quote: { midE4: 100_003 } });
  });

  it("calls the provider once for all symbols, never for one the watchlist does not have", async () => {
    const { bindings } = quotesWorld();
    const fetched = vi.spyOn(globalThis, "fetch");
    const reads = await readQuotes(bindings, ["AAPL", "NOPE", "msft", "AAPL"]);
    expect(fetched).toHaveBeenCalledTimes(1);
    const asked = new URL(String(fetched.mock.calls[0]?.[0])).searchParams.get("symbols");
    expect(asked).toBe("AAPL,MSFT");
    expect([...reads.keys()]).toEqual(["AAPL", "NOPE", "MSFT"]);
    expect(reads.get("NOPE")).toEqual({ ok: false, reason: "unavailable" });
    expect(reads.get("AAPL")?.ok).toBe(true);
    // Nothing known, nothing asked.
    fetched.mockClear();
    expect(await readQuote(bindings, "NOPE")).toEqual({ ok: false, reason: "unavailable" });
    expect(fetched).not.toHaveBeenCalled();
  });

  it("calls a quote older than QUOTE_MAX_AGE_SECONDS stale, never a price", async () => {
    const { quotes, bindings } = quotesWorld();
    await quotes.set("AAPL", 190);
    await quotes.age("AAPL", 60);
    expect(await readQuote(bindings, "AAPL")).toEqual({ ok: false, reason: "stale" });
    await quotes.age("AAPL", 10);
    expect((await readQuote(bindings, "AAPL")).ok).toBe(true);
    // The same quote, 10 s old, at a 5-second limit; or read 6 s later.
    const strict = { ...bindings, QUOTE_MAX_AGE_SECONDS: "5" } as typeof env;
    expect(await readQuote(strict, "AAPL")).toEqual({ ok: false, reason: "stale" });
    expect(await readQuote(bindings, "AAPL", Date.now() + 6_000)).toEqual({ ok: false, reason: "stale" });
  });

  it("refuses a crossed or a zero quote as unavailable", async () => {
    const { quotes, bindings } = quotesWorld();
    await quotes.set("AAPL", { bid: "190.02", ask: "189.98" });
    await quotes.set("TSLA", { bid: "0", ask: "250" });
    const reads = await readQuotes(bindings, ["AAPL", "TSLA"]);
    expect(reads.get("AAPL")).toEqual({ ok: false, reason: "unavailable" });
    expect(reads.get("TSLA")).toEqual({ ok: false, reason: "unavailable" });
  });

  it("gives unavailable for each symbol in an outage, without keys (401), or without a provider", async () => {
    const { quotes, bindings } = quotesWorld();
    await quotes.fail();
    const down = await readQuotes(bindings, ["AAPL", "TSLA"]);
    expect([...down.values()]).toEqual([
      { ok: false, reason: "unavailable" },
      { ok: false, reason: "unavailable" },
    ]);
    await quotes.ok();
    expect((await readQuote(bindings, "AAPL")).ok).toBe(true);

    const noKeys = { ...bindings, QUOTES_KEY_ID: "", QUOTES_SECRET_KEY: "" } as typeof env;
    const fetched = vi.spyOn(globalThis, "fetch");
    expect(await readQuote(noKeys, "AAPL")).toEqual({ ok: false, reason: "unavailable" });
    expect((await fetched.mock.results[0]?.value)?.status).toBe(401);

    // The test configuration's own bindings: no QUOTES_URL, no call.
    fetched.mockClear();
    expect(await readQuote(env, "AAPL")).toEqual({ ok: false, reason: "unavailable" });
    expect(fetched).not.toHaveBeenCalled();
  });

  it("takes a bad answer or a refused setting as unavailable, never throwing", async () => {
    const { bindings } = quotesWorld();
    vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(new Response("<html>", { status: 200 }));
    expect(await readQuote(bindings, "AAPL")).toEqual({ ok: false, reason: "unavailable" });
    vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(
      Response.json({ quotes: { AAPL: { ap: "190", bp: 189, t: "2026-11-29T10:00:00Z" } } }),
    );
    expect(await readQuote(bindings, "AAPL")).toEqual({ ok: false, reason: "unavailable" });
    vi.spyOn(globalThis, "fetch").mockRejectedValueOnce(new TypeError("network down"));
    expect(await readQuote(bindings, "AAPL")).toEqual({ ok: false, reason: "unavailable" });
    // Production takes https only: the simulator's http address is refused, and nothing is asked.
    const production = { ...bindings, ENVIRONMENT: "production" } as typeof env;
    expect(await readQuote(production, "AAPL")).toEqual({ ok: false, reason: "unavailable" });
  });

  it("reads Alpaca's nanosecond times to the millisecond", async () => {
    const { bindings } = quotesWorld();
    const now = Date.parse("2026-11-29T10:00:05.000Z");
    vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(
      Response.json({
        quotes: {
          AAPL: {
            ap: 190.02,
            as: 1,
            ax: "V",
            bp: 189.98,
            bs: 2,
            bx: "V",
            c: ["R"],
            t: "2026-11-29T10:00:00.123456789Z",
            z: "C",
          },
        },
      }),
    );
    expect(await readQuote(bindings, "AAPL", now)).toEqual({
      ok: true,
      quote: { symbol: "AAPL", bidE4: 1_899_800, askE4: 1_900_200, midE4: 1_900_000, at: now - 4_877 },
    });
  });
});

/** A page's text as read: without the markers React puts between adjacent texts. */
const pageText = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");

/** A GET through the whole Worker with these bindings, background work included. */
async function visit(path: string, bindings: typeof env, cookie?: string) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`${ORIGIN}${path}`, { redirect: "manual", headers: cookie ? { Cookie: cookie } : {} }),
    bindings,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

describe("/quotes", () => {
  it("refuses a signed-out visitor and an admin, and is never cached", async () => {
    const { bindings } = quotesWorld();
    const signedOut = await visit("/quotes?symbols=AAPL", bindings);
    expect(signedOut.status).toBe(401);
    expect(signedOut.headers.get("Cache-Control")).toContain("no-store");
    const admin = await signedInAdmin();
    expect((await visit("/quotes?symbols=AAPL", bindings, admin.cookie)).status).toBe(403);
  });

  it("answers a signed-in client with the watchlist's symbols asked for, live or not", async () => {
    const { quotes, bindings } = quotesWorld();
    await quotes.set("AAPL", 190);
    await quotes.set("TSLA", 250);
    await quotes.age("TSLA", 60);
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    const response = await visit("/quotes?symbols=aapl,TSLA,NOPE", bindings, cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toContain("no-store");
    expect(await response.json()).toEqual({
      quotes: [
        { symbol: "AAPL", bid: 1_899_900, ask: 1_900_100, mid: 1_900_000, at: expect.any(Number), state: "live" },
        { symbol: "TSLA", bid: null, ask: null, mid: null, at: null, state: "stale" },
      ],
    });
    const many = Array.from({ length: 61 }, (_, i) => `S${i}`).join(",");
    expect((await visit(`/quotes?symbols=${many}`, bindings, cookie)).status).toBe(400);
  });

  it("does not count as the client's activity: a page left open does not keep the session alive", async () => {
    const { bindings } = quotesWorld();
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id, Date.now() - 10 * 60_000);
    const lastSeen = () =>
      env.DB.prepare("SELECT max(last_seen_at) AS at FROM sessions WHERE user_id = ?")
        .bind(client.id)
        .first<number>("at");
    const before = await lastSeen();
    expect((await visit("/quotes?symbols=AAPL", bindings, cookie)).status).toBe(200);
    expect(await lastSeen()).toBe(before);
    // A page the client opens does count.
    await visit("/stocks/AAPL", bindings, cookie);
    expect(await lastSeen()).toBeGreaterThan(before ?? 0);
  });

  it("gives the stock pages a signed-in client's live price before hydration, a visitor's the list price", async () => {
    const { quotes, bindings } = quotesWorld();
    await quotes.set("AAPL", { bid: "189.99", ask: "190.01" });
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    const detail = await pageText(await visit("/stocks/AAPL", bindings, cookie));
    expect(detail).toContain("$190.00");
    expect(detail).toContain("Bid $189.99 · Ask $190.01");
    expect(detail).toMatch(/\d{2}:\d{2}:\d{2} UTC/);
    const list = await pageText(await visit("/stocks", bindings, cookie));
    expect(list).toContain("$190.00");
    const visitor = await pageText(await visit("/stocks/AAPL", bindings));
    expect(visitor).toContain("$229.87");
    expect(visitor).not.toContain("Bid $189.99");
    await quotes.fail();
    expect(await pageText(await visit("/stocks/AAPL", bindings, cookie))).toContain("Price unavailable");
  });
});
