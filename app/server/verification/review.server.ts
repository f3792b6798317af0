/**
 * The review's decisions on a submitted identity verification (docs/product.md, "Identity verification"):
 * approve (the client becomes Verified), reject (with the reason the client reads), or ask for more information
 * (which document, and what is needed). Each decision is one atomic batch: the case's update, its audit row and
 * the client's mail. A case is decided once per submission: the update matches only the live case still
 * 'submitted' at the submission time the reviewer's page showed, so a second decision (another admin's, or one
 * from a page older than the client's latest submission) changes nothing and is refused.
 */
import { eq, sql } from "drizzle-orm";
import { requiredDocumentKinds } from "~/lib/verification";
import { DECISION_STATUS, type DecisionInput, REVIEW_MESSAGES } from "~/lib/verification-review";
import { type Actor, auditInsert } from "../audit.server";
import { afterCommit, type CommandContext, type Outcome } from "../commands.server";
import type { Db } from "../db.server";
import { returning, schema, writeTogether } from "../db.server";
import { enqueueEmailFor } from "../mail/outbox.server";
import { assertMay, type BackOfficeActor } from "../permissions.server";

const { verificationCases: cases, profiles } = schema;

const DECISION_ACTIONS = {
  approve: "verification.approve",
  reject: "verification.reject",
  request_info: "verification.request_info",
} as const;

/** An outcome whose refusal may name the field it is about. */
type Refusable<T extends object = object> = Outcome<T> | { ok: false; error: string; status: number; field?: string };

/** The decision's batch; refused with the message to show when the case is not this submission's any more. */
export async function decideVerificationCase(
  db: Db,
  actor: Required<Actor>,
  caseId: number,
  input: DecisionInput,
  verificationUrl: string,
  now = Date.now(),
): Promise<Refusable<{ userId: string; emailIds: number[] }>> {
  const status = DECISION_STATUS[input.decision];
  const client = await db
    .select({ userId: cases.userId, firstName: profiles.firstName, documentType: cases.documentType })
    .from(cases)
    .leftJoin(profiles, eq(profiles.userId, cases.userId))
    .where(eq(cases.id, caseId))
    .get();
  if (!client) return { ok: false, error: REVIEW_MESSAGES.notFound, status: 404 };
  // Only a document the case has can be asked for again (a passport has no back).
  if (
    input.documentKind &&
    !(client.documentType && requiredDocumentKinds(client.documentType).includes(input.documentKind))
  ) {
    return { ok: false, error: REVIEW_MESSAGES.documentRequired, status: 400, field: "documentKind" };
  }
  // The rows this decision wrote, and only those: a decision that lost the race matches nothing.
  const decidedHere = sql`verification_cases.id = ${caseId} AND verification_cases.status = ${status}
    AND verification_cases.reviewed_by = ${actor.id} AND verification_cases.reviewed_at = ${now}`;
  const { decided, notice } = await writeTogether(db, {
    decided: returning<{ id: number }>(
      sql`UPDATE verification_cases SET status = ${status}, reviewed_by = ${actor.id}, reviewed_at = ${now},
            review_note = ${input.note}, review_document_kind = ${input.documentKind}, updated_at = ${now}
          WHERE id = ${caseId} AND status = 'submitted' AND submitted_at = ${input.submittedAt}
            AND ended_at IS NULL
          RETURNING id`,
    ),
    // One decision per submission, so one audit row: a replay at the same instant adds nothing.
    audit: auditInsert({
      actor,
      action: DECISION_ACTIONS[input.decision],
      target: sql`'verification:' || verification_cases.id`,
      detail: sql`'client', verification_cases.user_id, 'before', 'submitted', 'after', verification_cases.status,
        'submittedAt', verification_cases.submitted_at, 'document', verification_cases.review_document_kind,
        'reason', verification_cases.review_note`,
      from: sql`verification_cases WHERE ${decidedHere}
        AND NOT EXISTS (SELECT 1 FROM audit_log a WHERE a.target = 'verification:' || verification_cases.id
                        AND a.action LIKE 'verification.%' AND a.action <> 'verification.document_view'
                        AND json_extract(a.detail, '$.submittedAt') = verification_cases.submitted_at)`,
      at: now,
    }),
    notice: enqueueEmailFor({
      template: "verification_decided",
      data: {
        name: client.firstName?.trim() ?? "",
        decision: status,
        ...(input.note ? { note: input.note } : {}),
        ...(input.documentKind ? { documentKind: input.documentKind } : {}),
        url: verificationUrl,
      },
      to: sql`users.email`,
      from: sql`verification_cases JOIN users ON users.id = verification_cases.user_id WHERE ${decidedHere}`,
      dedupeKey: sql`${`verification_decided:case:${caseId}:${input.submittedAt}`}`,
    }),
  });
  if (decided.length === 1) {
    return { ok: true, userId: client.userId, emailIds: (notice as Array<{ id: number }>).map((n) => n.id) };
  }
  return { ok: false, error: REVIEW_MESSAGES.alreadyDecided, status: 409 };
}

/** The reviewer's decision, then the client's mail goes out and the client's pages and the desk hear of it. */
export async function decideVerification(
  context: CommandContext & { origin: string },
  actor: BackOfficeActor,
  caseId: number,
  input: DecisionInput,
): Promise<Refusable> {
  const allowed = assertMay(actor, "reviewVerifications");
  if (!allowed.ok) return allowed;
  const result = await decideVerificationCase(
    context.db,
    actor,
    caseId,
    input,
    `${context.origin}/account/verification`,
  );
  if (!result.ok) return result;
  afterCommit(context, {
    emailIds: result.emailIds,
    events: [{ userId: result.userId, event: { type: "verification.changed", userId: result.userId } }],
  });
  return { ok: true };
}
