/**
 * The mail simulator `npm run dev` starts (scripts/lib/mail-simulator.ts), spoken to through the Resend SDK as the
 * outbox speaks to the real provider (app/server/mail/outbox.server.ts), and the `npm run mail` switch that makes it
 * fail. Run with `npm run test:scripts`.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { after, before, beforeEach, describe, test } from "node:test";
import { promisify } from "node:util";
import { Resend } from "resend";
import { BIN, ROOT } from "../../scripts/lib/local-d1.ts";
import {
  IDEMPOTENCY_MS,
  type MailSimulator,
  mailSimulatorPort,
  SIMULATOR_API_KEY,
  simulatorSettings,
  startMailSimulator,
  upgradeMailSettings,
} from "../../scripts/lib/mail-simulator.ts";

const mail = {
  from: "Northwind <notices@northwind.example>",
  to: ["client@example.com"],
  subject: "Hello",
  text: "Hi",
};

describe("the mail simulator", () => {
  let simulator: MailSimulator;
  let now = Date.parse("2026-11-30T09:00:00Z");
  let resend: Resend;

  before(async () => {
    simulator = await startMailSimulator({ clock: () => now });
    resend = new Resend("re_simulated_key", { baseUrl: simulator.url });
  });
  after(() => simulator.close());
  beforeEach(() => {
    simulator.clear();
    simulator.setMode("ok");
  });

  test("accepts a mail as Resend does, with an id, and keeps what it accepted", async () => {
    const { data, error } = await resend.emails.send(mail, { idempotencyKey: "outbox-1" });
    assert.equal(error, null);
    assert.match(data?.id ?? "", /^[0-9a-f-]{36}$/);
    assert.deepEqual(simulator.state.accepted, [
      { id: data?.id, idempotencyKey: "outbox-1", from: mail.from, to: mail.to, subject: "Hello", acceptedAt: now },
    ]);
  });

  test("answers a repeated Idempotency-Key with the first id for 24 hours, without sending again", async () => {
    const first = await resend.emails.send(mail, { idempotencyKey: "outbox-2" });
    now += IDEMPOTENCY_MS - 1;
    const repeat = await resend.emails.send(mail, { idempotencyKey: "outbox-2" });
    assert.equal(repeat.data?.id, first.data?.id);
    assert.equal(simulator.state.accepted.length, 1);
    assert.equal(simulator.state.replays, 1);

    const changed = await resend.emails.send({ ...mail, subject: "Another" }, { idempotencyKey: "outbox-2" });
    assert.equal(changed.error?.statusCode, 409);
    assert.equal(changed.error?.name, "invalid_idempotent_request");

    // Past its 24 hours the key is forgotten, as the provider forgets it: the same mail goes out again.
    now += 1;
    const late = await resend.emails.send(mail, { idempotencyKey: "outbox-2" });
    assert.notEqual(late.data?.id, first.data?.id);
    assert.equal(simulator.state.accepted.length, 2);
  });

  test("fails like an outage when told to: a 5xx, then a dropped connection, then it accepts again", async () => {
    simulator.setMode("fail");
    const outage = await resend.emails.send(mail, { idempotencyKey: "outbox-3" });
    assert.equal(outage.data, null);
    assert.equal(outage.error?.statusCode, 503);
    assert.match(outage.error?.message ?? "", /failing on purpose/);

    simulator.setMode("fail", 500);
    assert.equal((await resend.emails.send(mail, { idempotencyKey: "outbox-3" })).error?.statusCode, 500);

    // What the SDK makes of a connection closed unanswered: no status, as the outbox's "network" error.
    simulator.setMode("drop");
    const dropped = await resend.emails.send(mail, { idempotencyKey: "outbox-3" });
    assert.equal(dropped.data, null);
    assert.equal(dropped.error?.statusCode, null);

    simulator.setMode("ok");
    const delivered = await resend.emails.send(mail, { idempotencyKey: "outbox-3" });
    assert.equal(delivered.error, null);
    assert.equal(simulator.state.accepted.length, 1);
    assert.equal(simulator.state.refused, 3);
  });

  test("refuses a missing or malformed key and a malformed mail with Resend's statuses", async () => {
    const post = (headers: Record<string, string>, body: unknown) =>
      fetch(`${simulator.url}/emails`, { method: "POST", headers, body: JSON.stringify(body) });
    assert.equal((await post({}, mail)).status, 401);
    assert.equal((await post({ Authorization: "Bearer sk_not_resend" }, mail)).status, 403);
    const withoutTo = await post({ Authorization: "Bearer re_key" }, { ...mail, to: [] });
    assert.equal(withoutTo.status, 422);
    assert.deepEqual(await withoutTo.json(), {
      statusCode: 422,
      name: "validation_error",
      message: "Invalid `to` field.",
    });
    assert.equal(simulator.state.accepted.length, 0);
  });

  test("npm run mail switches it and reports what it accepted", async () => {
    const port = new URL(simulator.url).port;
    const mailCommand = (...args: string[]) =>
      promisify(execFile)(join(BIN, "node"), ["scripts/mail.ts", ...args], {
        cwd: ROOT,
        env: { ...process.env, MAIL_SIMULATOR_PORT: port },
      });
    assert.match((await mailCommand("fail")).stdout, /failing: every mail is answered 503/);
    assert.equal(simulator.state.mode, "fail");
    await assert.rejects(mailCommand("fail", "404"), /status must be 500 to 599/);
    assert.match((await mailCommand("ok")).stdout, /accepting mail/);
    await resend.emails.send(mail, { idempotencyKey: "outbox-4" });
    const status = (await mailCommand("status")).stdout;
    assert.match(status, /Accepted 1 mail\(s\)/);
    assert.match(status, /client@example\.com {2}Hello {2}\(outbox-4\)/);
  });
});

describe("where npm run dev runs the simulator and points the app", () => {
  test("PORT + 1000, or MAIL_SIMULATOR_PORT", () => {
    assert.equal(mailSimulatorPort({}), 9787);
    assert.equal(mailSimulatorPort({ PORT: "8917" }), 9917);
    assert.equal(mailSimulatorPort({ PORT: "8917", MAIL_SIMULATOR_PORT: "9555" }), 9555);
    assert.throws(() => mailSimulatorPort({ PORT: "65000" }), /set MAIL_SIMULATOR_PORT/);
  });

  test("the app mails the simulator unless .dev.vars names a provider off this machine", () => {
    const url = "http://127.0.0.1:9917";
    assert.deepEqual(simulatorSettings({}, url), { RESEND_BASE_URL: url });
    assert.deepEqual(simulatorSettings({ baseUrl: "http://127.0.0.1:9787" }, url), { RESEND_BASE_URL: url });
    assert.deepEqual(simulatorSettings({ baseUrl: "https://api.resend.com" }, url), {});
  });

  test("an older .dev.vars loses its local address and gets the simulator's key; a real provider's stay", () => {
    const older =
      "ENVIRONMENT=development\nRESEND_API_KEY=\nRESEND_BASE_URL=http://127.0.0.1:9787\nAML_MONITORING=on\n";
    assert.equal(
      upgradeMailSettings(older),
      `ENVIRONMENT=development\nRESEND_API_KEY=${SIMULATOR_API_KEY}\nAML_MONITORING=on\n`,
    );
    const mine = "RESEND_API_KEY=re_mine\nRESEND_BASE_URL=http://localhost:9787\n";
    assert.equal(upgradeMailSettings(mine), "RESEND_API_KEY=re_mine\n");
    const real = "RESEND_API_KEY=\nRESEND_BASE_URL=https://api.resend.com\n";
    assert.equal(upgradeMailSettings(real), real);
    assert.equal(upgradeMailSettings(upgradeMailSettings(older)), upgradeMailSettings(older));
  });
});
