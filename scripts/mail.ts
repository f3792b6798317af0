/**
 * `npm run mail -- <fail [status] | drop | ok | status | clear>`: tells the mail simulator `npm run dev` runs
 * (scripts/lib/mail-simulator.ts) to fail like a provider outage (every mail answered 503, or the status given),
 * to drop connections unanswered (a network error), to work again, to say what it accepted, or to forget it.
 * It finds the simulator as dev does: MAIL_SIMULATOR_PORT, else PORT + 1000 (so `PORT=8917 npm run mail -- fail`
 * for a dev server on 8917).
 */
import { mailSimulatorPort, type SimulatorState } from "./lib/mail-simulator.ts";

const USAGE = "usage: npm run mail -- fail [500-599] | drop | ok | status | clear";
const [command = "status", status] = process.argv.slice(2);
const origin = `http://127.0.0.1:${mailSimulatorPort()}`;

const request: Record<string, { method: string; path: string }> = {
  fail: { method: "POST", path: `/_simulator/fail${status ? `?status=${encodeURIComponent(status)}` : ""}` },
  drop: { method: "POST", path: "/_simulator/drop" },
  ok: { method: "POST", path: "/_simulator/ok" },
  clear: { method: "POST", path: "/_simulator/clear" },
  status: { method: "GET", path: "/_simulator" },
};
const chosen = request[command];
if (!chosen) {
  console.error(USAGE);
  process.exit(2);
}

let response: Response;
try {
  response = await fetch(`${origin}${chosen.path}`, { method: chosen.method, signal: AbortSignal.timeout(5_000) });
} catch {
  console.error(
    `No mail simulator answers on ${origin}. It runs with \`npm run dev\`; for a dev server on another port, give ` +
      "this command the same PORT (or MAIL_SIMULATOR_PORT).",
  );
  process.exit(1);
}
const body = (await response.json()) as { error?: string } & Omit<SimulatorState, "accepted"> & {
    accepted: number;
    mails: SimulatorState["accepted"];
  };
if (!response.ok) {
  console.error(body.error ?? `The simulator answered ${response.status}.`);
  process.exit(1);
}

const doing = {
  ok: "accepting mail",
  fail: `failing: every mail is answered ${body.failStatus}`,
  drop: "dropping every connection unanswered",
}[body.mode];
console.log(`Mail simulator on ${origin}: ${doing}.`);
console.log(
  `Accepted ${body.accepted} mail(s); ${body.replays} repeat(s) answered without sending; ${body.refused} refused.`,
);
for (const mail of body.mails.slice(-10)) {
  console.log(
    `  ${new Date(mail.acceptedAt).toISOString()}  ${mail.to.join(", ")}  ${mail.subject}  (${mail.idempotencyKey ?? "no key"})`,
  );
}
