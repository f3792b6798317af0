/**
 * The local demo seed (scripts/seed.ts) on a fresh database and on one seeded by an older version, through the
 * wrangler CLI as `npm run dev` runs it, each on a throwaway state folder. Run with `npm run test:scripts`.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { decodeBase32 } from "@oslojs/encoding";
import { decryptTotpSecret } from "../../app/server/auth/totp-crypto.server.ts";
import { MONITORING_RULES } from "../../db/enums.ts";
import {
  applyMigrations,
  type D1Target,
  devVar,
  ensureDevVars,
  executeStatements,
  query,
  quietEnv,
  sqlValue,
} from "../../scripts/lib/local-d1.ts";
import {
  DEMO_ADMIN,
  DEMO_ADMINS,
  DEMO_CLIENT,
  DEMO_MONITORED_CLIENT,
  DEMO_SECOND_ADMIN,
  DEMO_SECOND_CLIENT,
  DEMO_SUPPORT_ADMIN,
  seedIfEmpty,
} from "../../scripts/seed.ts";
import { DORMANT_QUIET_DAYS } from "../../scripts/seed-monitoring.ts";

type Enrolment = { id: string; email: string; role: string; secret_encrypted: string | null };

function demoAdmins(target: D1Target): Enrolment[] {
  return query<Enrolment>(
    `SELECT u.id, u.email, u.role, t.secret_encrypted FROM users u LEFT JOIN two_factor t ON t.user_id = u.id
     WHERE u.email IN (${DEMO_ADMINS.map((admin) => sqlValue(admin.email)).join(", ")}) ORDER BY u.id`,
    target,
  );
}

/** Each demo admin is an admin, enrolled with the key `npm run dev` prints for it. */
async function assertEnrolledWithDemoKeys(target: D1Target): Promise<void> {
  ensureDevVars();
  const key = devVar("TOTP_ENCRYPTION_KEY") ?? "";
  const rows = demoAdmins(target);
  assert.deepEqual(
    rows.map((row) => [row.email, row.role]),
    [
      [DEMO_ADMIN.email, "admin"],
      [DEMO_SECOND_ADMIN.email, "admin"],
      [DEMO_SUPPORT_ADMIN.email, "admin"],
    ],
  );
  // The two demo owners may do everything; the support admin only what support does.
  const roles = query<{ email: string; roles: string }>(
    `SELECT u.email, group_concat(r.role) AS roles FROM users u JOIN admin_roles r ON r.user_id = u.id
     GROUP BY u.id ORDER BY u.id`,
    target,
  );
  assert.deepEqual(
    roles.map((row) => [row.email, row.roles]),
    [
      [DEMO_ADMIN.email, "owner"],
      [DEMO_SECOND_ADMIN.email, "owner"],
      [DEMO_SUPPORT_ADMIN.email, "support"],
    ],
  );
  for (const row of rows) {
    const demo = DEMO_ADMINS.find((admin) => admin.email === row.email);
    assert.ok(row.secret_encrypted, `${row.email} is not enrolled`);
    const secret = await decryptTotpSecret(key, row.id, row.secret_encrypted);
    assert.deepEqual(secret, decodeBase32(demo?.totpSecret ?? ""), `${row.email} has another key`);
  }
}

describe("the demo seed", { timeout: 480_000 }, () => {
  const folders: string[] = [];
  const freshState = (): D1Target => {
    const folder = mkdtempSync(join(tmpdir(), "seed-test-state-"));
    folders.push(folder);
    applyMigrations({ persistTo: folder });
    return { persistTo: folder };
  };
  let fresh: D1Target;

  before(() => {
    fresh = freshState();
  });

  after(() => {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  test("a new database gets two demo admins, each enrolled in two-factor sign-in with its own demo key", async () => {
    assert.equal(await seedIfEmpty(fresh), true);
    await assertEnrolledWithDemoKeys(fresh);
    assert.notEqual(DEMO_ADMIN.totpSecret, DEMO_SECOND_ADMIN.totpSecret);
    const [profile] = query<{ first_name: string; role: string }>(
      `SELECT first_name, role FROM profiles WHERE user_id = ${sqlValue(DEMO_SECOND_ADMIN.id)}`,
      fresh,
    );
    assert.deepEqual(profile, { first_name: DEMO_SECOND_ADMIN.firstName, role: "admin" });
  });

  test("the demo client is verified and the second client's documents wait for review, in the local bucket", async () => {
    type CaseRow = { email: string; status: string; documents: number; keys: string };
    const cases = query<CaseRow>(
      `SELECT u.email, c.status, count(d.id) AS documents, group_concat(d.object_key || ' ' || d.size_bytes, '|') AS keys
       FROM verification_cases c JOIN users u ON u.id = c.user_id JOIN verification_documents d ON d.case_id = c.id
       GROUP BY c.id ORDER BY c.status`,
      fresh,
    );
    assert.deepEqual(
      cases.map(({ email, status, documents }) => [email, status, documents]),
      [
        [DEMO_CLIENT.email, "approved", 2],
        [DEMO_SECOND_CLIENT.email, "submitted", 3],
      ],
    );
    // Each row's object is in the local bucket with the size the row records, under a key that names nobody.
    for (const entry of cases.flatMap((row) => row.keys.split("|"))) {
      const [key = "", size] = entry.split(" ");
      assert.match(key, /^documents\/[0-9a-f-]{36}$/);
      const out = execFileSync(
        join("node_modules", ".bin", "wrangler"),
        [
          "r2",
          "object",
          "get",
          `brokerage-documents/${key}`,
          "--pipe",
          "--local",
          "--persist-to",
          fresh.persistTo ?? "",
        ],
        { env: quietEnv, maxBuffer: 16 * 1024 * 1024 },
      );
      assert.equal(out.length, Number(size), key);
    }
  });

  test("the monitored demo client's requests leave one open alert of each of the six rules", () => {
    const alerts = query<{ rule: string; status: string; user_id: string; detail: string }>(
      "SELECT rule, status, user_id, detail FROM monitoring_alerts ORDER BY rule",
      fresh,
    );
    assert.deepEqual(
      alerts.map((alert) => [alert.rule, alert.status, alert.user_id]),
      [...MONITORING_RULES].sort().map((rule) => [rule, "open", DEMO_MONITORED_CLIENT.id]),
    );
    // Each as the rule wrote it: the requests involved are named.
    for (const alert of alerts) assert.ok(JSON.parse(alert.detail).transactionIds.length > 0, alert.rule);
    // The dormant withdrawal's quiet is the round number README gives ("after 200 quiet days").
    const dormant = alerts.find((alert) => alert.rule === "dormant_account");
    assert.equal(JSON.parse(dormant?.detail ?? "{}").idleDays, DORMANT_QUIET_DAYS);
    // The other demo clients' money is untouched: the demo client's balance is still the seed's figure.
    const [client] = query<{ balance_cents: number }>(
      `SELECT balance_cents FROM profiles WHERE user_id = ${sqlValue(DEMO_CLIENT.id)}`,
      fresh,
    );
    assert.equal(client?.balance_cents, 642_525);
  });

  test("every mail the seed leaves in the outbox renders, as the local mailbox shows it", async () => {
    ensureDevVars();
    const { renderStoredEmail } = await import("../../app/server/mail/templates.server.ts");
    const { readAppEnv } = await import("../../app/server/env.server.ts");
    const env = readAppEnv({
      ENVIRONMENT: "development",
      SESSION_SECRET: devVar("SESSION_SECRET"),
      MAIL_API_TOKEN: devVar("MAIL_API_TOKEN"),
      TOTP_ENCRYPTION_KEY: devVar("TOTP_ENCRYPTION_KEY"),
      BRAND_NAME: "Northwind Markets",
      SUPPORT_EMAIL: "support@example.com",
      ADMIN_MAILBOX: "desk@example.com",
      MAIL_FROM: "notices@example.com",
    } as unknown as Parameters<typeof readAppEnv>[0]);
    const mails = query<{ template: string; payload: string }>("SELECT template, payload FROM email_outbox", fresh);
    assert.ok(mails.some((mail) => mail.template === "security_notice"));
    for (const mail of mails) {
      const rendered = renderStoredEmail(mail.template, JSON.parse(mail.payload), env);
      assert.ok(rendered.subject.length > 0, mail.template);
    }
  });

  test("seeding again leaves a seeded database as it is", async () => {
    const before = query<{ n: number }>("SELECT count(*) AS n FROM users", fresh);
    const alerts = query<{ n: number }>("SELECT count(*) AS n FROM monitoring_alerts", fresh);
    const ledger = query<{ n: number }>("SELECT count(*) AS n FROM transactions", fresh);
    assert.equal(await seedIfEmpty(fresh), false);
    assert.deepEqual(query<{ n: number }>("SELECT count(*) AS n FROM users", fresh), before);
    assert.deepEqual(query<{ n: number }>("SELECT count(*) AS n FROM monitoring_alerts", fresh), alerts);
    assert.deepEqual(query<{ n: number }>("SELECT count(*) AS n FROM transactions", fresh), ledger);
    await assertEnrolledWithDemoKeys(fresh);
  });

  test("an older database, one demo admin, no two-factor and no roles, gets the other admins, keys and roles", async () => {
    const older = freshState();
    await seedIfEmpty(older);
    // As a database seeded before two-factor sign-in, four eyes and back-office roles looks.
    executeStatements(
      [
        "DELETE FROM two_factor",
        "DELETE FROM admin_roles",
        ...[DEMO_SECOND_ADMIN.id, DEMO_SUPPORT_ADMIN.id].flatMap((id) => [
          `DELETE FROM profiles WHERE user_id = ${sqlValue(id)}`,
          `DELETE FROM users WHERE id = ${sqlValue(id)}`,
        ]),
      ],
      older,
    );
    assert.deepEqual(
      demoAdmins(older).map((row) => [row.email, row.secret_encrypted]),
      [[DEMO_ADMIN.email, null]],
    );
    assert.equal(await seedIfEmpty(older), false);
    await assertEnrolledWithDemoKeys(older);
    // A second run finds nothing left to add.
    assert.equal(await seedIfEmpty(older), false);
    assert.equal(query<{ n: number }>("SELECT count(*) AS n FROM two_factor", older)[0]?.n, 3);
  });

  test("a database without the demo admins gets no demo admin added", async () => {
    const other = freshState();
    executeStatements(
      [
        `INSERT INTO users (id, email, password_hash, role) VALUES ('00000000-0000-4000-8000-0000000000aa', 'ops@firm.example', 'x', 'admin')`,
      ],
      other,
    );
    assert.equal(await seedIfEmpty(other), false);
    assert.deepEqual(demoAdmins(other), []);
  });
});
