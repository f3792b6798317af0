/**
 * `npm run admin:create -- --email ops@firm.com --password '…' --first-name Ada [--last-name Ops] [--remote]`
 *
 * Creates an admin account, or promotes an existing account to admin. Admins are never made through
 * the web. The password may also come from ADMIN_PASSWORD (keeps it out of shell history); it is
 * required for a new account and, for an existing one, replaces the old password when given.
 * Every mail greets its reader by first name, so an admin has one: required for a new admin (asked for when
 * run in a terminal) and for an account without one; given for an existing account, it replaces the stored one.
 * Local D1 by default; --remote for the deployed database; --persist-to for another local state folder
 * (the browser tests' throwaway database).
 *
 * The admin is an owner (who may do everything, docs/product.md "Back-office roles"): the command sets up a firm's
 * first admins, who then give others narrower roles on the team page.
 *
 * Admins must use two-factor sign-in: one who has not set it up is taken to its set-up at the first sign-in
 * and can open nothing else until it is on.
 */
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { z } from "zod";
import { auditInsert } from "../app/server/audit.server.ts";
import { hashPassword } from "../app/server/password.server.ts";
import { type D1Target, executeStatements, inlineSql, query, sqlValue } from "./lib/local-d1.ts";

const { values } = parseArgs({
  options: {
    email: { type: "string" },
    password: { type: "string" },
    "first-name": { type: "string", default: "" },
    "last-name": { type: "string", default: "" },
    remote: { type: "boolean", default: false },
    "persist-to": { type: "string" },
  },
});

const input = z
  .object({
    email: z.email("Give a valid --email").transform((email) => email.trim().toLowerCase()),
    password: z.string().min(12, "An admin password must be at least 12 characters").optional(),
    firstName: z.string().trim().max(100, "A first name is at most 100 characters"),
    lastName: z.string().trim().max(100, "A last name is at most 100 characters"),
  })
  .safeParse({
    email: values.email,
    password: values.password ?? process.env.ADMIN_PASSWORD,
    firstName: values["first-name"],
    lastName: values["last-name"],
  });

if (!input.success) {
  console.error(input.error.issues.map((issue) => issue.message).join("\n"));
  process.exit(1);
}

if (values.remote && values["persist-to"]) {
  console.error("Give either --remote or --persist-to, not both.");
  process.exit(1);
}

const { email, password, lastName } = input.data;
const target: D1Target = { remote: values.remote, persistTo: values["persist-to"] };
const [existing] = query<{ id: string; twoFactorOn: number; firstName: string | null }>(
  `SELECT id, EXISTS (SELECT 1 FROM two_factor WHERE user_id = users.id AND confirmed_at IS NOT NULL) AS twoFactorOn,
          (SELECT first_name FROM profiles WHERE user_id = users.id) AS firstName
   FROM users WHERE email = ${sqlValue(email)}`,
  target,
);

if (!existing && !password) {
  console.error("A new admin needs --password (or ADMIN_PASSWORD).");
  process.exit(1);
}

/** The first name mails greet the admin by: given, else asked for in a terminal; required unless one is stored. */
async function firstNameToUse(given: string, stored: string): Promise<string> {
  if (given || stored || !process.stdin.isTTY) return given;
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await prompt.question("First name (every mail greets the admin by it): ")).trim().slice(0, 100);
  } finally {
    prompt.close();
  }
}
const firstName = await firstNameToUse(input.data.firstName, existing?.firstName?.trim() ?? "");
if (!firstName && !existing?.firstName?.trim()) {
  console.error(
    existing
      ? "This account has no first name: give it with --first-name (every mail greets the admin by it)."
      : "A new admin needs --first-name (every mail greets the admin by it).",
  );
  process.exit(1);
}

const id = existing?.id ?? crypto.randomUUID();
const statements: string[] = [];
const passwordHash = password ? await hashPassword(password) : null;

if (existing) {
  const setPassword = passwordHash ? `, password_hash = ${sqlValue(passwordHash)}` : "";
  statements.push(`UPDATE users SET role = 'admin'${setPassword} WHERE id = ${sqlValue(id)}`);
} else {
  statements.push(
    `INSERT INTO users (id, email, password_hash, role) VALUES (${sqlValue(id)}, ${sqlValue(email)}, ${sqlValue(passwordHash)}, 'admin')`,
  );
}
statements.push(
  `INSERT INTO profiles (user_id, email, first_name, last_name, role) VALUES (${[
    id,
    email,
    firstName,
    lastName,
    "admin",
  ]
    .map(sqlValue)
    .join(
      ", ",
    )}) ON CONFLICT(user_id) DO UPDATE SET role = 'admin'${firstName ? ", first_name = excluded.first_name" : ""}${lastName ? ", last_name = excluded.last_name" : ""}`,
  // After the account is an admin: only an admin holds a back-office role.
  `INSERT INTO admin_roles (user_id, role) VALUES (${sqlValue(id)}, 'owner') ON CONFLICT (user_id, role) DO NOTHING`,
  inlineSql(
    auditInsert({
      actor: { id: "cli" },
      action: existing ? "admin.promote" : "admin.create",
      target: `user:${id}`,
      detail: { email, passwordChanged: Boolean(passwordHash) },
    }),
  ),
);

executeStatements(statements, target);
console.log(
  `${existing ? "Promoted" : "Created"} admin ${email} (owner) on the ${values.remote ? "remote" : "local"} database.`,
);
if (!existing?.twoFactorOn) {
  console.log(
    "Admins must use two-factor authentication: at the first sign-in they are taken to its set-up (an authenticator " +
      "app, at /account/two-factor) and can open nothing else until it is on.",
  );
}
