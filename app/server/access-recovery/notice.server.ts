/**
 * What every step of an access-recovery request reads of it, and the client's mail about the step, enqueued in the
 * step's own batch only when the step's statement changed the row (`done`).
 */
import { eq, type SQL, sql } from "drizzle-orm";
import { describeBrowser, describeLocation } from "~/lib/user-agent";
import type { AccessRecoveryStatus } from "../../../db/enums";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { enqueueEmailFor } from "../mail/outbox.server";
import type { ACCESS_RECOVERY_STEPS } from "../mail/templates/access-recovery.server";

const { accessRecoveryRequests: requests, users, profiles } = schema;

export interface LoadedRecoveryRequest {
  id: number;
  userId: string;
  caseId: number;
  status: AccessRecoveryStatus;
  email: string;
  firstName: string;
  userAgent: string | null;
  country: string | null;
  city: string | null;
  firstApprovedBy: string | null;
  submittedAt: number | null;
}

export function loadRecoveryRequest(db: Db, requestId: number): Promise<LoadedRecoveryRequest | undefined> {
  return db
    .select({
      id: requests.id,
      userId: requests.userId,
      caseId: requests.caseId,
      status: requests.status,
      email: users.email,
      firstName: sql<string>`coalesce(${profiles.firstName}, '')`,
      userAgent: requests.userAgent,
      country: requests.country,
      city: requests.city,
      firstApprovedBy: requests.firstApprovedBy,
      submittedAt: requests.submittedAt,
    })
    .from(requests)
    .innerJoin(users, eq(users.id, requests.userId))
    .leftJoin(profiles, eq(profiles.userId, requests.userId))
    .where(eq(requests.id, requestId))
    .get();
}

/** The client's mail about one step, sent only if `done` (an SQL condition over the batch's own writes) holds. */
export function recoveryNotice(
  loaded: LoadedRecoveryRequest,
  step: (typeof ACCESS_RECOVERY_STEPS)[number],
  at: number,
  origin: string,
  done: SQL,
  extra: { holdUntil?: number; reason?: string } = {},
) {
  return enqueueEmailFor({
    template: "access_recovery",
    to: loaded.email,
    data: {
      name: loaded.firstName,
      step,
      at,
      requestId: loaded.id,
      clientId: loaded.userId,
      browser: describeBrowser(loaded.userAgent),
      location: describeLocation(loaded),
      origin,
      ...extra,
    },
    from: sql`access_recovery_requests WHERE id = ${loaded.id} AND ${done}`,
  });
}
