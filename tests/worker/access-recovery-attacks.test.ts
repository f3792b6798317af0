import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ACCESS_RECOVERY_MESSAGES } from "~/lib/access-recovery";
import { STEP_UP_MESSAGES } from "~/lib/step-up";
import {
  afterPassword,
  cancelTokenOf,
  firstApprovedRecovery,
  photo,
  recoveryPage,
  startedRequest,
  statusOf,
  submittedRequest,
  verifiedClientWithTwoFactor,
  waitingRecovery,
} from "../support/access-recovery";
import { cookieFrom, countRows, createUser, dbRefusal, getPage, postForm, sessionCookieFor } from "../support/fixtures";
import { mailsTo } from "../support/notifications";
import { alerts, buttonTexts, fieldLabel, refusals, testIdText } from "../support/places";

const decide = (cookie: string, requestId: number, fields: Record<string, string>) =>
  postForm(`/admin/access-recovery/${requestId}`, fields, { cookie });
const complianceCookie = async () => sessionCookieFor((await createUser({ role: "admin", roles: ["compliance"] })).id);

describe("access recovery under attack", () => {
  it("follows a request only in the browser that started it: no cookie, a forged one, or a stale one does nothing", async () => {
    const client = await verifiedClientWithTwoFactor();
    const cookie = await startedRequest(client.email);
    const forged = cookie.replace(/=.*/, `=${"A".repeat(43)}`);
    for (const who of [undefined, forged, "access-recovery=short"]) {
      expect((await photo("selfie", who)).status).toBe(401);
      // Refused, and the page (which needs a request or a challenge) sends the browser to sign in.
      const submitted = await postForm("/login/recovery", { intent: "submit" }, { cookie: who });
      expect(submitted.headers.get("Location")).toBe("/login");
    }
    expect(await countRows("access_recovery_files", "user_id = ?", client.id)).toBe(0);
    // Starting again in another browser ends the request being prepared here: this cookie uploads nothing more.
    const newer = await startedRequest(client.email);
    expect(newer).not.toBe(cookie);
    expect((await photo("selfie", cookie)).status).toBe(409);
    expect((await photo("selfie", newer)).status).toBe(200);
  });

  it("does not hand a sent request to another browser that has the password", async () => {
    const client = await verifiedClientWithTwoFactor();
    const { id, cookie } = await submittedRequest(client.email);
    const challenge = await afterPassword(client.email);
    const again = await postForm("/login/recovery", { intent: "start" }, { cookie: challenge });
    expect(again.status).toBe(409);
    expect(refusals(await again.text())).toContainEqual(expect.stringContaining("already with our compliance team"));
    expect(cookieFrom(again, "access-recovery")).toBe("");
    expect(await statusOf(id)).toBe("submitted");
    expect(testIdText(await (await recoveryPage(cookie)).text(), "recovery-status")).toContain(
      "Waiting for a first approval",
    );
  });

  it("follows a request no longer than the cookie's life, whatever the browser keeps", async () => {
    const client = await verifiedClientWithTwoFactor();
    const cookie = await startedRequest(client.email);
    await env.DB.prepare("UPDATE access_recovery_requests SET created_at = ? WHERE user_id = ?")
      .bind(Date.now() - 31 * 24 * 3_600_000, client.id)
      .run();
    expect((await photo("selfie", cookie)).status).toBe(401);
  });

  it("cannot start without the password step", async () => {
    const before = await countRows("access_recovery_requests");
    const started = await postForm("/login/recovery", { intent: "start" });
    expect(started.headers.get("Location")).toBe("/login");
    expect(await countRows("access_recovery_requests")).toBe(before);
    const page = await getPage("/login/recovery");
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/login");
  });

  it("cancels by the mail's link once, and refuses a forged, replayed or another client's link", async () => {
    const client = await verifiedClientWithTwoFactor();
    const other = await verifiedClientWithTwoFactor();
    const { id } = await submittedRequest(client.email);
    const theirs = await submittedRequest(other.email);
    const forged = `${id}.${client.id}.${"A".repeat(43)}`;
    const crossed = cancelTokenOf(theirs.id, client.id);
    for (const token of [forged, crossed, "", "1.x.y"]) {
      const refused = await postForm("/login/recovery/cancel", { token });
      expect(refused.status).toBe(409);
      expect(alerts(await refused.text())).toContain(ACCESS_RECOVERY_MESSAGES.invalidLink);
    }
    expect(await statusOf(theirs.id)).toBe("submitted");
    const token = cancelTokenOf(id, client.id);
    expect(buttonTexts(await (await getPage(`/login/recovery/cancel?token=${token}`)).text())).toContain(
      "Cancel the request",
    );
    expect((await postForm("/login/recovery/cancel", { token })).status).toBe(200);
    expect(await statusOf(id)).toBe("cancelled");
    const replay = await postForm("/login/recovery/cancel", { token });
    expect(replay.status).toBe(409);
    const steps = (await mailsTo(client.email, "access_recovery")).map((mail) => JSON.parse(mail.payload).step);
    expect(steps).toEqual(["submitted", "cancelled"]);
    // A cancelled request is decided by nobody.
    const approve = await decide(await complianceCookie(), id, { intent: "approve", seenStatus: "submitted" });
    expect(approve.status).toBe(409);
    expect(await statusOf(id)).toBe("cancelled");
  });

  it("lets the browser that started it cancel it, and says so", async () => {
    const client = await verifiedClientWithTwoFactor();
    const { id, cookie } = await submittedRequest(client.email);
    expect((await postForm("/login/recovery", { intent: "cancel" }, { cookie })).status).toBe(302);
    expect(await statusOf(id)).toBe("cancelled");
    expect(testIdText(await (await recoveryPage(cookie)).text(), "recovery-status")).toContain("Cancelled");
  });

  it("refuses every role but compliance and owners, and writes nothing", async () => {
    for (const role of ["support", "operator", "approver"] as const) {
      const id = await waitingRecovery();
      const cookie = await sessionCookieFor((await createUser({ role: "admin", roles: [role] })).id);
      expect((await getPage(`/admin/access-recovery/${id}`, cookie)).status).toBe(403);
      const approve = await decide(cookie, id, { intent: "approve", seenStatus: "submitted" });
      expect(approve.status).toBe(403);
      const refuse = await decide(cookie, id, { intent: "refuse", seenStatus: "submitted", reason: "No" });
      expect(refuse.status).toBe(403);
      expect(await statusOf(id)).toBe("submitted");
    }
    const client = await createUser();
    const id = await waitingRecovery();
    const asClient = await decide(await sessionCookieFor(client.id), id, {
      intent: "approve",
      seenStatus: "submitted",
    });
    expect(asClient.status).toBe(302);
    expect(await statusOf(id)).toBe("submitted");
  });

  it("asks for a fresh code to approve, never to refuse, and a recovery-code session is asked too", async () => {
    const id = await waitingRecovery();
    const admin = await createUser({ role: "admin", roles: ["compliance"] });
    for (const cookie of [
      await sessionCookieFor(admin.id, Date.now(), { freshSecondFactor: false }),
      await sessionCookieFor(admin.id, Date.now(), { secondFactorMethod: "recovery_code" }),
    ]) {
      const asked = await decide(cookie, id, { intent: "approve", seenStatus: "submitted" });
      expect(asked.status).toBe(401);
      expect(fieldLabel(await asked.text(), "stepUpCode")).toMatch(
        new RegExp(`^${STEP_UP_MESSAGES.prompt.slice(0, 20)}`),
      );
      expect(await statusOf(id)).toBe("submitted");
    }
    const stale = await sessionCookieFor(admin.id, Date.now(), { freshSecondFactor: false });
    const refused = await decide(stale, id, { intent: "refuse", seenStatus: "submitted", reason: "Blurred" });
    expect(refused.status).toBe(200);
    expect(await statusOf(id)).toBe("refused");
  });

  it("needs a reason to refuse, and an approval on a page that showed another step changes nothing", async () => {
    const admin = await createUser({ role: "admin", roles: ["compliance"] });
    const id = await firstApprovedRecovery(admin.id);
    const owner = await sessionCookieFor((await createUser({ role: "admin" })).id);
    const blank = await decide(owner, id, { intent: "refuse", seenStatus: "first_approved", reason: "  " });
    expect(blank.status).toBe(400);
    expect(refusals(await blank.text())).toContain(ACCESS_RECOVERY_MESSAGES.reasonRequired);
    const stale = await decide(owner, id, { intent: "approve", seenStatus: "submitted" });
    expect(stale.status).toBe(409);
    expect(alerts(await stale.text())).toContain(ACCESS_RECOVERY_MESSAGES.decidedMeanwhile);
    expect(await statusOf(id)).toBe("first_approved");
  });

  it("counts two admins' first approvals at once as one, so no single click restores access", async () => {
    const id = await waitingRecovery();
    const [a, b] = [await complianceCookie(), await complianceCookie()];
    const answers = await Promise.all([
      decide(a, id, { intent: "approve", seenStatus: "submitted" }),
      decide(b, id, { intent: "approve", seenStatus: "submitted" }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(await statusOf(id)).toBe("first_approved");
  });

  it("is held by the database too: in order, by a second admin, of the access-recovery roles, and ended for good", async () => {
    const admin = await createUser({ role: "admin", roles: ["compliance"] });
    const id = await firstApprovedRecovery(admin.id);
    const set = (sql: string, ...values: unknown[]) =>
      env.DB.prepare(sql)
        .bind(...values)
        .run();
    expect(
      await dbRefusal(
        set(
          "UPDATE access_recovery_requests SET status = 'approved', decided_by = ?, decided_at = 1 WHERE id = ?",
          admin.id,
          id,
        ),
      ),
    ).toMatch(/approved by a second admin/);
    const operator = await createUser({ role: "admin", roles: ["operator"] });
    expect(
      await dbRefusal(
        set(
          "UPDATE access_recovery_requests SET status = 'approved', decided_by = ?, decided_at = 1 WHERE id = ?",
          operator.id,
          id,
        ),
      ),
    ).toMatch(/roles do not allow/);
    const waiting = await waitingRecovery();
    const owner = await createUser({ role: "admin" });
    expect(
      await dbRefusal(
        set(
          "UPDATE access_recovery_requests SET status = 'approved', decided_by = ?, decided_at = 1 WHERE id = ?",
          owner.id,
          waiting,
        ),
      ),
    ).toMatch(/one step at a time/);
    await set("UPDATE access_recovery_requests SET status = 'cancelled', decided_at = 1 WHERE id = ?", waiting);
    expect(
      await dbRefusal(set("UPDATE access_recovery_requests SET status = 'submitted' WHERE id = ?", waiting)),
    ).toMatch(/ended access recovery request cannot change/);
  });

  it("ends a request in progress when the client's data is deleted", async () => {
    const client = await verifiedClientWithTwoFactor();
    const { id } = await submittedRequest(client.email);
    const owner = await sessionCookieFor((await createUser({ role: "admin" })).id);
    const deleted = await postForm("/admin", { intent: "delete", userId: client.id }, { cookie: owner });
    expect(deleted.status).toBe(200);
    expect(await statusOf(id)).toBe("cancelled");
  });
});
