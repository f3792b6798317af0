/** The audit log's reader (/admin/audit): newest first, filtered by admin, action or client. */
import { and, desc, eq, lt, or, sql } from "drizzle-orm";
import type { Db } from "../db.server";
import { schema } from "../db.server";

const { users, auditLog } = schema;

/**
 * Paged by id alone: audit ids only grow, so "older than this id" is the keyset here, and the URL keeps its
 * plain `?before=<id>`.
 */
export async function listAudit(
  db: Db,
  filters: { actorId?: string; action?: string; client?: string; beforeId?: number },
  pageSize = 50,
) {
  const clientTargets = filters.client
    ? or(
        eq(auditLog.target, `user:${filters.client}`),
        sql`json_extract(${auditLog.detail}, '$.client') = ${filters.client}`,
      )
    : undefined;
  const rows = await db
    .select({
      id: auditLog.id,
      actorId: auditLog.actorId,
      actorEmail: users.email,
      action: auditLog.action,
      target: auditLog.target,
      detail: auditLog.detail,
      createdAt: auditLog.createdAt,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(
      and(
        filters.actorId ? eq(auditLog.actorId, filters.actorId) : undefined,
        filters.action ? eq(auditLog.action, filters.action) : undefined,
        clientTargets,
        filters.beforeId ? lt(auditLog.id, filters.beforeId) : undefined,
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(pageSize + 1);
  const page = rows.slice(0, pageSize);
  return { entries: page, next: rows.length > pageSize ? (page.at(-1)?.id ?? null) : null };
}

export async function listAdmins(db: Db) {
  return db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.role, "admin"))
    .orderBy(users.email);
}
