/**
 * Audit rows: every admin mutation writes one to the append-only `audit_log`, in the same batch as the
 * change it records. Imports nothing but drizzle, so the Node scripts (admin creation) use it as well.
 */
import { type SQL, sql } from "drizzle-orm";
import type { AUDIT_ACTIONS } from "../lib/schemas/admin";

type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * Who did it: a signed-in admin or client (id and, mostly, e-mail), or the cron or a command-line tool (id only,
 * "cron", "cli"). /admin/audit names the kind from the account's role.
 */
export interface Actor {
  id: string;
  email?: string;
}

interface AuditEntry {
  actor: Actor;
  action: AuditAction;
  /** What was acted on: "user:<id>", "wallet:<id>", "transaction:<id>", or an SQL expression for it. */
  target: string | SQL;
  /**
   * What changed. An object is stored as JSON; an SQL fragment is the rest of a `json_object(…)` call's
   * arguments, for details read from the rows of `from`. The actor's e-mail leads the detail as `by`.
   */
  detail: Record<string, unknown> | SQL;
  /** Rows the entry is written for (FROM … WHERE …); without it, exactly one row. */
  from?: SQL;
  /** A condition without rows (e.g. `changes() = 1`): the entry is written only when it holds. */
  onlyIf?: SQL;
  at?: number;
}

export function auditInsert({ actor, action, target, detail, from, onlyIf, at = Date.now() }: AuditEntry): SQL {
  const by = actor.email === undefined ? {} : { by: actor.email };
  const details =
    "getSQL" in detail
      ? actor.email === undefined
        ? sql`json_object(${detail})`
        : sql`json_object('by', ${actor.email}, ${detail})`
      : sql`${JSON.stringify({ ...by, ...detail })}`;
  return sql`INSERT INTO audit_log (actor_id, action, target, detail, created_at)
    SELECT ${actor.id}, ${action}, ${target}, ${details}, ${at}
    ${from ? sql`FROM ${from}` : sql``} ${onlyIf ? sql`WHERE ${onlyIf}` : sql``}`;
}
