/// <reference types="vite/client" />
import { env, exports } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { transactionReference } from "~/lib/reference";
import {
  BOOKMARK_MAX_AGE_SECONDS,
  bookmarkCookieName,
  bookmarkSetCookie,
  isWellFormedBookmark,
  openSession,
  sessionConstraint,
} from "~/server/db-session.server";
import { sessionsOpened } from "../support/d1-sessions";
import {
  createUser,
  ensureDepositWallets,
  fundedClient,
  getPage,
  ORIGIN,
  postForm,
  sessionCookieFor,
  signedInAdmin,
} from "../support/fixtures";
import { buttonNames, cardTitled, testIdText } from "../support/places";

const COOKIE = "d1-bookmark";

beforeAll(async () => {
  await ensureDepositWallets();
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** The Set-Cookie line a response sets for the bookmark, or undefined. */
const bookmarkLine = (response: Response) =>
  response.headers.getSetCookie().find((line) => line.startsWith(`${COOKIE}=`));

const bookmarkValue = (response: Response) =>
  bookmarkLine(response)
    ?.split(";")[0]
    ?.slice(COOKIE.length + 1);

/** A browser's cookie jar: what the responses set, sent back on the next request. */
function cookieJar(initial: string) {
  const cookies = new Map<string, string>();
  for (const pair of initial.split("; ").filter(Boolean)) {
    const [name, ...value] = pair.split("=");
    cookies.set(name ?? "", value.join("="));
  }
  return {
    take(response: Response) {
      for (const line of response.headers.getSetCookie()) {
        const [pair = ""] = line.split(";");
        const [name, ...value] = pair.split("=");
        if (/max-age=0/i.test(line)) cookies.delete(name ?? "");
        else cookies.set(name ?? "", value.join("="));
      }
    },
    get header() {
      return [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    },
    get: (name: string) => cookies.get(name),
  };
}

describe("sessionConstraint", () => {
  const bookmark = "00000000-0000000c-00000000-00000000000000000000000000000000";

  it("starts every action at the primary, whatever bookmark the browser holds", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE", "post"]) {
      expect(sessionConstraint({ method, pathname: "/deposit", bookmark })).toBe("first-primary");
      expect(sessionConstraint({ method, pathname: "/withdraw.data", bookmark: null })).toBe("first-primary");
    }
  });

  it("starts the admin's decision screens at the primary, their single-fetch data requests included", () => {
    const paths = [
      "/admin",
      "/admin/",
      "/admin/transactions",
      "/admin/transactions.csv",
      "/admin/audit",
      "/admin.data",
      "/admin/_.data",
      "/admin/transactions.data",
      "/user",
      "/user/0b3c",
      "/user/0b3c.data",
      "/user/0b3c/export",
    ];
    for (const pathname of paths) {
      expect(sessionConstraint({ method: "GET", pathname, bookmark })).toBe("first-primary");
      expect(sessionConstraint({ method: "HEAD", pathname, bookmark: null })).toBe("first-primary");
    }
  });

  it("starts the links whose loaders write at the primary", () => {
    for (const pathname of ["/confirm-email", "/auth/github/callback", "/account/link"]) {
      expect(sessionConstraint({ method: "GET", pathname, bookmark })).toBe("first-primary");
    }
  });

  it("starts other pages at the browser's bookmark, or anywhere without one", () => {
    for (const pathname of [
      "/dashboard",
      "/dashboard.data",
      "/transactions",
      "/",
      "/_.data",
      "/users",
      "/administer",
    ]) {
      expect(sessionConstraint({ method: "GET", pathname, bookmark })).toEqual({ bookmark });
      expect(sessionConstraint({ method: "GET", pathname, bookmark: null })).toBe("first-unconstrained");
      expect(sessionConstraint({ method: "GET", pathname, bookmark: "" })).toBe("first-unconstrained");
    }
  });

  it("never passes a malformed bookmark to D1", () => {
    const malformed = [
      "garbage",
      "<script>",
      "0000-zzzz",
      "a".repeat(300),
      "00000000-0000000c; Path=/",
      "-00",
      "0".repeat(65),
    ];
    for (const value of malformed) {
      expect(isWellFormedBookmark(value)).toBe(false);
      expect(sessionConstraint({ method: "GET", pathname: "/dashboard", bookmark: value })).toBe("first-unconstrained");
    }
    expect(isWellFormedBookmark(bookmark)).toBe(true);
  });

  it("names the cookie __Host- in production only, where it is Secure", () => {
    expect(bookmarkCookieName({ ENVIRONMENT: "production" })).toBe("__Host-d1-bookmark");
    expect(bookmarkCookieName({ ENVIRONMENT: "development" })).toBe("d1-bookmark");
    expect(bookmarkCookieName({ ENVIRONMENT: "test" })).toBe("d1-bookmark");
    const production = bookmarkSetCookie({ ENVIRONMENT: "production" }, bookmark).split("; ");
    // A __Host- cookie is refused by browsers unless Secure, Path=/ and without Domain.
    expect(production[0]).toBe(`__Host-d1-bookmark=${bookmark}`);
    expect(production).toEqual(expect.arrayContaining(["Secure", "Path=/", "HttpOnly", "SameSite=Lax"]));
    expect(production.some((part) => part.startsWith("Domain"))).toBe(false);
    expect(bookmarkSetCookie({ ENVIRONMENT: "development" }, bookmark).split("; ")).not.toContain("Secure");
  });
});

describe("the bookmark cookie", () => {
  it("is set on a page that read D1, HttpOnly, SameSite=Lax, for the whole site, for a few hours", async () => {
    const client = await fundedClient();
    const response = await getPage("/dashboard", client.cookie);
    expect(response.status).toBe(200);
    const line = bookmarkLine(response) ?? "";
    const attributes = line.split(";").map((part) => part.trim().toLowerCase());
    expect(isWellFormedBookmark(bookmarkValue(response))).toBe(true);
    expect(attributes).toEqual(
      expect.arrayContaining(["httponly", "samesite=lax", "path=/", `max-age=${BOOKMARK_MAX_AGE_SECONDS}`]),
    );
    expect(BOOKMARK_MAX_AGE_SECONDS).toBeGreaterThanOrEqual(60 * 60);
    // Not Secure outside production: the local site is served over http.
    expect(attributes).not.toContain("secure");
    // Set once, by the Worker, however many loaders the page has.
    expect(response.headers.getSetCookie().filter((l) => l.startsWith(`${COOKIE}=`))).toHaveLength(1);
  });

  it("is sent back and the next page starts its session there; an unchanged bookmark is not set again", async () => {
    const client = await fundedClient();
    const first = await getPage("/dashboard", client.cookie);
    const bookmark = bookmarkValue(first) ?? "";
    const opened = sessionsOpened();
    const second = await getPage("/transactions", `${client.cookie}; ${COOKIE}=${bookmark}`);
    expect(second.status).toBe(200);
    expect(opened()).toEqual([bookmark]);
    // Reads only: the session's bookmark is the one the browser sent, so no Set-Cookie repeats it.
    const again = bookmarkValue(second);
    if (again !== undefined) expect(again).not.toBe(bookmark);
  });

  it("refuses a forged or garbage bookmark gracefully: a 200 page, read anywhere, and a good bookmark back", async () => {
    const client = await fundedClient();
    for (const forged of ["garbage", "%3Cscript%3E", "x".repeat(5_000), "00000000-zz"]) {
      const opened = sessionsOpened();
      const response = await getPage("/dashboard", `${client.cookie}; ${COOKIE}=${forged}`);
      expect(response.status).toBe(200);
      expect(testIdText(await response.text(), "greeting")).toMatch(/^Welcome/);
      expect(opened()).toEqual(["first-unconstrained"]);
      expect(isWellFormedBookmark(bookmarkValue(response))).toBe(true);
      vi.restoreAllMocks();
    }
  });

  it("is not set on a websocket handshake", async () => {
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    const response = await exports.default.fetch(`${ORIGIN}/ws/clients/${client.id}`, {
      headers: { Upgrade: "websocket", Cookie: cookie, Origin: ORIGIN },
    });
    expect(response.status).toBe(101);
    response.webSocket?.accept();
    expect(bookmarkLine(response)).toBeUndefined();
    response.webSocket?.close(1000);
  });
});

describe("where requests read", () => {
  it("actions open their session at the primary, even with a bookmark in the request", async () => {
    const client = await fundedClient();
    const page = await getPage("/dashboard", client.cookie);
    const opened = sessionsOpened();
    const response = await postForm(
      "/deposit",
      { amount: "12.00", walletType: "BTC", idempotencyKey: crypto.randomUUID() },
      { cookie: `${client.cookie}; ${COOKIE}=${bookmarkValue(page)}` },
    );
    expect(response.status).toBe(302);
    expect(opened()).toEqual(["first-primary"]);
  });

  it("the admin's desk and client page open theirs at the primary", async () => {
    const admin = await signedInAdmin();
    const client = await fundedClient();
    const opened = sessionsOpened();
    expect((await getPage("/admin", admin.cookie)).status).toBe(200);
    expect((await getPage(`/user/${client.id}`, admin.cookie)).status).toBe(200);
    expect(opened()).toEqual(["first-primary", "first-primary"]);
  });

  it("a client who submits a deposit and lands on /dashboard sees it there (read-your-writes)", async () => {
    const client = await fundedClient();
    const jar = cookieJar(client.cookie);
    jar.take(await getPage("/deposit", jar.header));
    const opened = sessionsOpened();

    const submitted = await postForm(
      "/deposit",
      { amount: "321.00", walletType: "ETH", idempotencyKey: crypto.randomUUID() },
      { cookie: jar.header },
    );
    expect(submitted.status).toBe(302);
    expect(submitted.headers.get("Location")).toBe("/dashboard");
    jar.take(submitted);
    const afterWrite = jar.get(COOKIE);
    expect(isWellFormedBookmark(afterWrite)).toBe(true);

    const dashboard = await getPage("/dashboard", jar.header);
    const html = await dashboard.text();
    // The dashboard's session started at the bookmark the deposit's response handed over.
    expect(opened()).toEqual(["first-primary", afterWrite]);
    expect(buttonNames(html)).toContain("Cancel deposit of $321.00");
    const row = await env.DB.prepare(
      "SELECT id FROM transactions WHERE user_id = ? AND amount_cents = 32100 AND status = 'pending'",
    )
      .bind(client.id)
      .first<{ id: number }>();
    expect(cardTitled(html, "Pending & Declined Transactions")).toContain(transactionReference(row?.id ?? 0));
  });
});

describe("a bookmark D1 refuses", () => {
  /**
   * The local D1 accepts any bookmark, so the refusal comes from a stand-in binding: the real one, except
   * that a session opened from a bookmark fails its first query as D1 does for a bookmark it cannot serve.
   */
  function refusingBookmarks(real: D1Database) {
    const starts: string[] = [];
    const binding = {
      withSession(start: string) {
        starts.push(start);
        const session = real.withSession(start);
        if (start === "first-primary" || start === "first-unconstrained") return session;
        const refuse = () => Promise.reject(new Error("D1_ERROR: Invalid bookmark: cannot serve it"));
        return {
          prepare: (sql: string) => {
            const refused = { bind: () => refused, first: refuse, all: refuse, run: refuse, raw: refuse };
            void sql;
            return refused;
          },
          batch: refuse,
          getBookmark: () => start,
        };
      },
    } as unknown as D1Database;
    return { binding, starts };
  }

  it("is dropped: the query runs again on a session opened anywhere", async () => {
    const { binding, starts } = refusingBookmarks(env.DB);
    const session = openSession(binding, { bookmark: "00000000-0000000c-00000000-00000000000000000000000000000000" });
    const [single, batched] = await Promise.all([
      session.client.prepare("SELECT 1 AS one").first<{ one: number }>(),
      session.client.batch<{ two: number }>([session.client.prepare("SELECT ? AS two").bind(2)]),
    ]);
    expect(single?.one).toBe(1);
    expect(batched[0]?.results).toEqual([{ two: 2 }]);
    expect(starts[0]).not.toBe("first-unconstrained");
    expect(starts.slice(1)).toContain("first-unconstrained");
    expect(isWellFormedBookmark(session.bookmark())).toBe(true);
  });

  it("does not hide other errors", async () => {
    const session = openSession(env.DB, { bookmark: "00000000-0000000c-00000000-00000000000000000000000000000000" });
    await expect(session.client.prepare("SELECT * FROM no_such_table").all()).rejects.toThrow(/no such table/);
  });
});

describe("no code path bypasses the session", () => {
  const sources = import.meta.glob(["/app/**/*.{ts,tsx}", "/workers/**/*.ts"], {
    query: "?raw",
    import: "default",
    eager: true,
  }) as Record<string, string>;

  it("reads the sources", () => {
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    expect(Object.keys(sources)).toContain("/workers/middleware/request-context.ts");
  });

  /** D1's exec() or dump() on anything that could be a binding, a session or drizzle's client; not RegExp#exec. */
  const callsExecOrDump = (text: string) =>
    /\bdump\s*\(|(?:\bDB|\bdb|\$client|\bd1|\bsession|\bdatabase)\s*\??\.\s*exec\s*\(/.test(text);
  /** The binding used for anything but opening a session (the request's is opened by `openSession`). */
  const bypassesSession = (text: string) =>
    /\.DB\b(?!\.withSession\()/.test(text.replace(/openSession\(\s*c\.env\.DB\b/g, ""));

  it("recognises what it looks for", () => {
    for (const call of ["env.DB.exec(sql)", "db.$client.exec(`DELETE`)", "this.env.DB.dump()", "session.exec (x)"]) {
      expect(callsExecOrDump(call)).toBe(true);
    }
    expect(callsExecOrDump("const match = MONTH_PATTERN.exec(input);")).toBe(false);
    expect(bypassesSession("await env.DB.prepare('SELECT 1').first()")).toBe(true);
    expect(bypassesSession("createDb(bindings.DB)")).toBe(true);
    expect(bypassesSession('createDb(bindings.DB.withSession("first-primary"))')).toBe(false);
  });

  it("never calls D1's exec() or dump(), which a session does not have", () => {
    const offenders = Object.entries(sources).flatMap(([path, text]) => (callsExecOrDump(text) ? [path] : []));
    expect(offenders).toEqual([]);
  });

  it("touches the D1 binding only to open a session", () => {
    const offenders = Object.entries(sources).flatMap(([path, text]) => (bypassesSession(text) ? [path] : []));
    expect(offenders).toEqual([]);
  });
});
