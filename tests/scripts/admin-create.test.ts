/**
 * `npm run admin:create` (scripts/admin-create.ts) as an operator runs it, on a throwaway state folder: every
 * admin it makes has a first name, since every mail greets its reader by it. Run with `npm run test:scripts`.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  applyMigrations,
  type D1Target,
  executeStatements,
  query,
  ROOT,
  sqlValue,
} from "../../scripts/lib/local-d1.ts";

const PASSWORD = "an-admin-password-1";

describe("npm run admin:create", { timeout: 240_000 }, () => {
  let folder = "";
  let target: D1Target = {};

  before(() => {
    folder = mkdtempSync(join(tmpdir(), "admin-create-test-state-"));
    applyMigrations({ persistTo: folder });
    target = { persistTo: folder };
  });

  after(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  /** The script, without a terminal (as CI or a pipe runs it: nothing is asked). */
  const adminCreate = (...args: string[]) =>
    spawnSync(process.execPath, ["scripts/admin-create.ts", ...args, "--persist-to", folder], {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });

  const profileOf = (email: string) =>
    query<{ role: string; first_name: string; last_name: string }>(
      `SELECT u.role, p.first_name, p.last_name FROM users u JOIN profiles p ON p.user_id = u.id
       WHERE u.email = ${sqlValue(email)}`,
      target,
    )[0];

  const rolesOf = (email: string) =>
    query<{ role: string }>(
      `SELECT r.role FROM admin_roles r JOIN users u ON u.id = r.user_id WHERE u.email = ${sqlValue(email)}`,
      target,
    ).map((row) => row.role);

  test("refuses a new admin without a first name, and creates nothing", () => {
    const run = adminCreate("--email", "nameless@firm.example", "--password", PASSWORD);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /A new admin needs --first-name \(every mail greets the admin by it\)\./);
    assert.deepEqual(query(`SELECT id FROM users WHERE email = 'nameless@firm.example'`, target), []);
  });

  test("creates an admin with the first name mails greet them by", () => {
    const run = adminCreate("--email", "Ops@Firm.example", "--password", PASSWORD, "--first-name", " Morgan ");
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(profileOf("ops@firm.example"), { role: "admin", first_name: "Morgan", last_name: "" });
    // The command sets up a firm's first admins: an owner, who may do everything.
    assert.deepEqual(rolesOf("ops@firm.example"), ["owner"]);
    assert.match(run.stdout, /Created admin ops@firm\.example \(owner\)/);
  });

  test("promotes a client and keeps their name; a name given replaces it", () => {
    executeStatements(
      [
        `INSERT INTO users (id, email, password_hash, role) VALUES ('00000000-0000-4000-8000-0000000000c1', 'client@firm.example', 'x', 'user')`,
        `INSERT INTO profiles (user_id, email, first_name, last_name, role) VALUES ('00000000-0000-4000-8000-0000000000c1', 'client@firm.example', 'Casey', 'Client', 'user')`,
      ],
      target,
    );
    assert.equal(adminCreate("--email", "client@firm.example").status, 0);
    assert.deepEqual(profileOf("client@firm.example"), { role: "admin", first_name: "Casey", last_name: "Client" });
    assert.deepEqual(rolesOf("client@firm.example"), ["owner"]);

    // Run again, the admin stays one owner.
    assert.equal(adminCreate("--email", "client@firm.example", "--first-name", "Cass").status, 0);
    assert.deepEqual(profileOf("client@firm.example"), { role: "admin", first_name: "Cass", last_name: "Client" });
    assert.deepEqual(rolesOf("client@firm.example"), ["owner"]);
  });

  test("refuses to promote an account without a name unless one is given", () => {
    // As an admin made before names were asked for looks.
    executeStatements(
      [
        `INSERT INTO users (id, email, password_hash, role) VALUES ('00000000-0000-4000-8000-0000000000c2', 'old@firm.example', 'x', 'admin')`,
        `INSERT INTO profiles (user_id, email, first_name, last_name, role) VALUES ('00000000-0000-4000-8000-0000000000c2', 'old@firm.example', '', '', 'admin')`,
      ],
      target,
    );
    const refused = adminCreate("--email", "old@firm.example");
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /This account has no first name: give it with --first-name/);

    assert.equal(adminCreate("--email", "old@firm.example", "--first-name", "Robin").status, 0);
    assert.deepEqual(profileOf("old@firm.example"), { role: "admin", first_name: "Robin", last_name: "" });
  });
});
