/**
 * The audit log's reader (/admin/audit) and its CSV: newest first, filtered by admin, action, client and a range
 * of UTC days, each row read with the names its details point at (the client, the wallet) so that people read
 * names, dollars and UTC times instead of ids, cents and epoch milliseconds (`app/lib/audit-details.ts`).
 * Rows archived to R2 after 13 months are read with the same query, over the object's rows instead of the
 * table, and merged with D1's in order (`audit-archive-read.server.ts`, docs/decisions/0077).
 */
import { and, desc, eq, lt, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { type AuditNames, auditFacts, auditTarget } from "~/lib/audit-details";
import type { AuditFilters } from "~/lib/audit-filters";
import { historyTimeRange } from "~/lib/history-filters";
import { displayName } from "~/lib/person-name";
import type { ArchivedAuditRow } from "../audit-archive.server";
import { withinDays } from "../day-range.server";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { readKeyset } from "../paging.server";
import { type AuditArchiveGap, type AuditKey, type AuditOrder, auditNewestFirst } from "./audit-archive-read.server";

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

/**
 * An archive object's rows in the place of the table: a common table expression named `audit_log` hides the table
 * within the statement, so the filters and the names read are the very ones of the live rows. `detail` is the
 * stored JSON text, read back as it was.
 */
function archivedRows(db: Db, rows: ArchivedAuditRow[]) {
  const field = (name: string) => sql`json_extract(value, ${`$.${name}`})`;
  return db.$with("audit_log").as(
    db
      .select({
        id: field("id").as("id"),
        actorId: field("actorId").as("actor_id"),
        action: field("action").as("action"),
        target: field("target").as("target"),
        detail: field("detail").as("detail"),
        createdAt: field("createdAt").as("created_at"),
      })
      .from(sql`json_each(${JSON.stringify(rows)})`),
  );
}

/** The log's rows with the names they point at: the table's, or (given) an archive object's. */
function auditQuery(db: Db, archived?: ArchivedAuditRow[]) {
  return (archived ? db.with(archivedRows(db, archived)) : db)
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

export type AuditRow = Awaited<ReturnType<typeof auditQuery>>[number];

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
export function readable(row: AuditRow) {
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

/** The log newest first in `order`, from `after` on: D1's rows and the archive's, merged, with the archive's gaps. */
export function auditList(
  db: Db,
  bucket: R2Bucket,
  filters: AuditFilters,
  order: AuditOrder,
  { after, maxObjects, livePageSize }: { after?: AuditKey; maxObjects?: number; livePageSize?: number } = {},
) {
  const conditions = auditConditions(filters);
  const keyset = { createdAt: auditLog.createdAt, id: auditLog.id };
  return auditNewestFirst<AuditRow>({
    db,
    bucket,
    order,
    after,
    maxObjects,
    livePageSize,
    range: historyTimeRange(filters),
    readLive: (from, limit) =>
      order === "time"
        ? readKeyset(auditQuery(db), keyset, conditions, from, "newest", limit)
        : auditQuery(db)
            .where(and(conditions, from ? lt(auditLog.id, from.id) : undefined))
            .orderBy(desc(auditLog.id))
            .limit(limit),
    matchArchived: (rows) => auditQuery(db, rows).where(conditions),
  });
}

/** An archive object that could not be read, in words, where its rows would have been. */
export function gapText(gap: AuditArchiveGap): string {
  const which = `${gap.rowCount} archived entries of ${gap.month} (ids ${gap.firstId} to ${gap.lastId})`;
  if (gap.gap === "expired") return `${which} were removed at the end of their five years of keeping.`;
  if (gap.gap === "missing") return `${which} cannot be shown: their archive object is missing.`;
  return `${which} are not shown: their archive object does not match its recorded checksum.`;
}

export type AuditListEntry = AuditEntry | { id: number; createdAt: number; gap: string };

/** Archive objects a page opens at most (each up to 500 rows): a page of sparse filters ends early, not late. */
const PAGE_OBJECTS = 20;

/**
 * One page, newest first. Paged by id alone: audit ids only grow, so "older than this id" is the keyset here,
 * and the URL keeps its plain `?before=<id>`, across D1 and the archive alike.
 */
export async function listAudit(db: Db, bucket: R2Bucket, filters: AuditFilters, beforeId?: number, pageSize = 50) {
  const items: Array<AuditRow | AuditArchiveGap> = [];
  const after = beforeId ? { id: beforeId, createdAt: 0 } : undefined;
  let next: number | null = null;
  for await (const item of auditList(db, bucket, filters, "id", { after, maxObjects: PAGE_OBJECTS })) {
    // The page has opened its share of the archive: the next page goes on from that object (its ids and below).
    if ("pausedAt" in item) next = item.pausedAt.id + 1;
    else if (items.length === pageSize) next = items.at(-1)?.id ?? null;
    else items.push(item);
    if (next !== null) break;
  }
  const entries: AuditListEntry[] = items.map((item) =>
    "gap" in item ? { id: item.id, createdAt: item.createdAt, gap: gapText(item) } : readable(item),
  );
  return { entries, next };
}

export async function listAdmins(db: Db) {
  return db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.role, "admin"))
    .orderBy(users.email);
}
