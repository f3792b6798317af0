/**
 * The demo's monitoring alerts (docs/product.md, "Transaction monitoring"): a client of their own whose requests
 * really fire each of the six rules once, judged by the rules' own statements (app/server/monitoring), so the
 * compliance queue opens with one open alert of each rule. The other demo clients' figures stay as they were.
 * Idempotent: the requests are written only for a monitored client without any, and the rules' unique key makes
 * judging again write nothing.
 */
import "./lib/app-on-sqlite.ts";
import type { SQL } from "drizzle-orm";
import { profileProjectionSql } from "../app/lib/money/rules.ts";
import { DEMO_ADMIN, DEMO_MONITORED_CLIENT } from "./lib/demo-people.ts";
import {
  type D1Target,
  devVar,
  executeInChunks,
  executeStatements,
  inlineSql,
  query,
  sqlValue,
} from "./lib/local-d1.ts";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

type DemoRequest = {
  type: "deposit" | "withdraw";
  dollars: number;
  /** When it was made, before the seed's time. */
  ago: number;
  status: "pending" | "approved";
  address?: string;
};

/** Paid out before: the dormant withdrawal's address. Never paid: where the withdrawal after the password change goes. */
const KNOWN_ADDRESS = "0x4444444444444444444444444444444444444444";
const NEW_ADDRESS = "0x5555555555555555555555555555555555555555";

/** The monitored client's account is this old, so the dormant rule can apply. */
export const MONITORED_JOINED_DAYS_AGO = 400;

/** The days without a ledger row before the dormant withdrawal: what its alert says and README repeats. */
export const DORMANT_QUIET_DAYS = 200;

/**
 * The client's requests, oldest first, each fitting one rule and no other (at the default thresholds, $10,000 and
 * more than 5 in 24 hours): which rule the comment names.
 */
const DEMO_REQUESTS: DemoRequest[] = [
  // The account's first money (approved an hour after it was asked), then 200 days of nothing before a withdrawal:
  // dormant account awakens. The quiet counts from the approval, the last ledger act.
  { type: "deposit", dollars: 2_000, ago: (DORMANT_QUIET_DAYS + 100) * DAY + HOUR, status: "approved" },
  { type: "withdraw", dollars: 500, ago: 100 * DAY, status: "approved", address: KNOWN_ADDRESS },
  // $12,000 in: large single transaction; most of it out 19 hours after its approval: rapid in and out.
  { type: "deposit", dollars: 12_000, ago: 30 * DAY, status: "approved" },
  { type: "withdraw", dollars: 9_800, ago: 30 * DAY - 20 * HOUR, status: "approved", address: KNOWN_ADDRESS },
  // Three deposits just under $10,000 in six days: structuring.
  { type: "deposit", dollars: 8_500, ago: 21 * DAY, status: "approved" },
  { type: "deposit", dollars: 9_000, ago: 18 * DAY, status: "approved" },
  { type: "deposit", dollars: 9_200, ago: 15 * DAY, status: "approved" },
  // Six small deposits in six hours: velocity.
  ...[0, 1, 2, 3, 4, 5].map((i) => ({
    type: "deposit" as const,
    dollars: 50,
    ago: 5 * DAY - i * HOUR,
    status: "approved" as const,
  })),
  // A password change (the notice below), then a withdrawal to an address never paid: new destination.
  { type: "withdraw", dollars: 300, ago: 1 * DAY - 2 * HOUR, status: "pending", address: NEW_ADDRESS },
];

/** The password change the new-destination alert follows, as its security notice records it (already sent). */
const PASSWORD_CHANGE_AGO = 1 * DAY;

function requestStatements(now: number): string[] {
  const id = sqlValue(DEMO_MONITORED_CLIENT.id);
  // Only for a client who has no ledger yet: a second seed adds nothing.
  const unseeded = `NOT EXISTS (SELECT 1 FROM transactions WHERE user_id = ${id})`;
  const rows = DEMO_REQUESTS.map((request) => {
    const at = now - request.ago;
    const decided = request.status === "approved";
    return `(${[
      DEMO_MONITORED_CLIENT.id,
      request.type,
      request.dollars * 100,
      request.status,
      request.type === "deposit" ? "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4" : null,
      request.address ?? null,
      DEMO_MONITORED_CLIENT.id,
      decided ? DEMO_ADMIN.id : null,
      decided ? at + HOUR : null,
      at,
    ]
      .map(sqlValue)
      .join(", ")})`;
  });
  const changedAt = now - PASSWORD_CHANGE_AGO;
  // Everything the security notice's template reads, as a real password change stores it.
  const notice = JSON.stringify({
    name: DEMO_MONITORED_CLIENT.firstName,
    event: "password_changed",
    at: changedAt,
    browser: "Firefox on Windows",
    location: "Leeds, GB",
  });
  return [
    `INSERT INTO email_outbox (to_address, template, payload, status, attempts, next_attempt_at, created_at, sent_at)
     SELECT ${[DEMO_MONITORED_CLIENT.email, "security_notice", notice, "sent", 1, changedAt, changedAt, changedAt].map(sqlValue).join(", ")}
     WHERE ${unseeded}`,
    `INSERT INTO transactions (user_id, transaction_type, amount_cents, status, wallet_address, withdrawal_wallet_address,
       created_by, decided_by, decided_at, created_at)
     SELECT * FROM (VALUES ${rows.join(", ")}) WHERE ${unseeded}`,
    `INSERT INTO withdrawal_wallets (user_id, transaction_id, wallet_address, crypto_currency, amount_cents, created_at)
     SELECT user_id, id, withdrawal_wallet_address, 'ETH', amount_cents, created_at FROM transactions t
     WHERE user_id = ${id} AND transaction_type = 'withdraw'
       AND NOT EXISTS (SELECT 1 FROM withdrawal_wallets w WHERE w.transaction_id = t.id)`,
    // The profile's balance, trades and win rate, from the ledger just written, by the rules every batch uses.
    `UPDATE profiles SET ${profileProjectionSql()} WHERE user_id = ${id}`,
  ];
}

/**
 * Writes the monitored client's requests when they have none, then judges each of their requests by every rule, as
 * the cron would. Returns how many alerts the client has open. Needs the client's account (the seed's people).
 */
export async function seedDemoMonitoring(target: D1Target = {}, now = Date.now()): Promise<number> {
  const [client] = query<{ n: number }>(
    `SELECT count(*) AS n FROM users WHERE id = ${sqlValue(DEMO_MONITORED_CLIENT.id)} AND role = 'user'`,
    target,
  );
  if (!client?.n) return 0;
  executeStatements(requestStatements(now), target);
  const ids = query<{ id: number }>(
    `SELECT id FROM transactions WHERE user_id = ${sqlValue(DEMO_MONITORED_CLIENT.id)} ORDER BY created_at, id`,
    target,
  ).map((row) => row.id);
  // The app's own rule statements (loaded through the app's import style, which app-on-sqlite resolves).
  const amount = await import("../app/server/monitoring/amount-rules.server.ts");
  const pattern = await import("../app/server/monitoring/pattern-rules.server.ts");
  const rules = [
    amount.largeTransaction,
    amount.structuring,
    amount.velocity,
    pattern.rapidInOut,
    pattern.newDestinationAfterSecurityChange,
    pattern.dormantAccount,
  ];
  const env = {
    AML_LARGE_AMOUNT: Number(devVar("AML_LARGE_AMOUNT") ?? 10_000),
    AML_VELOCITY_COUNT: Number(devVar("AML_VELOCITY_COUNT") ?? 5),
  } as Parameters<(typeof rules)[number]>[0]["env"];
  // Without their RETURNING clause: the CLI runs a file's statements without reading rows back, and a statement
  // left with rows to read makes local D1 refuse to commit (SQLITE_BUSY).
  // A windowed rule is two statements (it opens an alert, then grows the open one), in their order.
  const statements = ids.flatMap((transactionId) =>
    rules.flatMap((rule) =>
      [rule({ env, scope: { transactionId }, now })]
        .flat()
        .map((statement) => inlineSql(statement as unknown as SQL).replace(/\s*RETURNING id\s*$/, "")),
    ),
  );
  // Each statement judges one request and judging again writes nothing, so they need not be one batch.
  executeInChunks(statements, target);
  const [open] = query<{ n: number }>(
    `SELECT count(*) AS n FROM monitoring_alerts WHERE user_id = ${sqlValue(DEMO_MONITORED_CLIENT.id)} AND status = 'open'`,
    target,
  );
  return open?.n ?? 0;
}
