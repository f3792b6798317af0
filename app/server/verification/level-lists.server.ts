/**
 * A client's verification level in SQL, for the back office's lists (User Management's filter, the desk's waiting
 * list) where it must be read or filtered for many clients in one statement. The rule itself is
 * `verificationLevel` in app/lib/verification.ts; this is the same rule over columns, and a test holds the two
 * together (tests/worker/verification-levels.test.ts).
 */
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { VERIFICATION_DEADLINE_DAYS, type VerificationLevel, verificationLevel } from "~/lib/verification";
import type { VerificationStatus } from "../../../db/enums";

const DEADLINE_MS = VERIFICATION_DEADLINE_DAYS * 24 * 60 * 60 * 1000;

/** The status of the client's live case (null without one): at most one, by the live-case unique index. */
export const liveCaseStatusSql = (userId: SQLWrapper | string): SQL<VerificationStatus | null> =>
  sql`(SELECT vc.status FROM verification_cases vc WHERE vc.user_id = ${userId} AND vc.ended_at IS NULL)`;

/** `verificationDueAt` over a registration time column. */
const dueAtSql = (createdAt: SQLWrapper, introducedAt: number) =>
  sql`(max(${createdAt}, ${introducedAt}) + ${DEADLINE_MS})`;

const approvedSql = (userId: SQLWrapper | string) =>
  sql`EXISTS (SELECT 1 FROM verification_cases vc WHERE vc.user_id = ${userId} AND vc.ended_at IS NULL
              AND vc.status = 'approved')`;

/**
 * The condition that a client (id and registration time columns) is at `level` at `now`, verification having
 * begun at `introducedAt` (the VERIFICATION_INTRODUCED_AT setting).
 */
export function levelConditionSql(
  level: VerificationLevel,
  user: { id: SQLWrapper; createdAt: SQLWrapper },
  now: number,
  introducedAt: number,
): SQL {
  if (level === "verified") return approvedSql(user.id);
  const pastDeadline = level === "restricted" ? sql`>=` : sql`<`;
  return sql`(NOT ${approvedSql(user.id)} AND ${now} ${pastDeadline} ${dueAtSql(user.createdAt, introducedAt)})`;
}

/** The level of a row read with its live case's status and registration time. */
export const levelOf = (
  row: { caseStatus: VerificationStatus | null; createdAt: number },
  now: number,
  introducedAt: number,
) => verificationLevel(row.caseStatus, row.createdAt, now, introducedAt);
