/**
 * The mail-provider outage drill (scripts/mail-outage.ts, tests/scripts/mail-outage.test.ts): the app's own outbox
 * code (app/server/mail/outbox.server.ts) on a fresh database, delivering through the Resend SDK to the mail simulator
 * (scripts/lib/mail-simulator.ts), on a simulated clock.
 *
 * The provider fails (503) from the first minute; notices are queued all through the outage, each tried at once as
 * the app does after an action; the cron runs every minute of it (a minute in which no notice is due is skipped: its
 * run would do nothing). Then the provider recovers and the cron runs on until no notice is pending. A notice is lost when it is not accepted by the provider exactly once: never (it was
 * given up, or is still waiting) or twice.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { SqliteD1 } from "./app-on-sqlite.ts";
import { ROOT } from "./local-d1.ts";
import { startMailSimulator } from "./mail-simulator.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export interface OutageDrillOptions {
  /** How long the provider fails. */
  outageHours: number;
  /** Notices queued during the outage, one every `outageHours / mails`, the first as it begins. */
  mails: number;
  /** The provider's answer while it fails. */
  failStatus?: number;
  /** The cron runs this long after the recovery at most. */
  drainHours?: number;
}

export interface OutageDrillFigures {
  outageHours: number;
  queued: number;
  /** The outbox's retry window, as the app has it. */
  retryWindowHours: number;
  /** Cron runs with a notice due. */
  cronRuns: number;
  /** Requests the provider refused during the outage. */
  refusedDuringOutage: number;
  /** Tries of the notice queued first, the one that delivered it included. */
  triesOfTheFirst: number;
  /** Notices marked failed (given up) during the outage. */
  givenUp: number;
  /** Notices still pending when the drill ended. */
  stillPending: number;
  /** Notices the provider accepted exactly once, twice or more, never. */
  deliveredOnce: number;
  deliveredTwice: number;
  neverDelivered: number;
  /** Repeats the provider answered from the idempotency key, sending nothing. */
  repeatsAnsweredFromKey: number;
  /** From the recovery to the last acceptance. */
  minutesToDrain: number;
  lost: number;
}

function migratedDatabase(): DatabaseSync {
  const sqlite = new DatabaseSync(":memory:");
  const folder = join(ROOT, "db", "migrations");
  for (const file of readdirSync(folder)
    .filter((name) => name.endsWith(".sql"))
    .sort()) {
    sqlite.exec(readFileSync(join(folder, file), "utf8"));
  }
  return sqlite;
}

export async function runMailOutageDrill(options: OutageDrillOptions): Promise<OutageDrillFigures> {
  // The app's modules load through app-on-sqlite's resolve hook, registered by the import above.
  const { createDb, schema } = await import("../../app/server/db.server.ts");
  const { readAppEnv } = await import("../../app/server/env.server.ts");
  const outbox = await import("../../app/server/mail/outbox.server.ts");
  const { eq, sql } = await import("drizzle-orm");
  const { emailOutbox } = schema;

  const start = Math.floor(Date.now() / MINUTE) * MINUTE;
  let now = start;
  const simulator = await startMailSimulator({ clock: () => now });
  try {
    const db = createDb(new SqliteD1(migratedDatabase()) as unknown as D1Database);
    const env = readAppEnv({
      ENVIRONMENT: "development",
      SESSION_SECRET: "outage-drill-session-secret-0123456789abcdef",
      MAIL_API_TOKEN: "outage-drill-mail-token",
      TOTP_ENCRYPTION_KEY: "b3V0YWdlLWRyaWxsLXRvdHAta2V5LTMyLWJ5dGVzISE=",
      BRAND_NAME: "Northwind Markets",
      SUPPORT_EMAIL: "support@northwind.example",
      ADMIN_MAILBOX: "desk@northwind.example",
      MAIL_FROM: "notices@northwind.example",
      RESEND_API_KEY: "re_outage_drill",
      RESEND_BASE_URL: simulator.url,
    } as never);

    /** A notice as an action queues it (welcome or desk notice, in turn), then its first try right away. */
    async function queueNotice(n: number) {
      const [rows] = await db.batch([
        n % 2 === 0
          ? outbox.enqueueEmail(db, {
              to: `client${n}@example.com`,
              template: "welcome",
              data: { name: `Client ${n}` },
            })
          : outbox.enqueueEmail(db, {
              to: env.ADMIN_MAILBOX,
              template: "deposit_request",
              data: { name: `Client ${n}`, amount: 100 + n, walletType: "BTC", walletAddress: "bc1qoutagedrill" },
            }),
      ]);
      const id = rows[0]?.id as number;
      await db.update(emailOutbox).set({ createdAt: now, nextAttemptAt: now }).where(eq(emailOutbox.id, id));
      await outbox.deliverEmail(db, env, id, now);
      return id;
    }

    /** The cron's next minute with work after `after`: a pending notice due, or `until`, whichever comes first. */
    async function nextRun(after: number, until: number) {
      const due = await db
        .select({ at: sql<number | null>`min(${emailOutbox.nextAttemptAt})` })
        .from(emailOutbox)
        .where(eq(emailOutbox.status, "pending"))
        .get();
      const at = Math.min(due?.at ?? until, until);
      return Math.max(after + MINUTE, start + Math.ceil((at - start) / MINUTE) * MINUTE);
    }

    const outageEnds = start + options.outageHours * HOUR;
    const queueEvery = (options.outageHours * HOUR) / options.mails;
    const queueTime = (n: number) => (n < options.mails ? start + n * queueEvery : outageEnds);
    simulator.setMode("fail", options.failStatus ?? 503);
    const ids: number[] = [];
    let cronRuns = 0;
    while (now < outageEnds) {
      while (ids.length < options.mails && queueTime(ids.length) <= now) ids.push(await queueNotice(ids.length));
      await outbox.deliverDueEmails(db, env, now);
      cronRuns++;
      now = await nextRun(now, Math.min(queueTime(ids.length), outageEnds));
    }
    const refusedDuringOutage = simulator.state.refused;

    simulator.setMode("ok");
    const drainEnds = outageEnds + (options.drainHours ?? 3) * HOUR;
    while (now <= drainEnds) {
      await outbox.deliverDueEmails(db, env, now);
      cronRuns++;
      const next = await nextRun(now, Number.POSITIVE_INFINITY);
      if (!Number.isFinite(next)) break;
      now = next;
    }

    const rows = await db.select().from(emailOutbox);
    const acceptances = (id: number) =>
      simulator.state.accepted.filter((mail) => mail.idempotencyKey === `outbox-${id}`).length;
    const counts = ids.map(acceptances);
    const lastAccepted = Math.max(outageEnds, ...simulator.state.accepted.map((mail) => mail.acceptedAt));
    return {
      outageHours: options.outageHours,
      queued: ids.length,
      retryWindowHours: outbox.RETRY_WINDOW_MS / HOUR,
      cronRuns,
      refusedDuringOutage,
      triesOfTheFirst: rows.find((row) => row.id === ids[0])?.attempts ?? 0,
      givenUp: rows.filter((row) => row.status === "failed").length,
      stillPending: rows.filter((row) => row.status === "pending").length,
      deliveredOnce: counts.filter((count) => count === 1).length,
      deliveredTwice: counts.filter((count) => count > 1).length,
      neverDelivered: counts.filter((count) => count === 0).length,
      repeatsAnsweredFromKey: simulator.state.replays,
      minutesToDrain: Math.round((lastAccepted - outageEnds) / MINUTE),
      lost: counts.filter((count) => count !== 1).length,
    };
  } finally {
    await simulator.close();
  }
}
