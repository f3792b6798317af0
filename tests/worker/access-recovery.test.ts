import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ACCESS_RECOVERY_MESSAGES } from "~/lib/access-recovery";
import { STEP_UP_MESSAGES } from "~/lib/step-up";
import { renderEmail } from "~/server/mail/templates.server";
import {
  afterPassword,
  photo,
  recoveryPage,
  requestIdOf,
  sentADayAgo,
  startedRequest,
  statusOf,
  submittedRequest,
  verifiedClientWithTwoFactor,
} from "../support/access-recovery";
import { storedObjectKeys } from "../support/documents";
import {
  appEnv,
  cookieFrom,
  countRows,
  createUser,
  getPage,
  insertTransaction,
  postForm,
  sessionCookieFor,
  totpCode,
} from "../support/fixtures";
import { mailsTo } from "../support/notifications";
import { addPasskey } from "../support/passkeys";
import { alerts, buttonTexts, linkTextsTo, statuses, testIdText } from "../support/places";
import { passwordStep, signInWithCode } from "../support/two-factor";

/** An admin's decision on the request's page, with a fresh authenticator code unless the session has one. */
const decide = (cookie: string, requestId: number, fields: Record<string, string>) =>
  postForm(`/admin/access-recovery/${requestId}`, fields, { cookie });

const factorsOf = async (userId: string) => ({
  app: await countRows("two_factor", "user_id = ?", userId),
  passkeys: await countRows("passkeys", "user_id = ?", userId),
  codes: await countRows("recovery_codes", "user_id = ?", userId),
});

describe("access recovery: a client who lost every second factor gets back in after two admins approve", () => {
  it("runs from the second step to a password-only sign-in held 24 hours from money acts", async () => {
    const client = await verifiedClientWithTwoFactor();
    await insertTransaction(client.id, { transactionType: "deposit", status: "approved", amountCents: 50_000 });
    const session = await sessionCookieFor(client.id);
    await addPasskey(session, { proof: { code: totpCode(client.totpSecret as Uint8Array) } });
    expect(await factorsOf(client.id)).toMatchObject({ app: 1, passkeys: 1 });

    // The second step offers the way back; the page offers to start a request.
    const challenge = await afterPassword(client.email);
    const secondStep = await (await getPage("/login/two-factor", challenge)).text();
    expect(secondStep).toContain('href="/login/recovery"');
    const offer = await getPage("/login/recovery", challenge);
    expect(offer.status).toBe(200);
    expect(offer.headers.get("Cache-Control")).toContain("no-store");
    expect(buttonTexts(await offer.text())).toContain("Start a request");

    const { id, cookie } = await submittedRequest(client.email);
    expect(await statusOf(id)).toBe("submitted");
    expect(testIdText(await (await recoveryPage(cookie)).text(), "recovery-status")).toBe(
      "Your request: Waiting for a first approval",
    );
    const [sent] = await mailsTo(client.email, "access_recovery");
    expect(JSON.parse(sent?.payload ?? "{}")).toMatchObject({ step: "submitted", requestId: id, clientId: client.id });
    expect(await countRows("audit_log", "action = 'access_recovery.request' AND actor_id = ?", client.id)).toBe(1);

    // The first approval changes nothing for the client; the same admin cannot give the second.
    const compliance = await createUser({ role: "admin", roles: ["compliance"] });
    const complianceCookie = await sessionCookieFor(compliance.id);
    const first = await decide(complianceCookie, id, { intent: "approve", seenStatus: "submitted" });
    expect(statuses(await first.text())).toContain(ACCESS_RECOVERY_MESSAGES.firstApproved);
    expect(await statusOf(id)).toBe("first_approved");
    expect(await factorsOf(client.id)).toMatchObject({ app: 1, passkeys: 1 });
    const again = await decide(complianceCookie, id, { intent: "approve", seenStatus: "first_approved" });
    expect(again.status).toBe(409);
    expect(alerts(await again.text())).toContain(ACCESS_RECOVERY_MESSAGES.ownFirstApproval);
    expect(await statusOf(id)).toBe("first_approved");

    // A second admin waits a day from sending (the owner's time to cancel), then restores access: every factor gone,
    // sessions ended, the hold started, the client mailed.
    const owner = await createUser({ role: "admin", roles: ["owner"] });
    const ownerCookie = await sessionCookieFor(owner.id);
    const early = await decide(ownerCookie, id, { intent: "approve", seenStatus: "first_approved" });
    expect(early.status).toBe(409);
    expect(alerts(await early.text())).toContainEqual(expect.stringMatching(/^The second approval opens /));
    expect(await statusOf(id)).toBe("first_approved");
    await sentADayAgo(id);
    const second = await decide(ownerCookie, id, { intent: "approve", seenStatus: "first_approved" });
    expect(statuses(await second.text())).toContain(ACCESS_RECOVERY_MESSAGES.approved);
    expect(await statusOf(id)).toBe("approved");
    expect(await factorsOf(client.id)).toEqual({ app: 0, passkeys: 0, codes: 0 });
    expect(await countRows("sessions", "user_id = ?", client.id)).toBe(0);
    const steps = (await mailsTo(client.email, "access_recovery")).map((mail) => JSON.parse(mail.payload).step);
    expect(steps).toEqual(["submitted", "first_approved", "approved"]);
    expect(await countRows("audit_log", "action = 'access_recovery.approve' AND target = ?", `user:${client.id}`)).toBe(
      2,
    );

    // The password alone signs in; money stays put for 24 hours.
    const signIn = await passwordStep(client.email);
    expect(signIn.headers.get("Location")).toBe("/dashboard");
    const signedIn = cookieFrom(signIn);
    const withdrawal = await postForm(
      "/withdraw",
      {
        amount: "25.00",
        cryptoCurrency: "ETH",
        walletAddress: "0x3333333333333333333333333333333333333333",
        idempotencyKey: crypto.randomUUID(),
      },
      { cookie: signedIn },
    );
    expect(withdrawal.status).toBe(403);
    expect(alerts(await withdrawal.text())).toContainEqual(
      expect.stringContaining(STEP_UP_MESSAGES.resetHold(Date.now() + 24 * 3_600_000).slice(0, 40)),
    );
    expect(await countRows("transactions", "user_id = ? AND transaction_type = 'withdraw'", client.id)).toBe(0);
  });

  it("tells a client who never verified their identity to write to support, and starts nothing", async () => {
    const client = await createUser({ twoFactor: true });
    const challenge = await afterPassword(client.email);
    const page = await (await getPage("/login/recovery", challenge)).text();
    expect(alerts(page)).toContain(ACCESS_RECOVERY_MESSAGES.notVerified);
    expect(linkTextsTo(page, `mailto:${appEnv.SUPPORT_EMAIL}`)).not.toEqual([]);
    expect(buttonTexts(page)).not.toContain("Start a request");
    const started = await postForm("/login/recovery", { intent: "start" }, { cookie: challenge });
    expect(started.status).toBe(409);
    expect(await countRows("access_recovery_requests", "user_id = ?", client.id)).toBe(0);
  });

  it("sends an admin to the team page's reset instead", async () => {
    const admin = await createUser({ role: "admin", roles: ["support"] });
    const challenge = await afterPassword(admin.email);
    const started = await postForm("/login/recovery", { intent: "start" }, { cookie: challenge });
    expect(started.status).toBe(403);
    expect(alerts(await started.text())).toContain(ACCESS_RECOVERY_MESSAGES.adminsAsk);
    expect(await countRows("access_recovery_requests", "user_id = ?", admin.id)).toBe(0);
  });

  it("needs both photos before sending, and takes no file once sent", async () => {
    const client = await verifiedClientWithTwoFactor();
    const cookie = await startedRequest(client.email);
    expect((await photo("identity_photo", cookie)).status).toBe(200);
    const early = await postForm("/login/recovery", { intent: "submit" }, { cookie });
    expect(early.status).toBe(400);
    expect(alerts(await early.text())).toContain(ACCESS_RECOVERY_MESSAGES.filesMissing);
    expect(await statusOf(await requestIdOf(client.email))).toBe("open");

    expect((await photo("selfie", cookie)).status).toBe(200);
    expect((await postForm("/login/recovery", { intent: "submit" }, { cookie })).status).toBe(302);
    const before = (await storedObjectKeys()).length;
    const late = await photo("selfie", cookie);
    expect(late.status).toBe(409);
    expect((await storedObjectKeys()).length).toBe(before);
  });

  it("checks each photo by its bytes and keeps it private, audited at every view", async () => {
    const client = await verifiedClientWithTwoFactor();
    const cookie = await startedRequest(client.email);
    const renamed = await photo("identity_photo", cookie, new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00]));
    expect(renamed.status).toBe(415);
    expect(await countRows("access_recovery_files", "user_id = ?", client.id)).toBe(0);
    expect((await photo("identity_photo", cookie)).status).toBe(200);
    const file = await env.DB.prepare("SELECT id FROM access_recovery_files WHERE user_id = ?")
      .bind(client.id)
      .first<{ id: string }>();
    const compliance = await createUser({ role: "admin", roles: ["compliance"] });
    const view = await getPage(`/admin/access-recovery/files/${file?.id}`, await sessionCookieFor(compliance.id));
    expect(view.status).toBe(200);
    expect(view.headers.get("Cache-Control")).toBe("private, no-store");
    expect(view.headers.get("Content-Security-Policy")).toContain("sandbox");
    await view.arrayBuffer();
    expect(await countRows("audit_log", "action = 'access_recovery.file_view' AND actor_id = ?", compliance.id)).toBe(
      1,
    );
    const support = await createUser({ role: "admin", roles: ["support"] });
    const refused = await getPage(`/admin/access-recovery/files/${file?.id}`, await sessionCookieFor(support.id));
    expect(refused.status).toBe(403);
    expect(await countRows("audit_log", "action = 'access_recovery.file_view' AND actor_id = ?", support.id)).toBe(0);
  });

  it("renders every step's mail, with the cancel link while the request is in progress", () => {
    const data = {
      name: "Robin",
      at: Date.now(),
      requestId: 7,
      clientId: "c1",
      browser: "Chrome on macOS",
      location: "London, GB",
      origin: "https://broker.example",
    };
    for (const step of ["submitted", "first_approved"] as const) {
      const mail = renderEmail("access_recovery", { ...data, step }, appEnv);
      expect(mail.text).toContain("https://broker.example/login/recovery/cancel?token=7.c1.");
      expect(mail.text).toContain("If it was not you, cancel it now");
    }
    const approved = renderEmail("access_recovery", { ...data, step: "approved", holdUntil: data.at + 1 }, appEnv);
    expect(approved.text).toContain("nothing can move from your account until");
    expect(approved.text).not.toContain("/login/recovery/cancel");
    const refused = renderEmail(
      "access_recovery",
      { ...data, step: "refused", reason: "The selfie is blurred." },
      appEnv,
    );
    expect(refused.text).toContain("The selfie is blurred.");
  });

  it("ends the request when the account signs in with its second factor, and tells the owner", async () => {
    const client = await verifiedClientWithTwoFactor();
    const { id } = await submittedRequest(client.email);
    const signedIn = await signInWithCode(client.email, client.totpSecret as Uint8Array);
    expect(signedIn.headers.get("Location")).toBe("/dashboard");
    expect(await statusOf(id)).toBe("cancelled");
    const steps = (await mailsTo(client.email, "access_recovery")).map((mail) => JSON.parse(mail.payload).step);
    expect(steps).toEqual(["submitted", "cancelled_by_sign_in"]);
    // A password alone (the next attempt of whoever sent it) starts nothing new behind a cancelled one's back: it may
    // start again, and the owner is mailed again when it is sent.
    expect(await countRows("audit_log", "action = 'access_recovery.cancel' AND actor_id = ?", client.id)).toBe(1);
  });

  it("keeps only the last photo of each kind while the request is prepared", async () => {
    const client = await verifiedClientWithTwoFactor();
    const cookie = await startedRequest(client.email);
    const before = (await storedObjectKeys()).length;
    for (let i = 0; i < 3; i++) expect((await photo("selfie", cookie)).status).toBe(200);
    expect(await countRows("access_recovery_files", "user_id = ?", client.id)).toBe(1);
    expect((await storedObjectKeys()).length).toBe(before + 1);
  });
});
