import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PASSKEY_MESSAGES } from "~/lib/passkeys";
import { countRows, postForm } from "../support/fixtures";
import { addPasskey, auditsOf, noticesOf, personWithPasskey, toastOf } from "../support/passkeys";
import { nextIp, passwordStep } from "../support/two-factor";

/**
 * Renaming and removing passkeys on /account (docs/product.md, "Passkeys"): each change audited and mailed; another
 * account's passkey is not found; the last way into an account, and an admin's last second factor, stay.
 */

type Person = Awaited<ReturnType<typeof personWithPasskey>>;

const rename = (person: Person, id: string, name: string) =>
  postForm("/account/passkeys", { intent: "rename", id, name }, { cookie: person.cookie });
const remove = (person: Person, id: string, fields: Record<string, string> = {}) =>
  postForm("/account/passkeys", { intent: "remove", id, ...fields }, { cookie: person.cookie });

const namesOf = async (userId: string) =>
  (
    await env.DB.prepare("SELECT name FROM passkeys WHERE user_id = ? ORDER BY created_at")
      .bind(userId)
      .all<{ name: string }>()
  ).results.map((row) => row.name);

/** Back on /account with this message. */
async function expectBack(response: Response, type: "success" | "error", description: string) {
  expect(response.status).toBe(302);
  expect(response.headers.get("Location")).toBe("/account");
  expect(await toastOf(response)).toEqual({ type, description });
}

/** The account signs in with its passkeys alone: no password, no provider. */
const dropPassword = (userId: string) =>
  env.DB.prepare("UPDATE users SET password_hash = '' WHERE id = ?").bind(userId).run();
/** An admin whose authenticator app is gone, so that passkeys are their only second factor. */
const dropAuthenticator = (userId: string) =>
  env.DB.prepare("DELETE FROM two_factor WHERE user_id = ?").bind(userId).run();

describe("renaming a passkey", () => {
  it("renames it, audits from what to what, and mails one notice", async () => {
    const client = await personWithPasskey();
    const response = await rename(client, client.authenticator.credentialId, "  Work laptop ");

    await expectBack(response, "success", PASSKEY_MESSAGES.renamed);
    expect(await namesOf(client.id)).toEqual(["Work laptop"]);
    const audit = await env.DB.prepare("SELECT detail FROM audit_log WHERE target = ? AND action = 'passkey.rename'")
      .bind(`user:${client.id}`)
      .first<{ detail: string }>();
    expect(JSON.parse(audit?.detail ?? "null")).toMatchObject({ from: "Chrome on macOS", to: "Work laptop" });
    expect(await noticesOf(client.email, "passkey_renamed")).toBe(1);
  });

  it("refuses an empty or long name, changing nothing", async () => {
    const client = await personWithPasskey();
    await expectBack(
      await rename(client, client.authenticator.credentialId, "  "),
      "error",
      PASSKEY_MESSAGES.nameRequired,
    );
    const long = await rename(client, client.authenticator.credentialId, "x".repeat(65));
    await expectBack(long, "error", PASSKEY_MESSAGES.nameTooLong);
    expect(await namesOf(client.id)).toEqual(["Chrome on macOS"]);
    expect(await auditsOf(client.id, "passkey.rename")).toBe(0);
    expect(await noticesOf(client.email, "passkey_renamed")).toBe(0);
  });

  it("does not find another account's passkey, and changes nothing", async () => {
    const client = await personWithPasskey();
    const other = await personWithPasskey();
    const response = await rename(client, other.authenticator.credentialId, "Mine now");

    await expectBack(response, "error", PASSKEY_MESSAGES.notFound);
    expect(await namesOf(other.id)).toEqual(["Chrome on macOS"]);
    expect([await auditsOf(client.id, "passkey.rename"), await auditsOf(other.id, "passkey.rename")]).toEqual([0, 0]);
    expect([await noticesOf(client.email, "passkey_renamed"), await noticesOf(other.email, "passkey_renamed")]).toEqual(
      [0, 0],
    );
  });
});

describe("removing a passkey", () => {
  it("removes one of two, audits it and mails one notice naming it", async () => {
    const client = await personWithPasskey();
    await addPasskey(client.cookie, { name: "Phone" });
    const response = await remove(client, client.authenticator.credentialId);

    await expectBack(response, "success", PASSKEY_MESSAGES.removed);
    expect(await namesOf(client.id)).toEqual(["Phone"]);
    expect(await auditsOf(client.id, "passkey.remove")).toBe(1);
    const notice = await env.DB.prepare(
      "SELECT payload FROM email_outbox WHERE to_address = ? AND json_extract(payload, '$.event') = 'passkey_removed'",
    )
      .bind(client.email)
      .all<{ payload: string }>();
    expect(notice.results.map((row) => JSON.parse(row.payload).passkey)).toEqual(["Chrome on macOS"]);
    // Another passkey stays: two-factor sign-in is still on, and no notice says otherwise.
    expect(await noticesOf(client.email, "two_factor_off")).toBe(0);
  });

  it("removes the only passkey of an account that keeps its password once told it turns two-factor off", async () => {
    const client = await personWithPasskey();
    const id = client.authenticator.credentialId;
    // Unconfirmed (a form without the dialog's answer): refused, saying what it would do.
    await expectBack(await remove(client, id), "error", PASSKEY_MESSAGES.lastSecondFactor);
    expect(await namesOf(client.id)).toEqual(["Chrome on macOS"]);
    expect(await countRows("recovery_codes", "user_id = ?", client.id)).toBe(10);

    await expectBack(await remove(client, id, { turnsOff: "confirmed" }), "success", PASSKEY_MESSAGES.removedLast);
    expect(await namesOf(client.id)).toEqual([]);
    // Two-factor sign-in is off: the codes that stood in for the passkey went with it, and the password signs in.
    expect(await countRows("recovery_codes", "user_id = ?", client.id)).toBe(0);
    // The owner is told both: the passkey went, and with it two-factor sign-in.
    expect(await noticesOf(client.email, "passkey_removed")).toBe(1);
    expect(await noticesOf(client.email, "two_factor_off")).toBe(1);
    const signIn = await passwordStep(client.email, undefined, { ip: nextIp() });
    expect(signIn.headers.get("Location")).toBe("/dashboard");
  });

  it("does not find another account's passkey, and changes nothing", async () => {
    const client = await personWithPasskey();
    const other = await personWithPasskey();
    await expectBack(await remove(client, other.authenticator.credentialId), "error", PASSKEY_MESSAGES.notFound);
    expect(await namesOf(other.id)).toEqual(["Chrome on macOS"]);
    expect([await auditsOf(client.id, "passkey.remove"), await auditsOf(other.id, "passkey.remove")]).toEqual([0, 0]);
    expect(await noticesOf(other.email, "passkey_removed")).toBe(0);
  });

  it("keeps the last way into an account without a password or a provider", async () => {
    const client = await personWithPasskey();
    await dropPassword(client.id);
    await expectBack(await remove(client, client.authenticator.credentialId), "error", PASSKEY_MESSAGES.lastWayIn);
    expect(await namesOf(client.id)).toEqual(["Chrome on macOS"]);
    expect(await auditsOf(client.id, "passkey.remove")).toBe(0);
    expect(await noticesOf(client.email, "passkey_removed")).toBe(0);
  });

  it("keeps an admin's last second factor, and lets one of two go", async () => {
    const admin = await personWithPasskey({ role: "admin" });
    await dropAuthenticator(admin.id);
    const refused = await remove(admin, admin.authenticator.credentialId);
    await expectBack(refused, "error", PASSKEY_MESSAGES.adminNeedsSecondFactor);
    expect(await countRows("passkeys", "user_id = ?", admin.id)).toBe(1);

    const second = await addPasskey(admin.cookie);
    await expectBack(await remove(admin, second.credentialId), "success", PASSKEY_MESSAGES.removed);
    expect(await namesOf(admin.id)).toEqual(["Chrome on macOS"]);
  });

  it("lets an admin with an authenticator app remove their last passkey", async () => {
    const admin = await personWithPasskey({ role: "admin" });
    await expectBack(await remove(admin, admin.authenticator.credentialId), "success", PASSKEY_MESSAGES.removed);
    expect(await countRows("passkeys", "user_id = ?", admin.id)).toBe(0);
  });
});

describe("removing the last two passkeys at once", () => {
  /** Both removals sent together: one goes, the other is refused with `message`, and one passkey stays. */
  async function expectOneKept(person: Person, message: string) {
    const second = await addPasskey(person.cookie, { name: "Phone" });
    const answers = await Promise.all([
      remove(person, person.authenticator.credentialId),
      remove(person, second.credentialId),
    ]);
    const toasts = await Promise.all(answers.map(toastOf));
    expect(toasts.map((toast) => toast?.description).sort()).toEqual([message, PASSKEY_MESSAGES.removed].sort());
    expect(await countRows("passkeys", "user_id = ?", person.id)).toBe(1);
    expect(await auditsOf(person.id, "passkey.remove")).toBe(1);
    expect(await noticesOf(person.email, "passkey_removed")).toBe(1);
  }

  it("keeps one when they are the account's only way in", async () => {
    const client = await personWithPasskey();
    await dropPassword(client.id);
    await expectOneKept(client, PASSKEY_MESSAGES.lastWayIn);
  });

  it("keeps one when they are an admin's only second factor", async () => {
    const admin = await personWithPasskey({ role: "admin" });
    await dropAuthenticator(admin.id);
    await expectOneKept(admin, PASSKEY_MESSAGES.adminNeedsSecondFactor);
  });
});
