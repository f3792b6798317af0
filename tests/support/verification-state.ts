import { env } from "cloudflare:workers";
import type { VerificationStatus } from "../../db/enums";

/**
 * A client's verification case put straight into D1, in the state a test needs (the client's forms and the
 * review desk are tested on their own): approved makes the client Verified.
 */
export async function setVerificationCase(
  userId: string,
  status: VerificationStatus,
  fields: { submittedAt?: number; reviewedAt?: number } = {},
): Promise<number> {
  const submittedAt = status === "draft" ? null : (fields.submittedAt ?? Date.now());
  const reviewedAt = ["approved", "rejected", "more_info_needed"].includes(status)
    ? (fields.reviewedAt ?? Date.now())
    : null;
  const row = await env.DB.prepare(
    `INSERT INTO verification_cases (user_id, status, legal_first_name, legal_last_name, date_of_birth, country,
       address, document_type, document_number, submitted_at, reviewed_at)
     VALUES (?, ?, 'Pat', 'Tester', '1990-01-01', 'GB', '1 Test Street, London', 'passport', 'P1234567', ?, ?)
     ON CONFLICT (user_id) WHERE ended_at IS NULL DO UPDATE SET status = excluded.status,
       submitted_at = excluded.submitted_at, reviewed_at = excluded.reviewed_at
     RETURNING id`,
  )
    .bind(userId, status, submittedAt, reviewedAt)
    .first<{ id: number }>();
  return row?.id ?? 0;
}

/** The client's identity approved: their level is Verified. */
export const markVerified = (userId: string) => setVerificationCase(userId, "approved");

/** A client's registration moved back in time, e.g. past the 14-day deadline. */
export async function registeredAt(userId: string, at: number) {
  await env.DB.prepare("UPDATE users SET created_at = ? WHERE id = ?").bind(at, userId).run();
}
