import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { renderStoredEmail } from "~/server/mail/templates.server";
import { SAMPLE_FILES, uploadDocument, verificationFields } from "../support/documents";
import { listen, until } from "../support/feeds";
import { appEnv, createUser, postForm, sessionCookieFor } from "../support/fixtures";

/**
 * What the client and the desk hear of a verification: the feeds' events (the desk's count and queue, the client's
 * pages reload on them) and the client's mail about a decision.
 */

describe("verification events", () => {
  it("reach the desk when a client sends a case, and the desk and the client when it is decided", async () => {
    const admin = await createUser({ role: "admin" });
    const adminCookie = await sessionCookieFor(admin.id);
    const client = await createUser();
    const desk = await listen("/ws/admin", adminCookie);
    const own = await listen(`/ws/clients/${client.id}`, await sessionCookieFor(client.id));
    expect([desk.status, own.status]).toEqual([101, 101]);

    // The client sends their case through the page, as a person does.
    const clientCookie = await sessionCookieFor(client.id);
    await uploadDocument(clientCookie, "identity_front", SAMPLE_FILES.jpeg, { fileName: "passport.jpg" });
    await uploadDocument(clientCookie, "proof_of_address", SAMPLE_FILES.pdf, { fileName: "bill.pdf" });
    const sent = await postForm("/account/verification", verificationFields(), { cookie: clientCookie });
    expect(sent.status).toBeLessThan(400);
    await until(() => desk.events.length === 1, "the submitted event on the desk");
    expect(desk.events[0]).toEqual({ type: "verification.changed", userId: client.id });

    const kase = await env.DB.prepare(
      "SELECT id, submitted_at AS submittedAt FROM verification_cases WHERE user_id = ? AND status = 'submitted'",
    )
      .bind(client.id)
      .first<{ id: number; submittedAt: number }>();
    if (!kase) throw new Error("the case was not sent");
    const decided = await postForm(
      `/admin/verifications/${kase.id}`,
      { intent: "reject", note: "Blurred", submittedAt: String(kase.submittedAt) },
      { cookie: adminCookie },
    );
    expect(decided.status).toBe(200);
    await until(() => desk.events.length === 2 && own.events.length === 1, "the decided event");
    expect(own.events[0]).toEqual({ type: "verification.changed", userId: client.id });
    // Only the desk heard of the submission: a client's feed carries their own news only.
    expect(own.events).toHaveLength(1);
  });
});

describe("the client's mail about a decision", () => {
  it("says what was decided, why, and where to act, with the reviewer's words escaped", async () => {
    const url = "https://broker.example/account/verification";
    const rejected = renderStoredEmail(
      "verification_decided",
      { name: "Pat", decision: "rejected", note: "<b>Blurred</b> photo", url },
      appEnv,
    );
    expect(rejected.subject).toBe("Your identity verification was not accepted");
    expect(rejected.text).toContain("Reason: <b>Blurred</b> photo");
    expect(rejected.html).toContain("&lt;b&gt;Blurred&lt;/b&gt; photo");
    expect(rejected.text).toContain(`Open my verification: ${url}`);
    const more = renderStoredEmail(
      "verification_decided",
      { name: "Pat", decision: "more_info_needed", documentKind: "proof_of_address", note: "A recent bill", url },
      appEnv,
    );
    expect(more.text).toContain("Document: Proof of address");
    expect(more.text).toContain("What we need: A recent bill");
    const approved = renderStoredEmail("verification_decided", { name: "Pat", decision: "approved", url }, appEnv);
    expect(approved.subject).toBe("Your identity is verified");
    expect(approved.text).not.toContain(url);
  });
});
