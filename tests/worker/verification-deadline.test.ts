import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { verificationDueAt } from "~/lib/verification";
import { readAppEnv } from "~/server/env.server";
import { mailBody } from "~/server/mail/archive-read.server";
import { renderEmail } from "~/server/mail/templates.server";
import { readClientLevel } from "~/server/verification/levels.server";
import worker from "../../workers/app";
import { appEnv, createUser, db } from "../support/fixtures";
import { markVerified, registeredAt } from "../support/verification-state";

const DAY = 24 * 60 * 60 * 1000;
/** The fixed clock of these tests: well after every account the other tests make has passed its deadline. */
const T = Date.now() + 100 * DAY;

/** The cron trigger, run as Cloudflare runs it, at a fixed time (with the test bindings unless others are given). */
async function cronAt(scheduledTime: number, bindings: typeof env = env) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime }), bindings, ctx);
  await waitOnExecutionContext(ctx);
}

async function mailsTo(email: string) {
  const { results } = await env.DB.prepare(
    "SELECT id, template, dedupe_key FROM email_outbox WHERE to_address = ? AND template LIKE 'verification_%' ORDER BY id",
  )
    .bind(email.toLowerCase())
    .all<{ id: number; template: string; dedupe_key: string }>();
  // The clock runs 100 days ahead: the cron has archived what it delivered, so a body is read where it is.
  return Promise.all(
    results.map(async ({ id, ...row }) => {
      const body = await mailBody(db, env.MAIL_ARCHIVE, id);
      return { ...row, payload: (body.ok ? body.payload : null) as Record<string, unknown> | null };
    }),
  );
}

/** A client whose 14 days end exactly `daysFromT` days after the fixed clock. */
async function clientDueIn(daysFromT: number, options: { verified?: boolean; role?: "user" | "admin" } = {}) {
  const person = await createUser({ firstName: "Dana", role: options.role });
  await registeredAt(person.id, T + daysFromT * DAY - 14 * DAY);
  if (options.verified) await markVerified(person.id);
  return person;
}

describe("the verification deadline's mails (scheduled handler, fixed clock)", () => {
  it("remind at 7 days left, once however often the cron runs, and never a verified client or an admin", async () => {
    const due = await clientDueIn(7);
    const verified = await clientDueIn(7, { verified: true });
    const admin = await clientDueIn(7, { role: "admin" });
    await cronAt(T);
    await cronAt(T + 60_000);
    await cronAt(T + 3 * 60 * 60_000);
    const mails = await mailsTo(due.email);
    expect(mails).toEqual([
      {
        template: "verification_reminder",
        dedupe_key: `verification_reminder:7:${due.id}`,
        payload: { daysLeft: 7, name: "Dana", dueAt: T + 7 * DAY },
      },
    ]);
    expect(await mailsTo(verified.email)).toEqual([]);
    expect(await mailsTo(admin.email)).toEqual([]);
    // Not a day early: 8 days before, nothing had gone.
    const later = await clientDueIn(8);
    await cronAt(T);
    expect(await mailsTo(later.email)).toEqual([]);
  });

  it("remind at 1 day left, then tell the client once that the account is restricted", async () => {
    const person = await clientDueIn(7);
    await cronAt(T);
    await cronAt(T + 6 * DAY + 60_000);
    await cronAt(T + 6 * DAY + 120_000);
    expect((await mailsTo(person.email)).map((m) => m.dedupe_key)).toEqual([
      `verification_reminder:7:${person.id}`,
      `verification_reminder:1:${person.id}`,
    ]);
    expect((await readClientLevel(db, appEnv, person.id, T + 7 * DAY - 1)).level).toBe("unverified");

    await cronAt(T + 7 * DAY);
    await cronAt(T + 7 * DAY + 60_000);
    await cronAt(T + 8 * DAY);
    const mails = await mailsTo(person.email);
    expect(mails.map((m) => m.dedupe_key)).toEqual([
      `verification_reminder:7:${person.id}`,
      `verification_reminder:1:${person.id}`,
      `verification_restricted:${person.id}`,
    ]);
    expect((await readClientLevel(db, appEnv, person.id, T + 7 * DAY)).level).toBe("restricted");
    const restricted = renderEmail("verification_restricted", { name: "Dana" }, appEnv);
    expect(restricted.subject).toBe("Your account is restricted until you verify your identity");
    expect(restricted.text).toContain("new deposits and stock deposits are refused");
  });

  it("give an account older than verification its 14 days from the day verification began", async () => {
    const person = await createUser({ firstName: "Olde" });
    await registeredAt(person.id, Date.UTC(2024, 0, 1));
    const dueAt = verificationDueAt(Date.UTC(2024, 0, 1), appEnv.VERIFICATION_INTRODUCED_AT);
    await cronAt(dueAt - 7 * DAY);
    expect((await mailsTo(person.email)).map((m) => m.payload)).toEqual([{ daysLeft: 7, name: "Olde", dueAt }]);
  });

  it("count from VERIFICATION_INTRODUCED_AT: an earlier day restricts an old account sooner, unset is production's day", async () => {
    const earlier = { ...env, VERIFICATION_INTRODUCED_AT: "2026-01-01" };
    const unset: typeof env = { ...env };
    delete (unset as Record<string, unknown>).VERIFICATION_INTRODUCED_AT;
    const registered = Date.UTC(2025, 5, 1);
    const early = await createUser({ firstName: "Early" });
    await registeredAt(early.id, registered);

    // 14 days from 2026-01-01: restricted, and told so, under the earlier day.
    const restrictedAt = Date.UTC(2026, 0, 15);
    expect((await readClientLevel(db, readAppEnv(earlier), early.id, restrictedAt)).level).toBe("restricted");
    await cronAt(restrictedAt, earlier);
    expect((await mailsTo(early.email)).map((m) => m.dedupe_key)).toEqual([`verification_restricted:${early.id}`]);

    // Unset, production's day (2026-11-25) holds: nothing yet then, and the 7-day reminder on 2026-12-02.
    const plain = await createUser({ firstName: "Plain" });
    await registeredAt(plain.id, registered);
    const production = readAppEnv(unset);
    expect(production.VERIFICATION_INTRODUCED_AT).toBe(Date.UTC(2026, 10, 25));
    expect((await readClientLevel(db, production, plain.id, restrictedAt)).level).toBe("unverified");
    await cronAt(restrictedAt, unset);
    expect(await mailsTo(plain.email)).toEqual([]);
    await cronAt(Date.UTC(2026, 11, 2), unset);
    expect((await mailsTo(plain.email)).map((m) => m.payload)).toEqual([
      { daysLeft: 7, name: "Plain", dueAt: Date.UTC(2026, 11, 9) },
    ]);
  });

  it("render the reminder with the days left, the deadline and how to finish", () => {
    const mail = renderEmail(
      "verification_reminder",
      { name: "Dana", daysLeft: 1, dueAt: Date.UTC(2026, 11, 9) },
      appEnv,
    );
    expect(mail.subject).toBe("Verify your identity: 1 day left");
    expect(mail.text).toContain("2026-12-09 00:00 UTC");
    expect(mail.text).toContain("Account Settings, then Identity verification");
  });
});
