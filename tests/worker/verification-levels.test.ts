import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type ClientListQuery, parseClientList } from "~/lib/client-list";
import { parseFeedEvent } from "~/lib/realtime";
import { VERIFICATION_MESSAGES, verificationDueAt, verificationLevel } from "~/lib/verification";
import { clientsPageQuery } from "~/server/admin/desk.server";
import { readAppEnv } from "~/server/env.server";
import worker from "../../workers/app";
import wranglerToml from "../../wrangler.toml?raw";
import {
  appEnv,
  createUser,
  db,
  getPage,
  insertTransaction,
  ORIGIN,
  sessionCookieFor,
  signedInAdmin,
} from "../support/fixtures";
import { alerts, elementTexts, testIdText, testIdTexts } from "../support/places";
import { rowCells } from "../support/tables";
import { insertCase } from "../support/verification-fixtures";
import { registeredAt } from "../support/verification-state";

/** The level as the back office shows it: User Management (and its filter), the client page, pending withdrawals. */

let admin: Awaited<ReturnType<typeof signedInAdmin>>;

beforeAll(async () => {
  admin = await signedInAdmin();
});

const DAY = 24 * 60 * 60 * 1000;

/** Three clients sharing a name found by nobody else's search: one verified, one submitted, one without a case. */
async function threeClients() {
  const tag = `Lvl${crypto.randomUUID().slice(0, 8)}`;
  const verified = await createUser({ firstName: `${tag}verified` });
  const submitted = await createUser({ firstName: `${tag}submitted` });
  const none = await createUser({ firstName: `${tag}none` });
  await insertCase(verified.id, { status: "approved" });
  await insertCase(submitted.id, { status: "submitted" });
  return { tag, verified, submitted, none };
}

const list = (search: string, level: ClientListQuery["level"]): ClientListQuery => ({
  ...parseClientList(new URLSearchParams()).query,
  search,
  level,
});

async function namesAt(
  search: string,
  level: ClientListQuery["level"],
  now: number,
  introducedAt = appEnv.VERIFICATION_INTRODUCED_AT,
) {
  const rows = await clientsPageQuery(db, list(search, level), 50, introducedAt, now);
  return rows.map((row) => row.firstName).sort();
}

describe("User Management's level filter", () => {
  it("filters by the same rule as the level everywhere else, before and after the deadline", async () => {
    const { tag } = await threeClients();
    const before = Date.now();
    expect(await namesAt(tag, "verified", before)).toEqual([`${tag}verified`]);
    expect(await namesAt(tag, "unverified", before)).toEqual([`${tag}none`, `${tag}submitted`]);
    expect(await namesAt(tag, "restricted", before)).toEqual([]);
    // Past the deadline (14 days from registration, or from the day verification began), unverified is restricted.
    const introducedAt = appEnv.VERIFICATION_INTRODUCED_AT;
    const after = verificationDueAt(Math.max(Date.now(), introducedAt), introducedAt) + DAY;
    expect(await namesAt(tag, "restricted", after)).toEqual([`${tag}none`, `${tag}submitted`]);
    expect(await namesAt(tag, "unverified", after)).toEqual([]);
    expect(await namesAt(tag, "verified", after)).toEqual([`${tag}verified`]);
    // And the SQL agrees with the rule itself, row by row.
    for (const row of await clientsPageQuery(db, list(tag, null), 50, introducedAt, after)) {
      expect(verificationLevel(row.caseStatus, row.createdAt, after, introducedAt)).toBe(
        row.firstName.endsWith("verified") ? "verified" : "restricted",
      );
    }
  });

  it("is in the desk's URL, shows each client's level, and names a bad value", async () => {
    const { tag } = await threeClients();
    const html = await (await getPage(`/admin?q=${tag}&level=verified`, admin.cookie)).text();
    expect(rowCells(html, `${tag}verified`)).not.toBeNull();
    expect(rowCells(html, `${tag}none`)).toBeNull();
    expect(testIdTexts(html, "verification-level")).toEqual(["Verified"]);
    const bad = await (await getPage(`/admin?q=${tag}&level=gold`, admin.cookie)).text();
    expect(alerts(bad)).toContain("Unknown level filter: use unverified, verified or restricted.");
    expect(rowCells(bad, `${tag}none`)).not.toBeNull();
  });
});

describe("the day verification began, a setting (VERIFICATION_INTRODUCED_AT)", () => {
  /** A fixed clock: past 14 days from 2026-01-01, not yet past 14 days from production's 2026-11-25. */
  const NOW = Date.UTC(2026, 10, 30);
  const REGISTERED = Date.UTC(2025, 5, 1);
  const earlier = { ...env, VERIFICATION_INTRODUCED_AT: "2026-01-01" };
  const unset: typeof env = { ...env };
  delete (unset as Record<string, unknown>).VERIFICATION_INTRODUCED_AT;

  afterEach(() => {
    vi.useRealTimers();
  });

  /** A page through the Worker run with these bindings. */
  async function pageWith(bindings: typeof env, path: string, cookie: string) {
    const ctx = createExecutionContext();
    const response = await worker.fetch(
      new Request(`${ORIGIN}${path}`, { headers: { Cookie: cookie } }),
      bindings,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return response.text();
  }

  it("is a UTC day, production's when unset or empty, and a value that is not a day is refused by name", () => {
    expect(readAppEnv(earlier).VERIFICATION_INTRODUCED_AT).toBe(Date.UTC(2026, 0, 1));
    expect(readAppEnv(unset).VERIFICATION_INTRODUCED_AT).toBe(Date.UTC(2026, 10, 25));
    expect(readAppEnv({ ...env, VERIFICATION_INTRODUCED_AT: "" }).VERIFICATION_INTRODUCED_AT).toBe(
      Date.UTC(2026, 10, 25),
    );
    // wrangler.toml's [vars] keeps production's day (a local .dev.vars may set an earlier one for trying it out).
    const configured = /^VERIFICATION_INTRODUCED_AT = "([^"]*)"$/m.exec(wranglerToml)?.[1];
    expect(readAppEnv({ ...env, VERIFICATION_INTRODUCED_AT: configured }).VERIFICATION_INTRODUCED_AT).toBe(
      Date.UTC(2026, 10, 25),
    );
    expect(() => readAppEnv({ ...env, VERIFICATION_INTRODUCED_AT: "2026-02-30" })).toThrow(
      "VERIFICATION_INTRODUCED_AT: VERIFICATION_INTRODUCED_AT must be a day as YYYY-MM-DD, e.g. 2026-11-25",
    );
  });

  it("makes an old unverified account Restricted from an earlier day; unset, not before production's day", async () => {
    const tag = `Began${crypto.randomUUID().slice(0, 8)}`;
    const old = await createUser({ firstName: `${tag}old` });
    await registeredAt(old.id, REGISTERED);
    const early = readAppEnv(earlier).VERIFICATION_INTRODUCED_AT;
    const production = readAppEnv(unset).VERIFICATION_INTRODUCED_AT;
    expect(verificationLevel(null, REGISTERED, NOW, early)).toBe("restricted");
    expect(verificationLevel(null, REGISTERED, NOW, production)).toBe("unverified");
    expect(await namesAt(tag, "restricted", NOW, early)).toEqual([`${tag}old`]);
    expect(await namesAt(tag, "restricted", NOW, production)).toEqual([]);
    expect(await namesAt(tag, "unverified", NOW, production)).toEqual([`${tag}old`]);
  });

  it("decides what the pages show: the client's deposit form and the desk's Level filter", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOW);
    const tag = `Began${crypto.randomUUID().slice(0, 8)}`;
    const old = await createUser({ firstName: `${tag}old` });
    await registeredAt(old.id, REGISTERED);
    const asClient = await sessionCookieFor(old.id);
    const admin = await signedInAdmin();

    const levelNotice = async (bindings: typeof env) =>
      testIdText(await pageWith(bindings, "/deposit", asClient), "verification-level");
    expect(await levelNotice(earlier)).toContain(VERIFICATION_MESSAGES.restricted);
    const underProduction = await levelNotice(unset);
    expect(underProduction).not.toContain(VERIFICATION_MESSAGES.restricted);
    expect(underProduction).toContain("9 days left to verify your identity before new deposits stop.");

    const restrictedRow = async (bindings: typeof env) =>
      rowCells(await pageWith(bindings, `/admin?q=${tag}&level=restricted`, admin.cookie), `${tag}old`);
    expect(await restrictedRow(earlier)).not.toBeNull();
    expect(await restrictedRow(unset)).toBeNull();
  });
});

describe("the level beside a pending withdrawal", () => {
  it("shows on the client page's pending withdrawal row, on the desk's waiting list and on /admin/transactions", async () => {
    const client = await createUser({ firstName: "Wanda" });
    await insertTransaction(client.id, { transactionType: "deposit", status: "approved", amountCents: 50_000 });
    await insertTransaction(client.id, {
      transactionType: "withdraw",
      status: "pending",
      amountCents: 1_000,
      withdrawalWalletAddress: "0x4444444444444444444444444444444444444444",
      createdAt: 1_000,
    });
    const page = await (await getPage(`/user/${client.id}`, admin.cookie)).text();
    // The profile's identity line and the pending withdrawal's row.
    expect(testIdTexts(page, "verification-level")).toEqual(["Unverified", "Unverified"]);
    expect(elementTexts(page, "p").find((line) => line.startsWith("Identity"))).toContain("Not started");

    const desk = await (await getPage("/admin", admin.cookie)).text();
    const row = desk.slice(desk.indexOf(`/user/${client.id}`));
    expect(row.slice(0, row.indexOf("</li>"))).toMatch(/data-testid="verification-level"[^>]*>Unverified</);

    // Every transaction of the client there, but only the pending withdrawal carries the level.
    const all = await (
      await getPage(`/admin/transactions?client=${encodeURIComponent(client.email)}`, admin.cookie)
    ).text();
    expect(testIdTexts(all, "verification-level")).toEqual(["Unverified"]);
  });
});

describe("the desk feed", () => {
  it("carries a verification's change as an event the pages reload on", () => {
    expect(parseFeedEvent({ type: "verification.changed", userId: "u1", extra: 1 })).toEqual({
      type: "verification.changed",
      userId: "u1",
    });
    expect(parseFeedEvent({ type: "verification.changed" })).toBeNull();
  });
});
