import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/**
 * Password hashing with scrypt (docs/product.md, "Accounts and sessions"). The parameters are stored in each hash, so hashes made with
 * other settings (the cheaper ones tests use) still verify. Plain node:crypto: runs in workerd
 * (nodejs_compat) and in the Node scripts that create accounts.
 */
interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

export const PRODUCTION_SCRYPT_COST: ScryptCost = { N: 2 ** 15, r: 8, p: 3 };
/** Only for tests (PASSWORD_HASH_COST=fast, refused in production): same format, far cheaper. */
export const FAST_SCRYPT_COST: ScryptCost = { N: 2 ** 10, r: 8, p: 1 };

export function scryptCostFor(env: { PASSWORD_HASH_COST: "standard" | "fast" }): ScryptCost {
  return env.PASSWORD_HASH_COST === "fast" ? FAST_SCRYPT_COST : PRODUCTION_SCRYPT_COST;
}
const KEY_LENGTH = 64;
// N=2^15, r=8 needs 32 MiB of working memory; Node's default ceiling is exactly that and throws.
const MAX_MEMORY = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { ...cost, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string, cost: ScryptCost = PRODUCTION_SCRYPT_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64"), key.toString("base64")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltB64, keyB64] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !saltB64 || !keyB64) return false;
  const expected = Buffer.from(keyB64, "base64");
  const actual = await derive(password, Buffer.from(saltB64, "base64"), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
