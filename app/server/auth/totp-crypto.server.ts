import { decodeBase64, encodeBase32UpperCaseNoPadding, encodeBase64 } from "@oslojs/encoding";
import { createTOTPKeyURI, generateHOTP } from "@oslojs/otp";

/**
 * TOTP (RFC 6238) for two-factor sign-in, its pure part: secrets, their encryption, codes. No database and no
 * extensionless imports, so the Node scripts (the demo seed, signing in from a script) use it as well; spending
 * a code is totp.server.ts.
 *
 * 30-second steps, 6 digits, SHA-1: what every authenticator app reads from an otpauth:// URI. Secrets are 20 random bytes, stored AES-GCM encrypted with TOTP_ENCRYPTION_KEY. The user id is the
 * additional authenticated data: a ciphertext copied onto another user's row does not decrypt.
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
const SECRET_BYTES = 20;
/** Steps either side of the current one that still count (clock drift between phone and server). */
const DRIFT_STEPS = 1;

const utf8 = (value: string) => new TextEncoder().encode(value);

const keys = new Map<string, Promise<CryptoKey>>();
function encryptionKey(base64Key: string): Promise<CryptoKey> {
  let key = keys.get(base64Key);
  if (!key) {
    key = crypto.subtle.importKey("raw", Uint8Array.from(decodeBase64(base64Key)), "AES-GCM", false, [
      "encrypt",
      "decrypt",
    ]);
    keys.set(base64Key, key);
  }
  return key;
}

export function newTotpSecret(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(SECRET_BYTES));
}

/** "v1:" + base64(12-byte IV) + ":" + base64(ciphertext and tag). */
export async function encryptTotpSecret(base64Key: string, userId: string, secret: Uint8Array): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: utf8(userId) },
    await encryptionKey(base64Key),
    Uint8Array.from(secret),
  );
  return `v1:${encodeBase64(iv)}:${encodeBase64(new Uint8Array(sealed))}`;
}

export async function decryptTotpSecret(base64Key: string, userId: string, stored: string): Promise<Uint8Array> {
  const [version, iv, sealed] = stored.split(":");
  if (version !== "v1" || !iv || !sealed) throw new Error("Unreadable two-factor secret");
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: Uint8Array.from(decodeBase64(iv)), additionalData: utf8(userId) },
    await encryptionKey(base64Key),
    Uint8Array.from(decodeBase64(sealed)),
  );
  return new Uint8Array(plain);
}

/** The base32 secret as people type it: groups of four. */
export function secretForManualEntry(secret: Uint8Array): string {
  return encodeBase32UpperCaseNoPadding(secret).replace(/(.{4})(?=.)/g, "$1 ");
}

/** What the QR code holds: issuer = the brand, label = the e-mail. */
export function totpUri(issuer: string, email: string, secret: Uint8Array): string {
  return createTOTPKeyURI(issuer, email, secret, TOTP_PERIOD_SECONDS, TOTP_DIGITS);
}

export const totpStepAt = (now: number) => Math.floor(now / (TOTP_PERIOD_SECONDS * 1000));

/** The code of one time step (tests and the demo seed compute codes with it too). */
export function totpCodeAt(secret: Uint8Array, now: number): string {
  return generateHOTP(secret, BigInt(totpStepAt(now)), TOTP_DIGITS);
}

/** The step among current ± 1 whose code this is, or null. Codes are compared in full, whatever the step. */
export function matchingTotpStep(secret: Uint8Array, code: string, now: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const current = totpStepAt(now);
  let found: number | null = null;
  for (let step = current - DRIFT_STEPS; step <= current + DRIFT_STEPS; step++) {
    const expected = generateHOTP(secret, BigInt(step), TOTP_DIGITS);
    if (constantTimeEqualDigits(expected, code) && found === null) found = step;
  }
  return found;
}

function constantTimeEqualDigits(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
