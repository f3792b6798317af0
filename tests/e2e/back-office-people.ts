/** People the back-office browser tests make straight in the database: a client with requests, an operator. */
import { decodeBase32, encodeBase32UpperCaseNoPadding } from "@oslojs/encoding";
import { encryptTotpSecret } from "../../app/server/auth/totp-crypto.server";
import { hashPassword } from "../../app/server/password.server";
import { devVar, ensureDevVars, executeStatements, sqlValue } from "../../scripts/lib/local-d1";
import { e2eDatabase, whileBusy } from "./database";
import { unique } from "./support";

/** The seed's support admin (scripts/lib/demo-people.ts): reads clients, moves no money. */
export const SUPPORT = {
  email: "support@example.com",
  password: "demo-support-2026",
  totpSecret: "DEMOSUPPORTADMINTOTPKEYNORTHWIND",
};

/** A client straight in the database with approved money, a pending deposit and a pending withdrawal. */
export async function clientWithRequests(): Promise<string> {
  const id = crypto.randomUUID();
  const email = `roles-${unique()}@example.com`;
  const now = Date.now();
  await whileBusy(() =>
    executeStatements(
      [
        `INSERT INTO users (id, email, password_hash, role) VALUES (${sqlValue(id)}, ${sqlValue(email)}, 'x', 'user')`,
        `INSERT INTO profiles (user_id, email, first_name, last_name, role) VALUES (${sqlValue(id)}, ${sqlValue(email)}, 'Rowan', 'Roles', 'user')`,
        `INSERT INTO transactions (user_id, transaction_type, amount_cents, status, created_at) VALUES
           (${sqlValue(id)}, 'deposit', 100000, 'approved', ${now - 3_000}),
           (${sqlValue(id)}, 'deposit', 5000, 'pending', ${now - 2_000}),
           (${sqlValue(id)}, 'withdraw', 2500, 'pending', ${now - 1_000})`,
        // The profile's projection of the balance, as the decisions' batches keep it.
        `UPDATE profiles SET balance_cents = 100000 WHERE user_id = ${sqlValue(id)}`,
      ],
      e2eDatabase,
    ),
  );
  return id;
}

/** An operator, enrolled in two-factor sign-in with a key of its own, made straight in the database. */
export const operator = () => adminWithRole("operator", "Oli", "Operator");

/** A compliance officer, made the same way. */
export const complianceOfficer = () => adminWithRole("compliance", "Cam", "Compliance");

/** A new login with a password and an authenticator key of its own, its key sealed as an enrolment seals it. */
async function personWithTwoFactor(prefix: string) {
  ensureDevVars();
  const id = crypto.randomUUID();
  const person = {
    id,
    email: `${prefix}-${unique()}@example.com`,
    password: `${prefix}-password-1`,
    // 20 random bytes as base32, as an authenticator takes them.
    totpSecret: encodeBase32UpperCaseNoPadding(crypto.getRandomValues(new Uint8Array(20))),
  };
  const sealed = await encryptTotpSecret(devVar("TOTP_ENCRYPTION_KEY") ?? "", id, decodeBase32(person.totpSecret));
  const hash = await hashPassword(person.password);
  return { person, sealed, hash };
}

/** An admin holding one back-office role, enrolled in two-factor sign-in with a key of its own. */
async function adminWithRole(role: "operator" | "compliance", firstName: string, lastName: string) {
  const { person, sealed, hash } = await personWithTwoFactor(role);
  const id = sqlValue(person.id);
  await whileBusy(() =>
    executeStatements(
      [
        `INSERT INTO users (id, email, password_hash, role, email_confirmed_at) VALUES (${id}, ${sqlValue(person.email)}, ${sqlValue(hash)}, 'admin', ${Date.now()})`,
        `INSERT INTO profiles (user_id, email, first_name, last_name, role) VALUES (${id}, ${sqlValue(person.email)}, ${sqlValue(firstName)}, ${sqlValue(lastName)}, 'admin')`,
        `INSERT INTO admin_roles (user_id, role) VALUES (${id}, ${sqlValue(role)})`,
        `INSERT INTO two_factor (user_id, secret_encrypted, confirmed_at) VALUES (${id}, ${sqlValue(sealed)}, ${Date.now()})`,
      ],
      e2eDatabase,
    ),
  );
  return person;
}

/**
 * A verified client with $500 and two-factor sign-in on (a key of its own), made straight in the database: one
 * who may withdraw, and is asked for a code to.
 */
export async function clientWithTwoFactor() {
  const { person, sealed, hash } = await personWithTwoFactor("client");
  const id = sqlValue(person.id);
  const now = Date.now();
  await whileBusy(() =>
    executeStatements(
      [
        `INSERT INTO users (id, email, password_hash, role, email_confirmed_at) VALUES (${id}, ${sqlValue(person.email)}, ${sqlValue(hash)}, 'user', ${now})`,
        `INSERT INTO profiles (user_id, email, first_name, last_name, role, balance_cents) VALUES (${id}, ${sqlValue(person.email)}, 'Tess', 'Twofactor', 'user', 50000)`,
        `INSERT INTO two_factor (user_id, secret_encrypted, confirmed_at) VALUES (${id}, ${sqlValue(sealed)}, ${now})`,
        `INSERT INTO transactions (user_id, transaction_type, amount_cents, status, created_at) VALUES (${id}, 'deposit', 50000, 'approved', ${now})`,
        `INSERT INTO verification_cases (user_id, status, submitted_at, reviewed_at) VALUES (${id}, 'approved', ${now}, ${now})`,
      ],
      e2eDatabase,
    ),
  );
  return person;
}
