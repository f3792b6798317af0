import { describe, expect, it } from "vitest";
import { createUser, getPage, postForm, TEST_PASSWORD } from "../support/fixtures";

/** Values an attacker puts in /login?redirectTo=… hoping the browser follows the answer off-site. */
const HOSTILE = [
  "//evil.example/phish",
  "///evil.example",
  "https://evil.example",
  "http:evil.example",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "/\\/evil.example",
  "/\t/evil.example/phish",
  "/\n/evil.example",
  "/\r\n/evil.example",
  "/\u0000/evil.example",
  "/\u001f/evil.example",
  "/\u007f/evil.example",
  " //evil.example",
  "\t//evil.example",
  "/dashboard\\..\\..\\evil",
  "",
] as const;

/** Same-site paths that must keep working. */
const SAFE = ["/account", "/stocks?q=a%2Fb", "/user/abc?before=1.2", "/%2F%2Fevil.example", "/a/b/c#x"] as const;

describe("the redirect after sign-in", () => {
  const signIn = async (redirectTo: string) => {
    const client = await createUser();
    return postForm("/login", { email: client.email, password: TEST_PASSWORD, redirectTo });
  };

  it.each(HOSTILE.map((value) => [JSON.stringify(value), value]))(
    "refuses %s and sends the client to /dashboard",
    async (_label, value) => {
      const response = await signIn(value);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/dashboard");
    },
  );

  it.each(SAFE.map((value) => [value]))("keeps the same-site path %s", async (value) => {
    expect((await signIn(value)).headers.get("Location")).toBe(value);
  });
});

describe("a signed-out visit to a client page", () => {
  it.each([
    ["/transactions?type=deposit"],
    ["/statements"],
    ["/statements/2026-10"],
    ["/statements/2026-10.csv"],
    ["/statements/2026-10.pdf"],
    ["/statements/year/2026"],
    ["/statements/year/2026.pdf"],
    ["/portfolio?range=all"],
  ])("%s remembers where it was going, and the sign-in goes back there", async (path) => {
    const visit = await getPage(path);
    expect(visit.status).toBe(302);
    const login = visit.headers.get("Location") ?? "";
    expect(login).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    const client = await createUser();
    const redirectTo = new URL(login, "http://localhost").searchParams.get("redirectTo") ?? "";
    const signedIn = await postForm("/login", { email: client.email, password: TEST_PASSWORD, redirectTo });
    expect(signedIn.headers.get("Location")).toBe(path);
  });
});

describe("a signed-out data request (a link followed after the session ended)", () => {
  it.each([
    ["/portfolio.data?range=all&_routes=routes%2Fportfolio", "/portfolio?range=all"],
    ["/transactions.data?type=deposit", "/transactions?type=deposit"],
    ["/statements/_.data", "/statements/"],
  ])("%s sends the sign-in back to the page, not to its data", async (path, page) => {
    const answer = await (await getPage(path)).text();
    // Loaders see the raw request (React Router 8): the ".data" address must not become the way back.
    expect(answer).toContain(`/login?redirectTo=${encodeURIComponent(page)}`);
    expect(answer).not.toContain(".data");
  });
});
