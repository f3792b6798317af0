/**
 * When the monitoring rules run (docs/product.md, "Transaction monitoring"): for a request just made, after its
 * batch committed and in the background (the client's answer never waits for them); and from the cron, over the
 * requests of the last 24 hours, so a pattern a request completes is caught even if its own run was lost.
 */
import type { CommandContext } from "../command-context.server";
import type { Db } from "../db.server";
import { writeTogether } from "../db.server";
import type { AppEnv } from "../env.server";
import { publishToDesk } from "../realtime.server";
import { largeTransaction, structuring, velocity } from "./amount-rules.server";
import { dormantAccount, newDestinationAfterSecurityChange, rapidInOut } from "./pattern-rules.server";
import type { RuleRun, TriggerScope } from "./scope.server";

const RULES = [largeTransaction, structuring, velocity, rapidInOut, newDestinationAfterSecurityChange, dormantAccount];

/** How far back the cron looks: its runs overlap (every minute), and the unique key keeps that harmless. */
export const SCHEDULED_LOOKBACK_MS = 24 * 60 * 60 * 1000;

/**
 * Every rule over the scope's requests, in one batch (one statement a rule, two a windowed one, in their order); how
 * many alerts were written or grew.
 */
export async function evaluateRules(db: Db, env: AppEnv, scope: TriggerScope, now = Date.now()): Promise<number> {
  const run: RuleRun = { env, scope, now };
  const statements = RULES.flatMap((rule) => [rule(run)].flat().map((write, i) => [`${rule.name}${i}`, write]));
  const written = await writeTogether(db, Object.fromEntries(statements));
  return Object.values(written).reduce((sum, rows) => sum + (rows?.length ?? 0), 0);
}

/** The cron's run over the requests made in the last 24 hours before `now` (the trigger's time, fixed by tests). */
export async function evaluateRecentRequests(db: Db, env: AppEnv, now: number): Promise<number> {
  if (env.AML_MONITORING === "off") return 0;
  return evaluateRules(db, env, { from: now - SCHEDULED_LOOKBACK_MS, to: now }, now);
}

/**
 * After a request's batch: its rules in the background, and the desk told when an alert was written or grew; a
 * failure is logged, and the cron's run catches it.
 */
export function monitorInBackground(
  context: Pick<CommandContext, "db" | "env" | "ctx" | "bindings">,
  transactionId: number,
) {
  if (context.env.AML_MONITORING === "off") return;
  context.ctx.waitUntil(
    evaluateRules(context.db, context.env, { transactionId })
      .then((written) => {
        if (written > 0) publishToDesk(context, { type: "alerts.changed" });
      })
      .catch((error) => console.error("monitoring failed for transaction", transactionId, error)),
  );
}
