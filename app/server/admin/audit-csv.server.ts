/**
 * /admin/audit.csv: the filtered log newest first by (created_at, id), D1's rows a keyset page at a time along
 * `audit_log_created_idx` and the archive's an object at a time (docs/decisions/0077): what the page shows, then
 * the row as it is stored, for whoever needs the exact values. An unreadable archive object is a line saying so.
 *
 * A download opens at most `CSV_ARCHIVE_OBJECTS` archive objects. Each costs an R2 read and a D1 statement, and a
 * Worker's request may make 1,000 such calls: a range over years of archive would otherwise be cut off wherever
 * the limit struck, with nothing in the file to say so. It ends instead with a line saying where it stopped and
 * which download goes on from there (`?before=<created_at>.<id>`).
 */
import { factsText } from "~/lib/audit-details";
import { type AuditFilters, auditSearch } from "~/lib/audit-filters";
import { CSV_PAGE_SIZE, csvStream } from "../csv.server";
import type { Db } from "../db.server";
import type { AuditArchiveGap, AuditKey } from "./audit-archive-read.server";
import { type AuditRow, auditList, gapText, readable } from "./audit-log.server";

/** About 100,000 archived rows a download, 400 calls, leaving the rest for D1's pages of live rows. */
export const CSV_ARCHIVE_OBJECTS = 200;

export const AUDIT_CSV_COLUMNS = [
  "Time (UTC)",
  "By",
  "Action",
  "Target",
  "Details",
  "Stored target",
  "Stored detail",
] as const;

/** Where a bounded download stopped: the next one gives the rows after `from` in the list's order. */
interface Stopped {
  stopped: { from: AuditKey; objects: number };
}

/** The `before` of a download that goes on: "<created_at>.<id>", the list's place to go on after. */
const csvBefore = (key: AuditKey) => `${key.createdAt}.${key.id}`;

/** A download's `before`, or "invalid": a cursor it cannot read is refused, not read as "from the newest". */
export function parseCsvBefore(value: string | null): AuditKey | undefined | "invalid" {
  if (value === null || value === "") return undefined;
  const match = /^(\d{1,16})\.(\d{1,16})$/.exec(value);
  const [createdAt, id] = [Number(match?.[1]), Number(match?.[2])];
  return match && Number.isSafeInteger(createdAt) && Number.isSafeInteger(id) ? { createdAt, id } : "invalid";
}

function stoppedText(filters: AuditFilters, { from, objects }: Stopped["stopped"]): string {
  const link = `/admin/audit.csv${auditSearch(filters, { before: csvBefore(from) })}`;
  return `The export stopped here after reading ${objects} archive objects, the most one download reads: older entries are not in this file. ${link} goes on from here.`;
}

export function auditCsv(
  db: Db,
  bucket: R2Bucket,
  filters: AuditFilters,
  { after, maxObjects = CSV_ARCHIVE_OBJECTS, livePageSize = CSV_PAGE_SIZE } = {} as {
    after?: AuditKey;
    maxObjects?: number;
    livePageSize?: number;
  },
): ReadableStream<Uint8Array> {
  // One list read on as the reader pulls: each page continues where the last one stopped.
  const list = auditList(db, bucket, filters, "time", { after, maxObjects, livePageSize });
  return csvStream<AuditRow | AuditArchiveGap | Stopped, null>({
    header: AUDIT_CSV_COLUMNS,
    readPage: async (_after, limit) => {
      const page: Array<AuditRow | AuditArchiveGap | Stopped> = [];
      while (page.length < limit) {
        const item = await list.next();
        if (item.done) break;
        if ("pausedAt" in item.value) {
          // Every row before the object it stopped at was given: the next download starts just before that
          // object's newest place (one id on, which no row of it has), so its rows and any gap come there.
          const { createdAt, id } = item.value.pausedAt;
          page.push({ stopped: { from: { createdAt, id: id + 1 }, objects: maxObjects } });
          break;
        }
        page.push(item.value);
      }
      return page;
    },
    keyOf: () => null,
    cells: (row) => {
      if ("stopped" in row)
        return [new Date(row.stopped.from.createdAt).toISOString(), "", "", "", stoppedText(filters, row.stopped)];
      const time = new Date(row.createdAt).toISOString();
      if ("gap" in row) return [time, "", "", "", gapText(row), `archive:${row.objectKey}`, ""];
      const entry = readable(row);
      return [
        time,
        entry.by,
        entry.action,
        entry.target,
        factsText(entry.facts),
        row.target,
        row.detail === null ? "" : JSON.stringify(row.detail),
      ];
    },
  });
}
