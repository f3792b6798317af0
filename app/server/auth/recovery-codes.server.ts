/**
 * Recovery codes (docs/product.md, "Account security"): 10 single-use codes, stored as SHA-256 hashes and shown
 * once; new ones replace every earlier one. Using one queues a security notice.
 */
import { encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";
import { eq, sql } from "drizzle-orm";
import { RECOVERY_CODE_COUNT } from "~/lib/schemas/two-factor";
import { afterCommit } from "../commands.server";
import { sha256Hex } from "../crypto.server";
import { returning, schema, writeTogether } from "../db.server";
import type { SessionUser } from "../session.server";
import { clientMeta } from "./client-meta.server";
import {
  freshSecondFactor,
  normalizeRecoveryCode,
  outboxIds,
  proveOwner,
  type Refusal,
  type TwoFactorContext,
} from "./second-factor-proof.server";
import { securityNotice } from "./security-notice.server";

const { recoveryCodes } = schema;

/** A recovery code as shown: 10 base32 characters (50 random bits) in two groups, "k7x2m-q9fta". */
function newRecoveryCode(): string {
  const characters = encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(7))).slice(0, 10);
  return `${characters.slice(0, 5)}-${characters.slice(5)}`;
}
export async function newRecoveryCodes(userId: string, now: number) {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const rows = await Promise.all(
    codes.map(async (code) => ({ userId, codeHash: await sha256Hex(normalizeRecoveryCode(code)), createdAt: now })),
  );
  return { codes, rows };
}
/**
 * The recovery codes an account's first second factor brings when it is a passkey (the app's set-up makes its own
 * in `confirmEnrolment`): written, replacing any left over, only while the account holds no other second factor, so
 * two first passkeys added at once cannot leave the person holding codes a later batch replaced. `codes` returns
 * the rows written: none means the passkey was not the first, and no codes are shown.
 */
export function firstPasskeyRecoveryCodes(
  userId: string,
  passkeyId: string,
  rows: Awaited<ReturnType<typeof newRecoveryCodes>>["rows"],
) {
  const onlyThisPasskey = sql`NOT EXISTS (SELECT 1 FROM passkeys WHERE user_id = ${userId} AND id <> ${passkeyId})
    AND NOT EXISTS (SELECT 1 FROM two_factor WHERE user_id = ${userId} AND confirmed_at IS NOT NULL)`;
  const values = sql.join(
    rows.map((row) => sql`(${row.codeHash}, ${row.createdAt})`),
    sql`, `,
  );
  return {
    earlierCodes: sql`DELETE FROM recovery_codes WHERE user_id = ${userId} AND ${onlyThisPasskey}`,
    codes: returning<{ id: number }>(
      sql`INSERT INTO recovery_codes (user_id, code_hash, created_at)
          SELECT ${userId}, column1, column2 FROM (VALUES ${values}) WHERE ${onlyThisPasskey}
          RETURNING id`,
    ),
  };
}
/** The recovery_code_used notice, when the proof was a recovery code. */
export function recoveryNotice(
  context: TwoFactorContext,
  request: Request,
  user: SessionUser,
  used: boolean,
  now: number,
) {
  return used
    ? securityNotice(context.db, {
        to: user.email,
        name: user.firstName,
        event: "recovery_code_used",
        meta: clientMeta(request, context.cf),
        at: now,
      })
    : undefined;
}
/** New recovery codes (returned, to be shown once); the earlier ones, used or not, stop working. */
export async function regenerateRecoveryCodes(
  context: TwoFactorContext,
  request: Request,
  user: SessionUser,
  input: { currentPassword: string; code: string },
  now = Date.now(),
): Promise<{ ok: true; recoveryCodes: string[] } | Refusal> {
  const proof = await proveOwner(context, user, input, now);
  if (!proof.ok) return proof;
  const { db } = context;
  const fresh = await newRecoveryCodes(user.id, now);
  const written = await writeTogether(db, {
    earlierCodes: db.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id)),
    codes: db.insert(recoveryCodes).values(fresh.rows),
    // Only the authenticator's code makes the session fresh; a recovery code leaves it as it was.
    thisSession: proof.recoveryCodeUsed ? undefined : freshSecondFactor(db, user.sessionId, now),
    recoveryNotice: recoveryNotice(context, request, user, proof.recoveryCodeUsed, now),
  });
  afterCommit(context, { emailIds: outboxIds(written.recoveryNotice) });
  return { ok: true, recoveryCodes: fresh.codes };
}
