import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MESSAGES } from "~/lib/schemas/auth";
import { UNKNOWN_INTENT } from "~/server/intents.server";
import { createUser, postForm, sessionCookieFor } from "../support/fixtures";
import { alerts, fieldError, hydrationData, statuses } from "../support/places";

const profileOf = (userId: string) =>
  env.DB.prepare("SELECT first_name, last_name, phone_number FROM profiles WHERE user_id = ?").bind(userId).first();

describe("pages with several forms", () => {
  it("refuse an intent they do not have with 400, and change nothing", async () => {
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    const before = await profileOf(client.id);
    const fields = { firstName: "Robin", lastName: "Quinn", phoneNumber: "+1 555 0199" };
    for (const [path, intent] of [
      ["/account", "profil"],
      ["/account", "constructor"],
      ["/account/two-factor", "toString"],
      ["/account/two-factor", ""],
    ] as const) {
      const response = await postForm(path, { intent, ...fields }, { cookie });
      expect(response.status, `${path} ${intent}`).toBe(400);
      expect(alerts(await response.text())).toContain(UNKNOWN_INTENT);
    }
    expect(await profileOf(client.id)).toEqual(before);
  });

  it("on the back office too: the desk and the client page refuse an unknown intent, and no row moves", async () => {
    const client = await createUser();
    const admin = await createUser({ role: "admin" });
    const cookie = await sessionCookieFor(admin.id);
    const count = async () =>
      (
        await env.DB.prepare(
          "SELECT (SELECT count(*) FROM transactions) + (SELECT count(*) FROM audit_log) + (SELECT count(*) FROM proposals) AS n",
        ).first<{ n: number }>()
      )?.n;
    const before = await count();
    for (const [path, intent] of [
      ["/admin", "deleteAll"],
      ["/admin", "hasOwnProperty"],
      [`/user/${client.id}`, "approveAll"],
      [`/user/${client.id}`, ""],
    ] as const) {
      const response = await postForm(path, { intent, transactionId: "1", userId: client.id }, { cookie });
      expect(response.status, `${path} ${intent}`).toBe(400);
      const html = await response.text();
      if (path === "/admin") {
        // The desk shows this refusal nowhere (each of its forms shows only its own intent's replies): it is read as
        // the action answers it (reported as a finding).
        const { actionData } = await hydrationData(html);
        expect(actionData?.["routes/admin._index"]).toMatchObject({ tone: "error", message: UNKNOWN_INTENT });
      } else expect(alerts(html)).toContain(UNKNOWN_INTENT);
    }
    expect(await count()).toBe(before);
  });

  it("take a form posted without an intent as the page's first form, where it has one", async () => {
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    const response = await postForm(
      "/account",
      { firstName: "Robin", lastName: "Quinn", phoneNumber: "+1 555 0100" },
      { cookie },
    );
    expect(response.status).toBe(200);
    expect(statuses(await response.text())).toContain(MESSAGES.profileUpdated);
    expect(await profileOf(client.id)).toMatchObject({ first_name: "Robin", last_name: "Quinn" });
  });

  it("answer a refusal with the status its check gave: a wrong current password is 400, with its field", async () => {
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    const response = await postForm(
      "/account",
      {
        intent: "password",
        currentPassword: "not-the-password",
        newPassword: "abcdefgh1",
        confirmPassword: "abcdefgh1",
      },
      { cookie },
    );
    expect(response.status).toBe(400);
    const body = await response.text();
    expect(fieldError(body, "currentPassword")).toBe(MESSAGES.currentPasswordWrong);
  });
});
