import { and, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { decryptTotpSecret, matchingTotpStep } from "./totp-crypto.server";

export {
  decryptTotpSecret,
  encryptTotpSecret,
  matchingTotpStep,
  newTotpSecret,
  secretForManualEntry,
  TOTP_DIGITS,
  TOTP_PERIOD_SECONDS,
  totpCodeAt,
  totpStepAt,
  totpUri,
} from "./totp-crypto.server";

/**
 * The database side of TOTP: a code is accepted for the current step and one step either side, and a step is
 * accepted once: the newest accepted step is stored and only later steps pass, in one conditional UPDATE, so
 * two requests racing with one code cannot both win. Secrets, their encryption and codes: totp-crypto.server.ts.
 */
const { twoFactor } = schema;

/**
 * Checks a code against the user's authenticator and spends its step. `confirmed` says whether the
 * enrolment must already be confirmed (sign-in, step-up) or must not be yet (confirming enrolment).
 * True only for the first use of a valid code.
 */
export async function consumeTotpCode(
  db: Db,
  encryptionKeyBase64: string,
  userId: string,
  code: string,
  { now = Date.now(), confirmed = true }: { now?: number; confirmed?: boolean } = {},
): Promise<boolean> {
  const row = await db
    .select({ secretEncrypted: twoFactor.secretEncrypted })
    .from(twoFactor)
    .where(
      and(eq(twoFactor.userId, userId), confirmed ? isNotNull(twoFactor.confirmedAt) : isNull(twoFactor.confirmedAt)),
    )
    .get();
  if (!row) return false;
  const secret = await decryptTotpSecret(encryptionKeyBase64, userId, row.secretEncrypted);
  const step = matchingTotpStep(secret, code.replace(/\s/g, ""), now);
  if (step === null) return false;
  const spent = await db
    .update(twoFactor)
    .set({ lastUsedStep: step })
    .where(
      and(
        eq(twoFactor.userId, userId),
        or(isNull(twoFactor.lastUsedStep), lt(twoFactor.lastUsedStep, step)),
        // The secret checked is still the one stored (not replaced by a new enrolment meanwhile).
        eq(twoFactor.secretEncrypted, row.secretEncrypted),
      ),
    )
    .returning({ userId: twoFactor.userId });
  return spent.length === 1;
}
