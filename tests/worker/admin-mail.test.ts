import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { isValidElement, type ReactNode } from "react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { MailFailureBanner } from "~/components/admin/mail-failure-banner";
import { PERMISSION_MESSAGES } from "~/lib/permissions";
import { MAIL_MESSAGES, mailQueue, mailTrouble, resendEmail } from "~/server/admin/mail.server";
import type { CommandContext } from "~/server/commands.server";
import { schema } from "~/server/db.server";
import { enqueueEmail, RETRY_WINDOW_MS } from "~/server/mail/outbox.server";
import { parseCursor } from "~/server/paging.server";
import worker from "../../workers/app";
import {
  appEnv,
  countRows,
  createUser,
  db,
  formRequest,
  getPage,
  postForm,
  sessionCookieFor,
} from "../support/fixtures";
import {
  alerts,
  elementsWith,
  elementTexts,
  errorShown,
  fieldValue,
  linkHref,
  REFUSED,
  statuses,
} from "../support/places";
import { textOf as pageText, rowCells } from "../support/tables";

const { emailOutbox } = schema;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let admin: { id: string; email: string; cookie: string };
let client: { id: string; email: string; cookie: string };

beforeAll(async () => {
  const a = await createUser({ role: "admin" });
  admin = { ...a, cookie: await sessionCookieFor(a.id) };
  const c = await createUser();
  client = { ...c, cookie: await sessionCookieFor(c.id) };
});

afterEach(() => {
  vi.restoreAllMocks();
});

type OutboxValues = Partial<typeof emailOutbox.$inferInsert>;

/** One notice in the outbox, in whatever state the test needs. */
async function notice(values: OutboxValues = {}) {
  const [rows] = await db.batch([
    enqueueEmail(db, {
      to: values.toAddress ?? `someone-${crypto.randomUUID().slice(0, 8)}@example.com`,
      template: "welcome",
      data: { name: "Sam" },
    }),
  ]);
  const id = rows[0]?.id;
  if (!id) throw new Error("no outbox row");
  if (Object.keys(values).length > 0) await db.update(emailOutbox).set(values).where(eq(emailOutbox.id, id));
  return id;
}

const failedNotice = (values: OutboxValues = {}) =>
  notice({
    status: "failed",
    attempts: 30,
    lastError: "503: Service unavailable",
    failedAt: Date.now() - HOUR,
    ...values,
  });

async function rowOf(id: number) {
  const row = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id)).get();
  if (!row) throw new Error(`no outbox row ${id}`);
  return row;
}

const resendAudits = (id: number) => countRows("audit_log", "action = 'email.resend' AND target = ?", `email:${id}`);

/** The admin's Resend as the browser posts it, run to the end of its background delivery. */
async function postResend(id: number | string, bindings: typeof env = env) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    formRequest("/admin/mail", { intent: "resend", id: String(id) }, { cookie: admin.cookie }),
    bindings,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

/** A stand-in for the mail provider's HTTP API that accepts everything and records the requests. */
function acceptingProvider() {
  const calls: Request[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    calls.push(new Request(input as RequestInfo, init as RequestInit));
    return Response.json({ id: `re_${calls.length}` }, { status: 200 });
  });
  return calls;
}

describe("/admin/mail", () => {
  it("sends a visitor to sign in and a client to the dashboard, and refuses a client's Resend", async () => {
    expect((await getPage("/admin/mail")).headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
    expect((await getPage("/admin/mail", client.cookie)).headers.get("Location")).toBe("/dashboard");
    const id = await failedNotice();
    const response = await postForm("/admin/mail", { intent: "resend", id: String(id) }, { cookie: client.cookie });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard");
    expect(await rowOf(id)).toMatchObject({ status: "failed", attempts: 30 });
    expect(await resendAudits(id)).toBe(0);
  });

  it("tells a role without the mail queue what every back-office page says, with the way back to the admin panel", async () => {
    const support = await createUser({ role: "admin", roles: ["support"] });
    const response = await getPage("/admin/mail", await sessionCookieFor(support.id));
    expect(response.status).toBe(403);
    const html = await response.text();
    expect(errorShown(html)).toEqual({ title: REFUSED, text: PERMISSION_MESSAGES.forbidden });
    expect(linkHref(html, "Back to Admin Panel")).toBe("/admin");
    expect(linkHref(html, "Back to Home")).toBeNull();
  });

  it("lists the pending and failed notices, newest first, with their details; not the delivered ones", async () => {
    const start = Date.now() + 1_000 * HOUR; // newer than every other row of this file
    const tag = crypto.randomUUID().slice(0, 8);
    const failed = await failedNotice({
      toAddress: `failed-${tag}@example.com`,
      createdAt: start,
      lastError: "422: Invalid `to` field",
    });
    const pending = await notice({
      toAddress: `pending-${tag}@example.com`,
      createdAt: start + MINUTE,
      attempts: 3,
      lastError: "503: Service unavailable",
      nextAttemptAt: Date.UTC(2030, 0, 2, 3, 4, 5),
    });
    await notice({ toAddress: `sent-${tag}@example.com`, status: "sent", createdAt: start + 2 * MINUTE });
    await notice({ toAddress: `captured-${tag}@example.com`, status: "captured", createdAt: start + 3 * MINUTE });

    const response = await getPage("/admin/mail", admin.cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(elementTexts(html, "title")).toEqual([expect.stringMatching(/^Mail · Admin Panel \| .+$/)]);
    const pendingAt = html.indexOf(`pending-${tag}@example.com`);
    const failedAt = html.indexOf(`failed-${tag}@example.com`);
    expect(pendingAt).toBeGreaterThan(-1);
    expect(failedAt).toBeGreaterThan(pendingAt);
    expect(rowCells(html, `sent-${tag}@example.com`)).toBeNull();
    expect(rowCells(html, `captured-${tag}@example.com`)).toBeNull();
    const pendingRow = rowCells(html, `pending-${tag}@example.com`);
    const failedRow = rowCells(html, `failed-${tag}@example.com`);
    expect(pendingRow).toContain("503: Service unavailable");
    expect(failedRow).toContain("422: Invalid `to` field");
    expect(pageText(html)).toContain("Jan 2, 2030, 3:04 AM UTC");
    // A Resend button for the failed notice only.
    expect(failedRow?.at(-1)).toBe("Resend");
    expect(pendingRow?.at(-1)).toBe("");
    expect(fieldValue(html, "id")).toBe(String(failed));
    const resendIds = elementsWith(html, "name", "id").map((input) => /\svalue="(\d+)"/.exec(input)?.[1]);
    expect(resendIds).not.toContain(String(pending));
  });

  it("pages by (created, id), newest first, without gaps or repeats", async () => {
    const start = Date.now() + 2_000 * HOUR;
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await failedNotice({ createdAt: start + (i < 2 ? 0 : i) * MINUTE }));
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page = await mailQueue(db, { after: parseCursor(cursor), pageSize: 2 });
      seen.push(...page.emails.map((email) => email.id));
      cursor = page.next;
    } while (cursor && seen.length < ids.length);
    // Newest first; the two created in the same millisecond by id, higher first.
    expect(seen.slice(0, 5)).toEqual([ids[4], ids[3], ids[2], ids[1], ids[0]]);
  });
});

describe("Resend", () => {
  it("re-queues a failed notice once under its own idempotency key, audited, and delivers it", async () => {
    const id = await failedNotice({ attempts: 30, lastError: "503: Service unavailable" });
    const calls = acceptingProvider();
    const before = Date.now();
    const response = await postResend(id, { ...env, RESEND_API_KEY: "re_test_key" });
    expect(response.status).toBe(200);
    expect(statuses(await response.text())).toContain(MAIL_MESSAGES.resent(id));

    // Delivered in the background, under the row's original key.
    expect(calls.map((call) => call.headers.get("Idempotency-Key"))).toEqual([`outbox-${id}`]);
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: "sent", attempts: 1, lastError: null, failedAt: null, providerId: "re_1" });
    expect(row.requeuedAt).toBeGreaterThanOrEqual(before);

    expect(await resendAudits(id)).toBe(1);
    const audit = await env.DB.prepare("SELECT actor_id, detail FROM audit_log WHERE target = ?")
      .bind(`email:${id}`)
      .first<{ actor_id: string; detail: string }>();
    expect(audit?.actor_id).toBe(admin.id);
    expect(JSON.parse(audit?.detail ?? "{}")).toMatchObject({
      by: admin.email,
      template: "welcome",
      attempts: 30,
      lastError: "503: Service unavailable",
    });

    // Again: the notice is no longer failed, so nothing changes.
    const again = await postResend(id, { ...env, RESEND_API_KEY: "re_test_key" });
    expect(again.status).toBe(409);
    expect(alerts(await again.text())).toContain(MAIL_MESSAGES.notFailed);
    expect(calls).toHaveLength(1);
    expect(await rowOf(id)).toEqual(row);
    expect(await resendAudits(id)).toBe(1);
  });

  it("changes nothing for a notice that is not failed, or does not exist", async () => {
    for (const status of ["sent", "pending", "captured"] as const) {
      const id = await notice({ status, attempts: 2 });
      const before = await rowOf(id);
      const response = await postResend(id);
      expect(response.status).toBe(409);
      expect(alerts(await response.text())).toContain(MAIL_MESSAGES.notFailed);
      expect(await rowOf(id)).toEqual(before);
      expect(await resendAudits(id)).toBe(0);
    }
    const audits = await countRows("audit_log");
    for (const id of ["999999999", "abc", "", "1.5"]) {
      const response = await postResend(id);
      expect(response.status).toBe(404);
      expect(alerts(await response.text())).toContain(MAIL_MESSAGES.notFound);
    }
    expect(await countRows("audit_log")).toBe(audits);
  });

  it("re-queues once when two admins resend the same notice at the same time", async () => {
    const id = await failedNotice();
    const context: CommandContext = { db, env: appEnv, bindings: env, ctx: createExecutionContext() };
    const actor = { id: admin.id, email: admin.email, roles: ["owner" as const] };
    const outcomes = await Promise.all([resendEmail(context, actor, id), resendEmail(context, actor, id)]);
    await waitOnExecutionContext(context.ctx);
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.find((outcome) => !outcome.ok)).toEqual({ ok: false, error: MAIL_MESSAGES.notFailed, status: 409 });
    expect(await resendAudits(id)).toBe(1);
    // No RESEND_API_KEY here: the background delivery captures it for the local mailbox.
    expect((await rowOf(id)).status).toBe("captured");
  });

  it("gives the notice a fresh retry window", async () => {
    const id = await failedNotice({ createdAt: Date.now() - 3 * RETRY_WINDOW_MS });
    const context: CommandContext = { db, env: appEnv, bindings: env, ctx: createExecutionContext() };
    const now = Date.now();
    expect(await resendEmail(context, { id: admin.id, email: admin.email, roles: ["owner"] }, id, now)).toEqual({
      ok: true,
      id,
    });
    await waitOnExecutionContext(context.ctx);
    expect(await rowOf(id)).toMatchObject({ requeuedAt: now, failedAt: null });
  });
});

describe("the mail failure banner", () => {
  const now = Date.now() + 10_000 * HOUR;

  async function onlyThese(rows: OutboxValues[]) {
    // The banner looks at the whole outbox: start each case from one where everything was delivered.
    await env.DB.prepare("UPDATE email_outbox SET status = 'sent', failed_at = NULL").run();
    for (const values of rows) await notice(values);
    return mailTrouble(db, now);
  }

  it("reports nothing while every notice is delivered, fresh, or failing for less than an hour", async () => {
    expect(await onlyThese([])).toBeNull();
    expect(
      await onlyThese([
        // Failing, but queued 59 minutes ago.
        { createdAt: now - 59 * MINUTE, attempts: 4, lastError: "503: Service unavailable" },
        // Old, but no try has failed yet.
        { createdAt: now - 5 * HOUR, nextAttemptAt: now },
        // Created long ago, failed, and re-queued 10 minutes ago by an admin.
        {
          createdAt: now - 48 * HOUR,
          requeuedAt: now - 10 * MINUTE,
          attempts: 1,
          lastError: "503: Service unavailable",
        },
        // Failed more than 24 hours ago.
        { status: "failed", createdAt: now - 50 * HOUR, failedAt: now - 25 * HOUR, lastError: "503: x" },
        // Delivered.
        { status: "sent", createdAt: now - 5 * HOUR, attempts: 9, lastError: null },
        { status: "captured", createdAt: now - 5 * HOUR },
      ]),
    ).toBeNull();
  });

  it("reports notices failing for over an hour and notices failed in the last 24 hours", async () => {
    expect(
      await onlyThese([{ createdAt: now - 61 * MINUTE, attempts: 5, lastError: "503: Service unavailable" }]),
    ).toEqual({ failing: 1, failed: 0, keyRefused: false });
    expect(
      await onlyThese([
        { status: "failed", createdAt: now - 30 * HOUR, failedAt: now - 23 * HOUR, lastError: "422: bad" },
        { status: "failed", createdAt: now - 2 * HOUR, failedAt: now - HOUR, lastError: "render: name" },
      ]),
    ).toEqual({ failing: 0, failed: 2, keyRefused: false });
  });

  it("names a refused API key as the likely cause", async () => {
    expect(
      await onlyThese([
        { createdAt: now - 3 * HOUR, attempts: 0, lastError: "403: API key is invalid" },
        { createdAt: now - 2 * HOUR },
      ]),
    ).toEqual({ failing: 1, failed: 0, keyRefused: true });
  });

  it("renders nothing when all is well, and the counts with a link to /admin/mail otherwise", () => {
    expect(MailFailureBanner({ trouble: null, mayResend: true })).toBeNull();
    const banner = MailFailureBanner({ trouble: { failing: 1, failed: 3, keyRefused: true }, mayResend: true });
    const links: string[] = [];
    const text = textOf(banner, links);
    expect(text).toBe(
      "Mail is not getting through: 1 notice failing for over an hour, 3 notices failed in the last 24 hours. " +
        "The mail provider refuses our API key (check RESEND_API_KEY). Review and resend",
    );
    expect(links).toEqual(["/admin/mail"]);
  });

  it("offers the link only to an admin whose roles may resend", () => {
    const links: string[] = [];
    const text = textOf(
      MailFailureBanner({ trouble: { failing: 1, failed: 0, keyRefused: false }, mayResend: false }),
      links,
    );
    expect(text).toBe("Mail is not getting through: 1 notice failing for over an hour. ");
    expect(links).toEqual([]);
  });
});

/** The text of an element tree as the banner returns it (no hooks run), and the targets of its links. */
function textOf(node: ReactNode, links: string[]): string {
  if (node === null || node === undefined || typeof node === "boolean") return "";
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map((child) => textOf(child, links)).join("");
  if (!isValidElement<{ children?: ReactNode; to?: string }>(node)) return "";
  if (typeof node.props.to === "string") links.push(node.props.to);
  return textOf(node.props.children, links);
}
