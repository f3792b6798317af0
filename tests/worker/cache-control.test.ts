import { describe, expect, it } from "vitest";
import { createUser, getPage, postForm, sessionCookieFor, TEST_PASSWORD } from "../support/fixtures";

describe("responses that depend on a session", () => {
  it("say private, no-store on every signed-in page and its data request", async () => {
    const client = await createUser();
    const admin = await createUser({ role: "admin" });
    const clientCookie = await sessionCookieFor(client.id);
    const adminCookie = await sessionCookieFor(admin.id);
    const pages: Array<[string, string]> = [
      ["/dashboard", clientCookie],
      ["/account", clientCookie],
      ["/withdraw", clientCookie],
      ["/deposit", clientCookie],
      ["/dashboard.data", clientCookie],
      ["/account.data", clientCookie],
      ["/", clientCookie],
      ["/admin", adminCookie],
      [`/user/${client.id}`, adminCookie],
      [`/user/${client.id}.data`, adminCookie],
      ["/admin/audit", adminCookie],
      [`/user/${client.id}/export`, adminCookie],
    ];
    for (const [path, cookie] of pages) {
      const response = await getPage(path, cookie);
      expect([path, response.status < 400, response.headers.get("Cache-Control")]).toEqual([
        path,
        true,
        "private, no-store",
      ]);
      await response.body?.cancel();
    }
  });

  it("say private, no-store when signing in, and leave a visitor's public page alone", async () => {
    const client = await createUser();
    const signIn = await postForm("/login", { email: client.email, password: TEST_PASSWORD, redirectTo: "" });
    expect(signIn.headers.get("Cache-Control")).toBe("private, no-store");
    const visitor = await getPage("/about-us");
    expect(visitor.headers.get("Cache-Control") ?? "").not.toContain("no-store");
  });
});
