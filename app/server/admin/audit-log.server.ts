/**
 * The audit log's reader (/admin/audit) and its CSV: newest first, filtered by admin, action, client and a range
 * of UTC days, each row read with the names its details point at (the client, the wallet) so that people read
 * names, dollars and UTC times instead of ids, cents and epoch milliseconds (`app/lib/audit-details.ts`).
 */
import { and, desc, eq, lt, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { type AuditNames, auditFacts, auditTarget, factsText } from "~/lib/audit-details";
import type { AuditFilters } from "~/lib/audit-filters";
import { displayName } from "~/lib/person-name";
import { csvStream } from "../csv.server";
import { withinDays } from "../day-range.server";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { type Keyset, keysetOf, readKeyset } from "../paging.server";

const { users, profiles, auditLog, depositWallets } = schema;
const actors = alias(users, "actor");
const people = alias(users, "person");

/** Whom a row is about: its `client` detail, else the account of a `user:` target. */
const personId = sql`coalesce(json_extract(${auditLog.detail}, '$.client'),
  CASE WHEN ${auditLog.target} LIKE 'user:%' THEN substr(${auditLog.target}, 6) END)`;
/** The deposit wallet it is about: its `wallet` detail, else a `wallet:` target. */
const walletId = sql`coalesce(json_extract(${auditLog.detail}, '$.wallet'),
  CASE WHEN ${auditLog.target} LIKE 'wallet:%' THEN CAST(substr(${auditLog.target}, 8) AS INTEGER) END)`;

/**
 * The accounts the Client filter names: the id exactly as typed, and every account whose e-mail or first and last
 * name holds the text, in any case, with LIKE's wildcards read as plain characters (as /admin/transactions matches).
 */
function namedAccountIds(client: string): SQL {
  const pattern = `%${client.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
  return sql`SELECT ${client} AS id UNION SELECT u.id FROM users u LEFT JOIN profiles p ON p.user_id = u.id
    WHERE u.email LIKE ${pattern} ESCAPE '\\'
       OR lower(coalesce(p.first_name, '') || ' ' || coalesce(p.last_name, '')) LIKE ${pattern} ESCAPE '\\'`;
}

/** Rows about those accounts: their `user:` target, or a `client` detail naming one. */
function aboutAccounts(client: string): SQL {
  const ids = namedAccountIds(client);
  return sql`(${auditLog.target} IN (SELECT 'user:' || id FROM (${ids}))
    OR json_extract(${auditLog.detail}, '$.client') IN (${ids}))`;
}

function auditConditions(filters: AuditFilters): SQL | undefined {
  return and(
    filters.admin ? eq(auditLog.actorId, filters.admin) : undefined,
    filters.action ? eq(auditLog.action, filters.action) : undefined,
    filters.client ? aboutAccounts(filters.client) : undefined,
    withinDays(auditLog.createdAt, filters),
  );
}

function auditQuery(db: Db) {
  return db
    .select({
      id: auditLog.id,
      actorId: auditLog.actorId,
      actorEmail: actors.email,
      actorRole: actors.role,
      action: auditLog.action,
      target: auditLog.target,
      detail: auditLog.detail,
      createdAt: auditLog.createdAt,
      personEmail: people.email,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      walletType: depositWallets.walletType,
    })
    .from(auditLog)
    .leftJoin(actors, eq(actors.id, auditLog.actorId))
    .leftJoin(people, eq(people.id, personId))
    .leftJoin(profiles, eq(profiles.userId, people.id))
    .leftJoin(depositWallets, eq(depositWallets.id, walletId))
    .$dynamic();
}

type AuditRow = Awaited<ReturnType<typeof auditQuery>>[number];

const ACTOR_KINDS = { admin: "Admin", user: "Client" } as const;

/**
 * Who acted, by kind, since clients write rows too (a cancelled request, their passkeys): "Admin · ops@…",
 * "Client · jane@…", or "System · cron" for the scheduled job and "System · cli" for `npm run admin:create`, which
 * act without an account.
 */
function actorLabel(row: Pick<AuditRow, "actorId" | "actorEmail" | "actorRole">): string {
  const kind = row.actorRole ? ACTOR_KINDS[row.actorRole] : "System";
  const who = row.actorEmail ?? row.actorId;
  return who ? `${kind} · ${who}` : kind;
}

/** A row as people read it: when, who, what, on what, and the details as labelled facts. */
function readable(row: AuditRow) {
  const names: AuditNames = {
    person: row.personEmail
      ? { name: displayName(row.firstName, row.lastName, "") || null, email: row.personEmail }
      : null,
    walletType: row.walletType,
  };
  return {
    id: row.id,
    createdAt: row.createdAt,
    by: actorLabel(row),
    action: row.action,
    target: auditTarget(row.target, names),
    facts: auditFacts(row, names),
  };
}

export type AuditEntry = ReturnType<typeof readable>;

/**
 * One page, newest first. Paged by id alone: audit ids only grow, so "older than this id" is the keyset here,
 * and the URL keeps its plain `?before=<id>`.
 */
export async function listAudit(db: Db, filters: AuditFilters, beforeId?: number, pageSize = 50) {
  const rows = await auditQuery(db)
    .where(and(auditConditions(filters), beforeId ? lt(auditLog.id, beforeId) : undefined))
    .orderBy(desc(auditLog.id))
    .limit(pageSize + 1);
  const page = rows.slice(0, pageSize).map(readable);
  return { entries: page, next: rows.length > pageSize ? (page.at(-1)?.id ?? null) : null };
}

export const AUDIT_CSV_COLUMNS = [
  "Time (UTC)",
  "By",
  "Action",
  "Target",
  "Details",
  "Stored target",
  "Stored detail",
] as const;

/**
 * The filtered log as CSV, newest first, a keyset page (created_at, id) at a time along `audit_log_created_idx`:
 * what the page shows, then the row as it is stored, for whoever needs the exact values.
 */
export function auditCsv(db: Db, filters: AuditFilters): ReadableStream<Uint8Array> {
  const keyset = { createdAt: auditLog.createdAt, id: auditLog.id };
  return csvStream<AuditRow, Keyset>({
    header: AUDIT_CSV_COLUMNS,
    readPage: (after, limit) => readKeyset(auditQuery(db), keyset, auditConditions(filters), after, "newest", limit),
    keyOf: keysetOf,
    cells: (row) => {
      const entry = readable(row);
      return [
        new Date(row.createdAt).toISOString(),
        entry.by,
        entry.action,
        entry.target,
        factsText(entry.facts),
        row.target,
        row.detail === null ? "" : JSON.stringify(row.detail),
      ];
    },
  });
}

export async function listAdmins(db: Db) {
  return db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.role, "admin"))
    .orderBy(users.email);
}
