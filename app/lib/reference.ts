/**
 * A transaction's reference, the short id people read out and search by: "TX-" and six characters of
 * Crockford's base32 (no I, L, O or U to misread). It is the row's id put through a fixed bijection on 30 bits
 * (multiply by an odd constant, then XOR), so it is stable, unique, needs no column, and consecutive requests
 * do not read as a count. Ids up to 2^30 (about a billion rows) have one; a reference decodes back to its id.
 */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const BITS = 30;
const MASK = (1 << BITS) - 1;
/** Odd, so it has an inverse modulo 2^30; the inverse is computed once below and checked by a test. */
const MULTIPLIER = 0x2d4f_3a5b & MASK;
const SCRAMBLE = 0x15a3_c96e & MASK;

/** The product modulo 2^30 (only the low bits of a product depend on the low bits of its factors). */
const mulMod = (a: number, b: number) => Math.imul(a, b) & MASK;

/** Newton's iteration for the inverse of an odd number modulo 2^30: each step doubles the correct bits. */
function inverseOf(odd: number): number {
  let inverse = odd;
  for (let i = 0; i < 5; i++) inverse = mulMod(inverse, (2 - mulMod(odd, inverse)) & MASK);
  return inverse;
}
const INVERSE = inverseOf(MULTIPLIER);

export const REFERENCE_PATTERN = /^TX-[0-9A-HJKMNP-TV-Z]{6}$/;

export function transactionReference(id: number): string {
  if (!Number.isSafeInteger(id) || id < 1 || id > MASK) throw new RangeError(`no reference for transaction ${id}`);
  let value = mulMod(id, MULTIPLIER) ^ SCRAMBLE;
  let code = "";
  for (let i = 0; i < 6; i++) {
    code = ALPHABET[value & 31] + code;
    value >>>= 5;
  }
  return `TX-${code}`;
}

/**
 * The id a reference stands for, or null for anything that is not one. Lenient as Crockford intends: case,
 * a missing "TX-", spaces, and O/I/L typed for 0/1/1 are accepted.
 */
export function idOfReference(input: string): number | null {
  const cleaned = input
    .trim()
    .toUpperCase()
    .replace(/^TX-?/, "")
    .replace(/[\s-]/g, "")
    .replace(/O/g, "0")
    .replace(/[IL]/g, "1");
  if (!/^[0-9A-HJKMNP-TV-Z]{6}$/.test(cleaned)) return null;
  let value = 0;
  for (const char of cleaned) value = (value << 5) | ALPHABET.indexOf(char);
  const id = mulMod((value ^ SCRAMBLE) & MASK, INVERSE);
  return id >= 1 ? id : null;
}
