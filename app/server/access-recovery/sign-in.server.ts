/**
 * A sign-in that proves a second factor ends the account's access-recovery request in progress: whoever holds a
 * factor needs no recovery, and a request sent meanwhile was most likely not the owner's (docs/product.md, "Access
 * recovery"). Read before the sign-in's batch, written in it.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { LIVE_ACCESS_RECOVERY_STATUSES } from "../../../db/enums";
import { auditInsert } from "../audit.server";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { type LoadedRecoveryRequest, loadRecoveryRequest, recoveryNotice } from "./notice.server";

const { accessRecoveryRequests: requests } = schema;

/** The account's request in progress, if any. */
export async function liveRecoveryRequest(db: Db, userId: string): Promise<LoadedRecoveryRequest | undefined> {
  const live = await db
    .select({ id: requests.id })
    .from(requests)
    .where(and(eq(requests.userId, userId), inArray(requests.status, [...LIVE_ACCESS_RECOVERY_STATUSES])))
    .get();
  return live ? loadRecoveryRequest(db, live.id) : undefined;
}

/** The statements that end it in the sign-in's batch: the request cancelled, its audit row, the owner's mail. */
export function recoveryEndedBySignIn(live: LoadedRecoveryRequest, origin: string, now: number) {
  const ended = sql`status = 'cancelled' AND decided_at = ${now} AND decided_by IS NULL`;
  return {
    recoveryEnded: sql`UPDATE access_recovery_requests SET status = 'cancelled', decided_at = ${now}
                       WHERE id = ${live.id} AND status IN ('open', 'submitted', 'first_approved')`,
    recoveryAudit: auditInsert({
      actor: { id: live.userId, email: live.email },
      action: "access_recovery.cancel",
      target: `user:${live.userId}`,
      detail: { request: live.id, before: live.status, by: "sign-in with a second factor" },
      onlyIf: sql`changes() = 1`,
      at: now,
    }),
    recoveryNotice: recoveryNotice(live, "cancelled_by_sign_in", now, origin, ended),
  };
}
