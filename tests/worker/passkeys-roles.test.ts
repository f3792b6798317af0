import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PASSKEY_MESSAGES } from "~/lib/passkeys";
import { BACK_OFFICE_ROLES, type BackOfficeRole } from "~/lib/permissions";
import { countRows, createUser, postForm, sessionCookieFor, totpCode } from "../support/fixtures";
import { addPasskey, personWithPasskey, postJson, refusedWith, toastOf, verifyWithPasskey } from "../support/passkeys";

/**
 * Passkeys belong to the account, whatever its role (docs/product.md, "Passkeys"): every back-office role and a
 * client add one with their own proof, rename it, and prove a step-up with it, and none of them reaches another
 * account's passkey. A visitor and a session that has ended get nothing and change nothing.
 */
type Who = BackOfficeRole | "client";
const PEOPLE: Who[] = [...BACK_OFFICE_ROLES, "client"];

const nameOf = async (id: string) =>
  (await env.DB.prepare("SELECT name FROM passkeys WHERE id = ?").bind(id).first<{ name: string }>())?.name;

describe.each(PEOPLE)("as %s", (who) => {
  it("adds, renames and proves a step-up with their own passkey, and cannot rename or remove another's", async () => {
    const person = await createUser(who === "client" ? {} : { role: "admin", roles: [who] });
    const cookie = await sessionCookieFor(person.id);
    // With two-factor on (every admin), the proof is a fresh code; a client without it gives the password.
    const authenticator = await addPasskey(cookie, {
      proof: person.totpSecret ? { code: totpCode(person.totpSecret) } : undefined,
    });

    const renamed = await postForm(
      "/account/passkeys",
      { intent: "rename", id: authenticator.credentialId, name: `${who}'s key` },
      { cookie },
    );
    expect((await toastOf(renamed))?.type).toBe("success");
    expect(await nameOf(authenticator.credentialId)).toBe(`${who}'s key`);

    const stepUp = await verifyWithPasskey(authenticator, cookie);
    expect(stepUp.status).toBe(200);
    expect(await stepUp.json()).toEqual({ verified: true });

    const other = await personWithPasskey();
    const otherName = await nameOf(other.authenticator.credentialId);
    for (const fields of <Record<string, string>[]>[
      { intent: "rename", id: other.authenticator.credentialId, name: "taken over" },
      { intent: "remove", id: other.authenticator.credentialId },
    ]) {
      const refused = await postForm("/account/passkeys", fields, { cookie });
      expect(await toastOf(refused)).toEqual({ type: "error", description: PASSKEY_MESSAGES.notFound });
    }
    expect(await nameOf(other.authenticator.credentialId)).toBe(otherName);
  });
});

describe("without a session", () => {
  async function endedSession() {
    const person = await personWithPasskey();
    const signedOut = await postForm("/logout", {}, { cookie: person.cookie });
    expect(signedOut.status).toBe(302);
    return person;
  }

  it.each(["visitor", "ended session"])("a %s adds, renames and removes nothing", async (who) => {
    const person = await endedSession();
    const cookie = who === "visitor" ? undefined : person.cookie;
    const challenges = await countRows("webauthn_challenges");

    const adding = await postJson("/account/passkeys", { intent: "options", currentPassword: "x" }, { cookie });
    expect(adding.status).toBe(302);
    expect(adding.headers.get("Location")).toMatch(/^\/login/);
    for (const fields of <Record<string, string>[]>[
      { intent: "rename", id: person.authenticator.credentialId, name: "taken over" },
      { intent: "remove", id: person.authenticator.credentialId },
    ]) {
      const refused = await postForm("/account/passkeys", fields, { cookie });
      expect(refused.headers.get("Location")).toMatch(/^\/login/);
    }
    expect(await countRows("passkeys", "id = ?", person.authenticator.credentialId)).toBe(1);
    expect(await nameOf(person.authenticator.credentialId)).not.toBe("taken over");

    // No session and no open sign-in step: a second-factor ceremony does not even start.
    const verify = await postJson("/passkeys/verify", { intent: "options" }, { cookie });
    expect(await refusedWith(verify, 401)).toBe(PASSKEY_MESSAGES.expired);
    expect(await countRows("webauthn_challenges")).toBe(challenges);
  });
});
