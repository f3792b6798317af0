import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { retainUntil } from "~/lib/verification";
import { deleteClientData } from "~/server/admin/deletion.server";
import worker from "../../workers/app";
import { countRows, createUser, db, dbRefusal } from "../support/fixtures";
import { setVerificationCase } from "../support/verification-state";

const YEAR = 365 * 24 * 60 * 60 * 1000;

/** A case with one stored document: its row and its object in the real local bucket. */
async function caseWithDocument(userId: string) {
  const caseId = await setVerificationCase(userId, "approved");
  const objectKey = `documents/${crypto.randomUUID()}`;
  await env.DOCUMENTS.put(objectKey, new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]));
  await env.DB.prepare(
    `INSERT INTO verification_documents (id, case_id, user_id, kind, object_key, file_name, content_type, size_bytes, sha256)
     VALUES (?, ?, ?, 'identity_front', ?, 'passport.pdf', 'application/pdf', 5, 'x')`,
  )
    .bind(crypto.randomUUID(), caseId, userId, objectKey)
    .run();
  return { caseId, objectKey };
}

async function cronAt(scheduledTime: number) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe("deleting a client's data", () => {
  it("keeps their verification case and documents, ended and kept five years, in the same batch", async () => {
    const admin = await createUser({ role: "admin" });
    const person = await createUser();
    const { caseId, objectKey } = await caseWithDocument(person.id);
    const now = Date.now();
    expect(await deleteClientData(db, { id: admin.id, email: admin.email }, person.id, now)).toEqual({ ok: true });
    expect(
      await env.DB.prepare("SELECT status, ended_at, retain_until FROM verification_cases WHERE id = ?")
        .bind(caseId)
        .first(),
    ).toEqual({ status: "approved", ended_at: now, retain_until: retainUntil(now) });
    expect(await countRows("verification_documents", "case_id = ?", caseId)).toBe(1);
    expect(await env.DOCUMENTS.head(objectKey)).not.toBeNull();
    const audit = await env.DB.prepare("SELECT detail FROM audit_log WHERE action = 'client.delete' AND target = ?")
      .bind(`user:${person.id}`)
      .first<{ detail: string }>();
    expect(JSON.parse(audit?.detail ?? "{}")).toMatchObject({ verificationRetainedUntil: retainUntil(now) });
    // The evidence cannot be deleted before its time, whatever the application does.
    expect(await dbRefusal(env.DB.prepare("DELETE FROM verification_cases WHERE id = ?").bind(caseId).run())).toMatch(
      /kept until its retain_until/,
    );
    expect(
      await dbRefusal(env.DB.prepare("DELETE FROM verification_documents WHERE case_id = ?").bind(caseId).run()),
    ).toMatch(/kept until its retain_until/);
  });
});

describe("the scheduled purge", () => {
  it("deletes the files and rows of evidence past retain_until, audited, and keeps the rest", async () => {
    const expired = await createUser();
    const kept = await createUser();
    const old = await caseWithDocument(expired.id);
    const recent = await caseWithDocument(kept.id);
    const endedLongAgo = Date.now() - 6 * YEAR;
    await env.DB.prepare("UPDATE verification_cases SET ended_at = ?, retain_until = ? WHERE id = ?")
      .bind(endedLongAgo, retainUntil(endedLongAgo), old.caseId)
      .run();
    const endedNow = Date.now();
    await env.DB.prepare("UPDATE verification_cases SET ended_at = ?, retain_until = ? WHERE id = ?")
      .bind(endedNow, retainUntil(endedNow), recent.caseId)
      .run();

    await cronAt(Date.now());
    await cronAt(Date.now() + 60_000);

    expect(await env.DOCUMENTS.head(old.objectKey)).toBeNull();
    expect(await countRows("verification_cases", "id = ?", old.caseId)).toBe(0);
    expect(await countRows("verification_documents", "case_id = ?", old.caseId)).toBe(0);
    const audits = await env.DB.prepare(
      "SELECT actor_id, detail FROM audit_log WHERE action = 'verification.purge' AND target = ?",
    )
      .bind(`verification:${old.caseId}`)
      .all<{ actor_id: string; detail: string }>();
    expect(audits.results).toHaveLength(1);
    expect(audits.results[0]?.actor_id).toBe("cron");
    expect(JSON.parse(audits.results[0]?.detail ?? "{}")).toMatchObject({ client: expired.id, documents: 1 });

    expect(await env.DOCUMENTS.head(recent.objectKey)).not.toBeNull();
    expect(await countRows("verification_documents", "case_id = ?", recent.caseId)).toBe(1);
  });
});
