import { describe, expect, it } from "vitest";
import { MESSAGES, type RegistrationInput } from "~/lib/schemas/auth";
import { registerClient } from "~/server/auth/registration.server";
import { appEnv, countRows, db, ORIGIN, registrationFields } from "../support/fixtures";

let counter = 0;
function registration(email = `reg${++counter}-${crypto.randomUUID().slice(0, 8)}@example.com`): RegistrationInput {
  return { ...registrationFields({ email }), terms: true };
}

/** Production's password cost, so that the work a registration does shows in its time. */
const production = { db, env: { ...appEnv, PASSWORD_HASH_COST: "standard" as const } };

async function timed(work: () => Promise<unknown>) {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

describe("registration", () => {
  it("takes as long to refuse a taken address as to register a new one", async () => {
    const taken = registration();
    await registerClient(production, taken, ORIGIN);
    const takenTimes: number[] = [];
    const newTimes: number[] = [];
    for (let i = 0; i < 3; i++) {
      takenTimes.push(await timed(() => registerClient(production, registration(taken.email), ORIGIN)));
      newTimes.push(await timed(() => registerClient(production, registration(), ORIGIN)));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[1] ?? 0;
    expect(median(takenTimes)).toBeGreaterThan(median(newTimes) * 0.6);
  });

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
