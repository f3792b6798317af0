import { describe, expect, it } from "vitest";
import { MESSAGES, type RegistrationInput } from "~/lib/schemas/auth";
import { registerClient } from "~/server/auth/registration.server";
import { appEnv, countRows, db, ORIGIN, registrationFields } from "../support/fixtures";

let counter = 0;
function registration(email = `reg${++counter}-${crypto.randomUUID().slice(0, 8)}@example.com`): RegistrationInput {
  return { ...registrationFields({ email }), terms: true };
}

describe("registration", () => {
  it("refuses an address that keeps registering, and stops mailing one e-mail over and over", async () => {
    const ip = `198.51.100.${Math.floor(Math.random() * 200)}`;
    const results = [];
    for (let i = 0; i < 31; i++)
      results.push(await registerClient({ db, env: appEnv }, registration(), ORIGIN, { ip }));
    expect(results.slice(0, 30).every((result) => result.ok)).toBe(true);
    expect(results[30]).toEqual({ ok: false, error: MESSAGES.tooManyRegistrations, status: 429 });

    const target = registration();
    const mailsBefore = await countRows("email_outbox", "to_address = ?", target.email);
    for (let i = 0; i < 8; i++) await registerClient({ db, env: appEnv }, registration(target.email), ORIGIN);
    const again = await registerClient({ db, env: appEnv }, registration(target.email), ORIGIN);
    expect(again).toEqual({ ok: false, error: MESSAGES.tooManyRegistrations, status: 429 });
    expect(await countRows("email_outbox", "to_address = ?", target.email)).toBe(mailsBefore + 1);
  });
});
