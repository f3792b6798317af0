import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { securityNotice } from "~/server/auth/security-notice.server";
import { writeTogether } from "~/server/db.server";
import { enqueueEmailFor } from "~/server/mail/outbox.server";
import { createUser, db, insertTransaction, postForm, sessionCookieFor, signedInAdmin } from "../support/fixtures";
import { changePassword, mailsTo, notificationsOf } from "../support/notifications";
import { submittedCase } from "../support/verification-fixtures";
import { markVerified } from "../support/verification-state";

/**
 * Each event the client is mailed about writes one notification with its mail, in the same statement: approved or
 * rejected requests, entries the desk posts, verification decisions and security notices. A retried event writes
 * no second one, a failed batch writes neither, and nobody else (another client, an admin) gets one.
 */
type Admin = Awaited<ReturnType<typeof signedInAdmin>>;
let admin: Admin;

beforeAll(async () => {
  admin = await signedInAdmin();
});

const decide = (clientId: string, intent: "approve" | "reject", id: number, reason?: string) =>
  postForm(
    `/user/${clientId}`,
    { intent, transactionId: String(id), ...(reason ? { reason } : {}) },
    { cookie: admin.cookie },
  );

describe("a request decided", () => {
  it("writes one notification with its mail, linked to the transaction, however often the admin clicks", async () => {
    const client = await createUser();
    const bystander = await createUser();
    const id = await insertTransaction(client.id, { amountCents: 12_345 });
    expect((await decide(client.id, "approve", id)).status).toBe(200);
    expect((await decide(client.id, "approve", id)).status).toBe(409);
    expect((await decide(client.id, "reject", id, "late")).status).toBe(409);

    expect(await mailsTo(client.email, "request_decided")).toHaveLength(1);
    const notifications = await notificationsOf(client.id);
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toMatchObject({
      kind: "request_decided",
      subject: `transaction:${id}`,
      dedupeKey: `request_decided:tx:${id}`,
      readAt: null,
      data: { decision: "approved", requestType: "Deposit", amount: 123.45 },
    });
    expect(await notificationsOf(bystander.id)).toEqual([]);
    expect(await notificationsOf(admin.id)).toEqual([]);
  });

  it("says a rejection and its reason", async () => {
    const client = await createUser();
    const id = await insertTransaction(client.id, { transactionType: "withdraw", amountCents: 5_000 });
    expect((await decide(client.id, "reject", id, "Address failed screening")).status).toBe(200);
    const [notification] = await notificationsOf(client.id);
    expect(notification).toMatchObject({
      kind: "request_decided",
      data: { decision: "rejected", requestType: "Withdrawal", reason: "Address failed screening" },
    });
  });
});

describe("an entry posted to the client's account", () => {
  it("writes one notification with its mail; the same form sent again writes nothing more", async () => {
    const client = await createUser();
    await markVerified(client.id);
    const fields = {
      intent: "entry",
      idempotencyKey: crypto.randomUUID(),
      type: "deposit",
      amount: "250",
      reason: "Bonus",
    };
    expect((await postForm(`/user/${client.id}`, fields, { cookie: admin.cookie })).status).toBeLessThan(400);
    await postForm(`/user/${client.id}`, fields, { cookie: admin.cookie });

    const entry = await env.DB.prepare("SELECT id FROM transactions WHERE user_id = ? AND created_by IS NOT NULL")
      .bind(client.id)
      .first<{ id: number }>();
    expect(await mailsTo(client.email, "entry_posted")).toHaveLength(1);
    const notifications = await notificationsOf(client.id);
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toMatchObject({
      kind: "entry_posted",
      subject: `transaction:${entry?.id}`,
      data: { entryType: "deposit", amount: 250, memo: "Bonus" },
    });
  });
});

describe("a verification decided", () => {
  it("writes one notification linked to the verification page", async () => {
    const client = await createUser();
    const kase = await submittedCase(client.id);
    const decided = await postForm(
      `/admin/verifications/${kase.id}`,
      { intent: "reject", note: "Blurred", submittedAt: String(kase.submittedAt) },
      { cookie: admin.cookie },
    );
    expect(decided.status).toBe(200);
    expect(await mailsTo(client.email, "verification_decided")).toHaveLength(1);
    const notifications = await notificationsOf(client.id);
    expect(notifications.map(({ kind, subject, data }) => ({ kind, subject, decision: data.decision }))).toEqual([
      { kind: "verification_decided", subject: "verification", decision: "rejected" },
    ]);
  });
});

describe("a security notice", () => {
  it("writes a client's notification with the mail when they change their password", async () => {
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    const changed = await changePassword(cookie, "a-new-pass-2026");
    expect(changed.status).toBe(200);
    expect(await mailsTo(client.email, "security_notice")).toHaveLength(1);
    const notifications = await notificationsOf(client.id);
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toMatchObject({
      kind: "security_notice",
      subject: "security:password_changed",
      data: { event: "password_changed" },
    });
  });

  it("writes none for an admin, whose mail still goes", async () => {
    const other = await createUser({ role: "admin" });
    const cookie = await sessionCookieFor(other.id);
    const changed = await changePassword(cookie, "a-new-pass-2026");
    expect(changed.status).toBe(200);
    expect(await mailsTo(other.email, "security_notice")).toHaveLength(1);
    expect(await notificationsOf(other.id)).toEqual([]);
  });
});

describe("the mail's statement", () => {
  const meta = { userAgent: "Mozilla/5.0", country: null, city: null };

  it("writes neither the mail nor the notification when its batch fails", async () => {
    const client = await createUser();
    const failing = writeTogether(db, {
      notice: securityNotice(db, { to: client.email, name: "Pat", event: "new_browser", meta }),
      // A later statement of the same batch is refused: the whole batch is undone.
      refused: sql`INSERT INTO notifications (user_id, kind, subject, data) VALUES (${client.id}, 'not_a_kind', 'x', '{}')`,
    });
    await expect(failing).rejects.toThrow();
    expect(await mailsTo(client.email, "security_notice")).toEqual([]);
    expect(await notificationsOf(client.id)).toEqual([]);
  });

  it("writes no second notification when the event is retried under the same key", async () => {
    const client = await createUser();
    const id = await insertTransaction(client.id, { amountCents: 1_000, status: "approved" });
    const notice = () =>
      writeTogether(db, {
        notice: enqueueEmailFor({
          template: "request_decided",
          data: {
            name: "Pat",
            decision: "approved",
            requestType: "Deposit",
            amount: 10,
            requestedAt: 1,
            transactionId: id,
          },
          to: client.email,
          from: sql`transactions WHERE id = ${id}`,
          dedupeKey: sql`${`request_decided:tx:${id}`}`,
        }),
      });
    await notice();
    await notice();
    expect(await mailsTo(client.email, "request_decided")).toHaveLength(1);
    expect(await notificationsOf(client.id)).toHaveLength(1);
  });

  it("writes a notification only for the account the mail is addressed to", async () => {
    const client = await createUser();
    const other = await createUser();
    await writeTogether(db, {
      notice: securityNotice(db, {
        to: client.email.toUpperCase(),
        name: "Pat",
        event: "passkey_added",
        meta,
        passkey: "Laptop",
      }),
    });
    expect((await notificationsOf(client.id)).map((n) => n.subject)).toEqual(["security:passkey_added"]);
    expect(await notificationsOf(other.id)).toEqual([]);
  });
});
