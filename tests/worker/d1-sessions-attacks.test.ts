import { exports } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { bookmarkFromCookies, sessionConstraint } from "~/server/db-session.server";
import { sessionsOpened } from "../support/d1-sessions";
import { createUser, fundedClient, getPage, ORIGIN, sessionCookieFor, signedInAdmin } from "../support/fixtures";

const COOKIE = "d1-bookmark";
const BOOKMARK = "00000000-0000000c-00000000-00000000000000000000000000000000";

afterEach(() => {
  vi.restoreAllMocks();
});

const bookmarkLines = (response: Response) =>
  response.headers.getSetCookie().filter((line) => line.startsWith(`${COOKIE}=`));

describe("a bookmark cannot steer a decision screen to a replica", () => {
  // React Router matches routes whatever their case and with a trailing slash: /ADMIN is the desk, /Confirm-Email/ the
  // confirmation link. Each must start at the primary as its canonical spelling does.
  it("starts the desk, a client's page and the writing links at the primary however the address is spelled", async () => {
    const admin = await signedInAdmin();
    const client = await fundedClient();
    const cookie = `${admin.cookie}; ${COOKIE}=${BOOKMARK}`;
    const opened = sessionsOpened();
    const desk = await getPage("/ADMIN", cookie);
    expect(desk.status).toBe(200);
    await desk.text();
    const clientPage = await getPage(`/User/${client.id}`, cookie);
    expect(clientPage.status).toBe(200);
    await clientPage.text();
    const data = await getPage("/Admin/Transactions.data", cookie);
    expect(data.status).toBe(200);
    await data.text();
    const encoded = await getPage("/%61dmin", cookie);
    expect(encoded.status).toBe(200);
    await encoded.text();
    expect(opened()).toEqual(["first-primary", "first-primary", "first-primary", "first-primary"]);
  });

  it("treats every spelling of a primary page alike", () => {
    const spellings = [
      "/ADMIN",
      "/Admin/",
      "/admin/Transactions.data",
      "/USER/0b3c",
      "/User.data",
      "/Confirm-Email",
      "/confirm-email/",
      "/confirm-email.data",
      "/Auth/github/Callback",
      "/auth/github/callback/",
      "/Account/Link",
      "/account/link/",
    ];
    for (const pathname of spellings) {
      expect(sessionConstraint({ method: "GET", pathname, bookmark: BOOKMARK }), pathname).toBe("first-primary");
    }
    // Lookalikes are other pages.
    for (const pathname of ["/administer", "/users", "/confirm-emails", "/account/linked"]) {
      expect(sessionConstraint({ method: "GET", pathname, bookmark: BOOKMARK }), pathname).toEqual({
        bookmark: BOOKMARK,
      });
    }
  });
});

describe("a forged or hostile bookmark cookie", () => {
  const hostile = [
    `${BOOKMARK}\r\nSet-Cookie: session=stolen`,
    `${BOOKMARK}; Domain=evil.example`,
    "０００００００ａ-00000003",
    `${BOOKMARK},session=x`,
    "a".repeat(5000),
    `"${BOOKMARK}"`,
    "../../etc",
    // D1's own constraints are not bookmarks: a cookie must not send every read to the primary.
    "first-primary",
    "first-unconstrained",
  ];

  it("is never passed to D1, and the page answers normally with a bookmark D1 gave", async () => {
    for (const value of hostile) {
      const opened = sessionsOpened();
      const response = await exports.default.fetch(`${ORIGIN}/login`, {
        headers: { Cookie: `${COOKIE}=${encodeURIComponent(value)}` },
      });
      expect(response.status, value).toBe(200);
      await response.text();
      expect(opened(), value).toEqual(["first-unconstrained"]);
      const lines = bookmarkLines(response);
      expect(lines.length, value).toBeLessThanOrEqual(1);
      for (const line of lines) {
        expect(line).toMatch(/^d1-bookmark=[0-9a-f-]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/);
      }
      // Only the bookmark is set: nothing from the cookie's value turns into a header of its own.
      expect(response.headers.getSetCookie().filter((line) => !line.startsWith(`${COOKIE}=`))).toEqual([]);
      vi.restoreAllMocks();
    }
  });

  it("is read from its own name only: a lookalike name or a value naming it starts nowhere in particular", () => {
    expect(bookmarkFromCookies(`D1-Bookmark=${BOOKMARK}`, COOKIE)).toBeNull();
    expect(bookmarkFromCookies(`x-d1-bookmark=${BOOKMARK}`, COOKIE)).toBeNull();
    expect(bookmarkFromCookies(`other=d1-bookmark=${BOOKMARK}`, COOKIE)).toBeNull();
    // Two of them (two paths, two writers): the first, as a browser sends the most specific first.
    expect(bookmarkFromCookies(`d1-bookmark=${BOOKMARK}; d1-bookmark=0-1`, COOKIE)).toBe(BOOKMARK);
  });

  it("of another user's browser changes where reads start, never what they return", async () => {
    const owner = await fundedClient(4_321, "Owner");
    const first = await getPage("/dashboard", owner.cookie);
    const ownersBookmark =
      bookmarkLines(first)[0]
        ?.split(";")[0]
        ?.slice(COOKIE.length + 1) ?? "";
    await first.text();
    expect(ownersBookmark).not.toBe("");
    const other = await createUser({ firstName: "Other" });
    const page = await getPage("/dashboard", `${await sessionCookieFor(other.id)}; ${COOKIE}=${ownersBookmark}`);
    const html = await page.text();
    expect(page.status).toBe(200);
    // Page-wide: the owner's name and balance must not be sent at all, in the markup or the data it hydrates from.
    expect(html).not.toContain("Owner");
    expect(html).not.toContain("43.21");
  });
});

describe("the feed's bookmark header", () => {
  it("is set by the Worker alone: a browser's own X-Feed-* and X-Listener-* headers never reach the feed", async () => {
    const client = await fundedClient();
    const victim = await fundedClient(7_777, "Victim");
    const response = await exports.default.fetch(`${ORIGIN}/ws/clients/${client.id}?since=0`, {
      headers: {
        Upgrade: "websocket",
        Origin: ORIGIN,
        Cookie: client.cookie,
        "X-Feed-Bookmark": "ffffffff-ffffffff",
        "X-Feed-Owner": victim.id,
        "X-Listener-Role": "admin",
        "X-Listener-Id": victim.id,
      },
    });
    expect(response.status).toBe(101);
    const socket = response.webSocket;
    if (!socket) throw new Error("no socket");
    const messages: string[] = [];
    socket.accept();
    socket.addEventListener("message", (event) => messages.push(String(event.data)));
    // The replay of the rows since 0 is the client's own deposit, read at the Worker's bookmark.
    await vi.waitFor(() => expect(messages.length).toBeGreaterThan(0), { timeout: 2_000 });
    socket.close(1000, "done");
    const amounts = messages.map((message) => JSON.parse(message).transaction?.amountCents);
    expect(amounts).toEqual([10_000]);
  });
});
