/**
 * `npm run mail:outage`: does a provider outage lose mail? Runs the outbox's own code against the mail simulator
 * through a simulated outage (25 hours by default), notices queued all through it, the cron every minute, then the
 * provider's recovery (scripts/lib/mail-outage-drill.ts), and prints the figures. Exits 1 when any notice was not
 * delivered exactly once.
 *
 * Options: `--hours N` (the outage, 25), `--mails N` (queued during it, 50), `--status N` (the provider's answer, 503).
 */
import { runMailOutageDrill } from "./lib/mail-outage-drill.ts";

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at === -1) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} takes a positive number`);
  return value;
}

const f = await runMailOutageDrill({
  outageHours: option("hours", 25),
  mails: option("mails", 50),
  failStatus: option("status", 503),
});

console.log(`Mail-provider outage of ${f.outageHours} hours (the outbox retries for ${f.retryWindowHours} hours):`);
console.log(`  notices queued during the outage      ${f.queued}`);
console.log(`  cron runs with a notice due           ${f.cronRuns}`);
console.log(`  requests refused during the outage    ${f.refusedDuringOutage}`);
console.log(`  tries of the first, delivery included ${f.triesOfTheFirst}`);
console.log(`  given up (marked failed)              ${f.givenUp}`);
console.log(`  still pending at the end              ${f.stillPending}`);
console.log(`  delivered exactly once                ${f.deliveredOnce}`);
console.log(`  delivered more than once              ${f.deliveredTwice}`);
console.log(`  never delivered                       ${f.neverDelivered}`);
console.log(`  repeats answered from the key         ${f.repeatsAnsweredFromKey}`);
console.log(`  minutes from recovery to the last     ${f.minutesToDrain}`);
console.log(`Lost: ${f.lost} of ${f.queued}.`);
if (f.lost > 0) process.exit(1);
