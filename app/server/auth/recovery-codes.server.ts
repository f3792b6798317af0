/**
 * Recovery codes (docs/product.md, "Account security"): 10 single-use codes, stored as SHA-256 hashes and shown
 * once; new ones replace every earlier one. Using one queues a security notice.
 */
import { encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";
import { eq } from "drizzle-orm";
import { RECOVERY_CODE_COUNT } from "~/lib/schemas/two-factor";
import { afterCommit } from "../commands.server";
import { sha256Hex } from "../crypto.server";
import { schema, writeTogether } from "../db.server";
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
