/**
 * What the compliance queue (/admin/alerts) and its CSV read of the monitoring alerts (docs/product.md, "Transaction
 * monitoring", "The alerts queue"): open alerts newest first, or the decided ones, 50 a page by keyset, each with
 * its client, its rule's name, its words and the requests involved.
 */
import { eq, ne, type SQL, sql } from "drizzle-orm";
import type { DayRange } from "~/lib/history-filters";
import type { AlertView } from "~/lib/monitoring/alerts";
import { type AlertDetail, alertWords, MONITORING_RULE_NAMES } from "~/lib/monitoring/rules";
import { transactionReference } from "~/lib/reference";
import { csvStream } from "../csv.server";
import { withinDays } from "../day-range.server";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import {
  createdAtCursor,
  type Keyset,
  keysetOf,
  keysetPage,
  newestFirstReading,
  type PagePosition,
  readKeyset,
} from "../paging.server";

const { monitoringAlerts: alerts, profiles, users } = schema;

export const ALERTS_PAGE_SIZE = 50;

const deciders = sql<string | null>`(SELECT email FROM users WHERE id = ${alerts.disposedBy})`;

function alertsQuery(db: Db) {
  return db
    .select({
      id: alerts.id,
      userId: alerts.userId,
      rule: alerts.rule,
      detail: alerts.detail,
      createdAt: alerts.createdAt,
      status: alerts.status,
      disposedBy: deciders,
      disposedAt: alerts.disposedAt,
      dispositionNote: alerts.dispositionNote,
      reportReference: alerts.reportReference,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      email: users.email,
    })
    .from(alerts)
    .leftJoin(profiles, eq(profiles.userId, alerts.userId))
    .leftJoin(users, eq(users.id, alerts.userId))
    .$dynamic();
}

type AlertRow = Awaited<ReturnType<typeof alertsQuery>>[number];

/** An alert as the queue shows it: the client by name (gone after a deletion), the rule and words, the requests. */
export function toAlert(row: AlertRow) {
  const detail = row.detail as unknown as AlertDetail;
  const name = [row.firstName, row.lastName].filter(Boolean).join(" ");
  return {
    id: row.id,
    createdAt: row.createdAt,
    client: { id: row.userId, name: name || row.email || "Deleted client", present: row.firstName !== null },
    ruleName: MONITORING_RULE_NAMES[row.rule],
    words: alertWords(row.rule, detail),
    transactions: (detail.transactionIds ?? []).map((id) => ({ id, reference: transactionReference(id) })),
    status: row.status,
    decidedBy: row.disposedBy,
    decidedAt: row.disposedAt,
    note: row.dispositionNote,
    reportReference: row.reportReference,
  };
}

export type AlertItem = ReturnType<typeof toAlert>;

const inView = (view: AlertView): SQL =>
  // Literal status, so the planner can use the partial index of the open alerts.
  view === "open" ? sql`${alerts.status} = 'open'` : (ne(alerts.status, "open") as SQL);

/** One page of a view, newest first, from its position (Next and Previous cursors, "<createdAt>.<id>"). */
export async function listAlerts(db: Db, view: AlertView, position: PagePosition<Keyset<number>>) {
  const { cursor, order } = newestFirstReading(position);
  const rows = await readKeyset(alertsQuery(db), alerts, inView(view), cursor, order, ALERTS_PAGE_SIZE + 1);
  const page = keysetPage(rows, position, ALERTS_PAGE_SIZE, createdAtCursor);
  return { ...page, rows: page.rows.map(toAlert) };
}

export const ALERT_CSV_COLUMNS = [
  "alert_id",
  "created_at",
  "client_id",
  "client",
  "rule",
  "words",
  "transactions",
  "status",
  "decided_by",
  "decided_at",
  "note",
  "report_reference",
] as const;

const isoOrEmpty = (at: number | null) => (at === null ? "" : new Date(at).toISOString());

/** Every alert written in a range of UTC days, decided or not, oldest first, streamed. */
export function alertsCsv(db: Db, range: DayRange): ReadableStream<Uint8Array> {
  return csvStream<AlertRow, Keyset<number>>({
    header: ALERT_CSV_COLUMNS,
    readPage: (after, limit) =>
      readKeyset(alertsQuery(db), alerts, withinDays(alerts.createdAt, range), after, "oldest", limit),
    keyOf: keysetOf,
    cells: (row) => {
      const alert = toAlert(row);
      return [
        alert.id,
        isoOrEmpty(alert.createdAt),
        alert.client.id,
        alert.client.name,
        alert.ruleName,
        alert.words,
        alert.transactions.map((tx) => tx.reference).join(" "),
        alert.status,
        alert.decidedBy ?? "",
        isoOrEmpty(alert.decidedAt),
        alert.note ?? "",
        alert.reportReference ?? "",
      ];
    },
  });
}
