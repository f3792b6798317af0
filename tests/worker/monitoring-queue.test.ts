import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ALERT_MESSAGES } from "~/lib/monitoring/alerts";
import type { BackOfficeRole } from "~/lib/permissions";
import { PERMISSION_MESSAGES } from "~/lib/permissions";
import { transactionReference } from "~/lib/reference";
import { REASON_TOO_LONG } from "~/lib/schemas/reason";
import { countRows, createUser, getPage, insertTransaction, postForm, sessionCookieFor } from "../support/fixtures";
import { alerts, cardTitled, errorShown, linkHref, REFUSED, replyToast, testIdTexts } from "../support/places";
import { rowCells, tableRows } from "../support/tables";

async function adminWith(roles: BackOfficeRole[]) {
  const admin = await createUser({ role: "admin", roles });
  return { ...admin, cookie: await sessionCookieFor(admin.id) };
}

/** An open large-transaction alert on the client's own deposit request of `cents`, written at `createdAt`. */
async function alertOn(userId: string, cents: number, createdAt = Date.now()) {
  const tx = await insertTransaction(userId, { amountCents: cents, createdBy: userId, createdAt });
  const detail = { transactionIds: [tx], kind: "deposit", amountCents: cents, thresholdCents: 1_000_000 };
  const row = await env.DB.prepare(
    `INSERT INTO monitoring_alerts (user_id, rule, trigger_transaction_id, detail, created_at)
     VALUES (?, 'large_transaction', ?, ?, ?) RETURNING id`,
  )
    .bind(userId, tx, JSON.stringify(detail), createdAt)
    .first<{ id: number }>();
  return { id: row?.id ?? 0, tx };
}

const decide = (admin: { cookie: string }, intent: string, fields: Record<string, string>) =>
  postForm("/admin/alerts", { intent, ...fields }, { cookie: admin.cookie });

const alertRow = (id: number) =>
  env.DB.prepare(
    "SELECT status, disposed_by AS by, disposition_note AS note, report_reference AS reference FROM monitoring_alerts WHERE id = ?",
  )
    .bind(id)
    .first<{ status: string; by: string | null; note: string | null; reference: string | null }>();

/** The text of each row of the alerts table, in the table's order. */
const alertRows = (html: string) => tableRows(html, "alerts").map((cells) => cells.join(" "));

/** Every row a decision could write: compared before and after a refused one. */
const fingerprint = async () =>
  JSON.stringify(
    await Promise.all(
      [
        "SELECT count(*) AS n FROM audit_log",
        "SELECT group_concat(id || status) AS n FROM monitoring_alerts",
        "SELECT count(*) AS n FROM client_notes",
        "SELECT count(*) AS n FROM client_flags",
      ].map((read) => env.DB.prepare(read).first()),
    ),
  );

describe("the alerts page", () => {
  it("lists open alerts newest first with the rule, the words, the client and the requests, linked", async () => {
    const officer = await adminWith(["compliance"]);
    const older = await createUser({ firstName: "Olderalert" });
    const newer = await createUser({ firstName: "Neweralert" });
    const first = await alertOn(older.id, 1_200_000, Date.now() + 60_000);
    const second = await alertOn(newer.id, 1_500_000, Date.now() + 120_000);

    const response = await getPage("/admin/alerts", officer.cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    const rows = alertRows(html);
    const newerAt = rows.findIndex((row) => row.includes("Neweralert"));
    expect(newerAt).toBeGreaterThan(-1);
    expect(newerAt).toBeLessThan(rows.findIndex((row) => row.includes("Olderalert")));
    const rule = rowCells(html, `data-alert="${second.id}"`)?.[1];
    expect(rule).toContain("Large single transaction");
    expect(rule).toContain("A deposit of $15,000.00, at or above $10,000.00");
    expect(linkHref(html, "Neweralert Tester")).toBe(`/user/${newer.id}`);
    expect(linkHref(html, transactionReference(second.tx))).toBe(
      `/user/${newer.id}?reference=${transactionReference(second.tx)}`,
    );
    expect(linkHref(html, transactionReference(first.tx))).toBe(
      `/user/${older.id}?reference=${transactionReference(first.tx)}`,
    );
  });

  it("moves a decided alert from Open to Decided, with who decided and why", async () => {
    const officer = await adminWith(["compliance"]);
    const client = await createUser({ firstName: "Decidedone" });
    const alert = await alertOn(client.id, 1_100_000, Date.now() + 180_000);
    await decide(officer, "dismiss", { alertId: String(alert.id), reason: "Salary, documented" });

    const open = await (await getPage("/admin/alerts", officer.cookie)).text();
    expect(alertRows(open).filter((row) => row.includes("Decidedone"))).toEqual([]);
    const decided = await (await getPage("/admin/alerts?view=decided", officer.cookie)).text();
    const decision = rowCells(decided, "Decidedone")?.[4];
    expect(decision).toContain("Salary, documented");
    expect(decision).toContain(officer.email);
  });

  it("offers the Alerts link only to the roles that review alerts", async () => {
    for (const [roles, shown] of [
      [["compliance"], true],
      [["owner"], true],
      [["support"], false],
      [["operator"], false],
    ] as const) {
      const admin = await adminWith([...roles]);
      const html = await (await getPage("/admin", admin.cookie)).text();
      expect(linkHref(html, "Alerts"), roles[0]).toBe(shown ? "/admin/alerts" : null);
      expect(linkHref(html, "Open monitoring alerts"), roles[0]).toBe(shown ? "/admin/alerts" : null);
    }
  });
});

describe("deciding an alert", () => {
  it("Dismiss keeps the reason, the decider and an audit row", async () => {
    const officer = await adminWith(["compliance"]);
    const client = await createUser();
    const alert = await alertOn(client.id, 1_000_000);
    const response = await decide(officer, "dismiss", { alertId: String(alert.id), reason: "  Known payroll  " });
    expect(response.status).toBe(200);
    expect(await replyToast(await response.text())).toEqual({ type: "success", text: ALERT_MESSAGES.dismissed });
    expect(await alertRow(alert.id)).toEqual({
      status: "dismissed",
      by: officer.id,
      note: "Known payroll",
      reference: null,
    });
    const audit = await env.DB.prepare(
      "SELECT actor_id, detail FROM audit_log WHERE action = 'alert.dismiss' AND target = ?",
    )
      .bind(`alert:${alert.id}`)
      .first<{ actor_id: string; detail: string }>();
    expect(audit?.actor_id).toBe(officer.id);
    expect(JSON.parse(audit?.detail ?? "{}")).toMatchObject({
      client: client.id,
      rule: "large_transaction",
      note: "Known payroll",
    });
  });

  it("Escalate puts the client on Watch with a note saying it came from the alert", async () => {
    const officer = await adminWith(["compliance"]);
    const client = await createUser();
    const alert = await alertOn(client.id, 1_000_000);
    const response = await decide(officer, "escalate", { alertId: String(alert.id), note: "Source of funds unclear" });
    expect(response.status).toBe(200);
    expect((await alertRow(alert.id))?.status).toBe("escalated");
    expect(await countRows("client_flags", "user_id = ? AND flag = 'watch'", client.id)).toBe(1);
    const note = await env.DB.prepare("SELECT body, author_id FROM client_notes WHERE user_id = ?")
      .bind(client.id)
      .first<{ body: string; author_id: string }>();
    expect(note).toEqual({
      body: `Escalated from monitoring alert #${alert.id} (Large single transaction): Source of funds unclear`,
      author_id: officer.id,
    });
    expect(await countRows("audit_log", "action = 'alert.escalate' AND target = ?", `alert:${alert.id}`)).toBe(1);
    expect(await countRows("audit_log", "action = 'client.note' AND target = ?", `user:${client.id}`)).toBe(1);
    const page = await (await getPage(`/user/${client.id}`, officer.cookie)).text();
    expect(testIdTexts(page, "client-flag")).toContain("Watch");
    expect(cardTitled(page, "Notes")).toContain("Source of funds unclear");
  });

  it("Report filed keeps the external reference", async () => {
    const owner = await adminWith(["owner"]);
    const client = await createUser();
    const alert = await alertOn(client.id, 1_000_000);
    const response = await decide(owner, "report", { alertId: String(alert.id), reference: "SAR-2026-0042" });
    expect(response.status).toBe(200);
    expect(await replyToast(await response.text())).toEqual({ type: "success", text: ALERT_MESSAGES.reported });
    expect(await alertRow(alert.id)).toMatchObject({ status: "reported", reference: "SAR-2026-0042", note: null });
    expect(await countRows("audit_log", "action = 'alert.report' AND target = ?", `alert:${alert.id}`)).toBe(1);
  });

  it("is decided once: a second decision is refused and writes nothing", async () => {
    const officer = await adminWith(["compliance"]);
    const client = await createUser();
    const alert = await alertOn(client.id, 1_000_000);
    await decide(officer, "report", { alertId: String(alert.id), reference: "SAR-1" });
    const before = await fingerprint();
    for (const [intent, fields] of [
      ["dismiss", { reason: "Fine" }],
      ["escalate", { note: "Look" }],
      ["report", { reference: "SAR-2" }],
    ] as const) {
      const response = await decide(officer, intent, { alertId: String(alert.id), ...fields });
      expect(response.status).toBe(409);
      // Shown on the page, though the decided alert has left the Open list and its row with it.
      expect(alerts(await response.text())).toContain(ALERT_MESSAGES.alreadyDecided);
    }
    expect(await fingerprint()).toBe(before);
    expect((await alertRow(alert.id))?.reference).toBe("SAR-1");
  });

  it("of two decisions at the same moment, one wins and the other is refused", async () => {
    const [one, two] = [await adminWith(["compliance"]), await adminWith(["owner"])];
    const client = await createUser();
    const alert = await alertOn(client.id, 1_000_000);
    const responses = await Promise.all([
      decide(one, "escalate", { alertId: String(alert.id), note: "Escalating" }),
      decide(two, "dismiss", { alertId: String(alert.id), reason: "Dismissing" }),
      decide(two, "escalate", { alertId: String(alert.id), note: "Escalating too" }),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    for (const response of responses.filter((r) => r.status === 409)) {
      expect(alerts(await response.text())).toContain(ALERT_MESSAGES.alreadyDecided);
    }
    expect(await countRows("audit_log", "action LIKE 'alert.%' AND target = ?", `alert:${alert.id}`)).toBe(1);
    const escalated = (await alertRow(alert.id))?.status === "escalated";
    expect(await countRows("client_notes", "user_id = ?", client.id)).toBe(escalated ? 1 : 0);
  });

  it("refuses bad input with its message and writes nothing", async () => {
    const officer = await adminWith(["compliance"]);
    const client = await createUser();
    const alert = await alertOn(client.id, 1_000_000);
    const id = String(alert.id);
    const before = await fingerprint();
    for (const [intent, fields, status, message] of [
      ["dismiss", { alertId: id, reason: "   " }, 400, ALERT_MESSAGES.reasonRequired],
      ["dismiss", { alertId: id }, 400, ALERT_MESSAGES.reasonRequired],
      ["dismiss", { alertId: id, reason: "x".repeat(501) }, 400, REASON_TOO_LONG],
      ["escalate", { alertId: id, note: "" }, 400, ALERT_MESSAGES.noteRequired],
      ["escalate", { alertId: id, note: "y".repeat(501) }, 400, REASON_TOO_LONG],
      ["report", { alertId: id, reference: "" }, 400, ALERT_MESSAGES.referenceRequired],
      ["report", { alertId: id, reference: "R".repeat(101) }, 400, ALERT_MESSAGES.referenceTooLong],
      ["report", { alertId: id, reference: "SAR\u202E1" }, 400, ALERT_MESSAGES.referenceCharacters],
      ["dismiss", { alertId: "999999999", reason: "Fine" }, 404, ALERT_MESSAGES.notFound],
      ["dismiss", { alertId: "abc", reason: "Fine" }, 404, ALERT_MESSAGES.notFound],
      ["approve", { alertId: id }, 400, "Unknown action"],
    ] as const) {
      const response = await decide(officer, intent, fields);
      expect(response.status, `${intent} ${JSON.stringify(fields).slice(0, 60)}`).toBe(status);
      expect(alerts(await response.text())).toContain(message);
    }
    expect(await fingerprint()).toBe(before);
    expect((await alertRow(alert.id))?.status).toBe("open");
  });

  it("accepts a reason of exactly 500 characters and a reference of exactly 100", async () => {
    const officer = await adminWith(["compliance"]);
    const client = await createUser();
    const [a, b] = [await alertOn(client.id, 1_000_000), await alertOn(client.id, 1_100_000)];
    expect((await decide(officer, "dismiss", { alertId: String(a.id), reason: "r".repeat(500) })).status).toBe(200);
    expect((await decide(officer, "report", { alertId: String(b.id), reference: "R".repeat(100) })).status).toBe(200);
  });

  it("is refused with 403 for support, operators and approvers, writing nothing", async () => {
    const client = await createUser();
    const alert = await alertOn(client.id, 1_000_000);
    const before = await fingerprint();
    for (const role of ["support", "operator", "approver"] as const) {
      const admin = await adminWith([role]);
      expect((await getPage("/admin/alerts", admin.cookie)).status).toBe(403);
      const response = await decide(admin, "escalate", { alertId: String(alert.id), note: "Mine" });
      expect(response.status, role).toBe(403);
      expect(errorShown(await response.text())).toEqual({ title: REFUSED, text: PERMISSION_MESSAGES.forbidden });
    }
    // The admins' own rows aside (their sign-in), nothing an alert decision writes has changed.
    expect(await fingerprint()).toBe(before);
  });

  it("shows a client nothing of it", async () => {
    const client = await createUser({ firstName: "Watched" });
    const cookie = await sessionCookieFor(client.id);
    await alertOn(client.id, 2_000_000);
    const page = await getPage("/admin/alerts", cookie);
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toMatch(/^\/dashboard/);
    expect((await decide({ cookie }, "dismiss", { alertId: "1", reason: "Mine" })).status).not.toBe(200);
    for (const path of ["/dashboard", "/transactions"]) {
      const html = await (await getPage(path, cookie)).text();
      // Monitoring is the back office's alone: nothing of it reaches a client's page, its data included.
      expect(html).not.toContain("Large single transaction");
      // The session warning's ARIA role is the page's own, not a monitoring alert.
      expect(html.replaceAll('role="alertdialog"', "")).not.toContain("alert");
    }
  });
});

describe("the alerts CSV", () => {
  const DAY_ONE = Date.UTC(2024, 2, 10, 9);
  it("lists the alerts of a range of UTC days with their decisions, oldest first", async () => {
    const officer = await adminWith(["compliance"]);
    const client = await createUser({ firstName: "Csvclient" });
    const early = await alertOn(client.id, 1_000_000, DAY_ONE);
    const late = await alertOn(client.id, 1_300_000, Date.UTC(2024, 2, 10, 23, 59, 59, 999));
    const outside = await alertOn(client.id, 1_400_000, Date.UTC(2024, 2, 11));
    await decide(officer, "report", { alertId: String(early.id), reference: "=SAR-9" });

    const response = await getPage("/admin/alerts.csv?from=2024-03-10&to=2024-03-10", officer.cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toContain("alerts-2024-03-10-to-2024-03-10.csv");
    const lines = (await response.text()).trim().split("\r\n");
    expect(lines[0]).toBe(
      "alert_id,created_at,client_id,client,rule,words,transactions,status,decided_by,decided_at,note,report_reference",
    );
    expect(lines).toHaveLength(3);
    const reference = transactionReference(early.tx);
    expect(lines[1]).toMatch(
      new RegExp(
        `^${early.id},2024-03-10T09:00:00.000Z,${client.id},Csvclient Tester,Large single transaction,` +
          `"A deposit of \\$10,000.00, at or above \\$10,000.00",${reference},reported,${officer.email},` +
          // A reference that looks like a formula is defused.
          `\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z,,'=SAR-9$`,
      ),
    );
    expect(lines[2]).toMatch(new RegExp(`^${late.id},2024-03-10T23:59:59.999Z,.*,open,,,,$`));
    expect(lines.some((line) => line.startsWith(`${outside.id},`))).toBe(false);
  });

  it("refuses a bad date with its message, and anyone but compliance and owners", async () => {
    const officer = await adminWith(["compliance"]);
    const bad = await getPage("/admin/alerts.csv?from=2024-13-01", officer.cookie);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('"2024-13-01" is not a date');
    const reversed = await getPage("/admin/alerts.csv?from=2024-03-11&to=2024-03-10", officer.cookie);
    expect(reversed.status).toBe(400);
    for (const role of ["support", "operator", "approver"] as const) {
      const admin = await adminWith([role]);
      expect((await getPage("/admin/alerts.csv", admin.cookie)).status, role).toBe(403);
    }
  });
});
