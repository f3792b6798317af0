/**
 * The audit log read across D1 and the audit archive (docs/decisions/0077), newest first, as one list: the rows
 * still in D1 and the rows of the archive objects a read reaches, merged in the list's order. /admin/audit reads it
 * by id, its CSV by (created_at, id), as each did before the archive.
 *
 * An object is opened only when the list reaches its newest possible row, so a page or a CSV of a short range opens
 * the objects of that range alone. An object that is missing or whose bytes are not the recorded ones is not
 * skipped: it takes its place in the list as a gap, which the page and the CSV show.
 */
import { and, desc, eq, gt, gte, lt, lte, not, or, type SQL } from "drizzle-orm";
import { readVerifiedObject } from "../archive-objects.server";
import type { ArchivedAuditRow } from "../audit-archive.server";
import type { Db } from "../db.server";
import { schema } from "../db.server";

const { auditArchives } = schema;

/** An archive object is kept five years from its upload (the bucket's lifecycle rule, docs/decisions/0077). */
export const AUDIT_ARCHIVE_KEPT_MS = 1_826 * 86_400_000;

/** "id": the page's order (ids only grow); "time": the CSV's, (created_at, id). Both newest first. */
export type AuditOrder = "id" | "time";

/** Where a row sits in the list. */
export interface AuditKey {
  id: number;
  createdAt: number;
}

/** An object whose rows could not be read, at its newest row's place in the list. */
export interface AuditArchiveGap extends AuditKey {
  gap: "missing" | "checksum" | "expired";
  objectKey: string;
  month: string;
  firstId: number;
  lastId: number;
  rowCount: number;
}

type ArchiveObject = typeof auditArchives.$inferSelect;

/** Whether `a` comes before `b` in the list (newest first). */
export function comesBefore(a: AuditKey, b: AuditKey, order: AuditOrder): boolean {
  if (order === "id" || a.createdAt === b.createdAt) return a.id > b.id;
  return a.createdAt > b.createdAt;
}

/** The latest place any row of the object can take: its last id, and for "time" its newest time first. */
const placeOf = (object: ArchiveObject): AuditKey => ({ id: object.lastId, createdAt: object.newestAt });

export interface AuditListSource<Row extends AuditKey> {
  db: Db;
  bucket: R2Bucket;
  order: AuditOrder;
  /** Only what comes after this place (the page's `before`); undefined: from the newest. */
  after?: AuditKey;
  /** The filters' range of `created_at`: `fromMs` included, `beforeMs` not. */
  range: { fromMs?: number; beforeMs?: number };
  /** The next rows of D1 after `after`, in the list's order, filtered. */
  readLive: (after: AuditKey | undefined, limit: number) => Promise<Row[]>;
  /** An object's rows as the list shows them, filtered (in any order). */
  matchArchived: (rows: ArchivedAuditRow[]) => Promise<Row[]>;
  now?: number;
  livePageSize?: number;
  /**
   * At most this many objects opened (a page's bound, however sparse its filters): the list then ends with a
   * pause, where the next read starts.
   */
  maxObjects?: number;
}

/** Where a bounded read stopped: everything before this place was given, nothing at it or after it. */
export interface AuditListPause {
  pausedAt: AuditKey;
}

/**
 * The recorded objects the range and the starting place can reach, in the order the list meets them; with
 * `recordedAfter`, only those recorded since (an archive id).
 */
async function reachableObjects(db: Db, source: AuditListSource<AuditKey>, recordedAfter?: number) {
  const { order, after, range, maxObjects } = source;
  const t = auditArchives;
  const conditions: Array<SQL | undefined> = [
    range.fromMs === undefined ? undefined : gte(t.newestAt, range.fromMs),
    range.beforeMs === undefined ? undefined : lt(t.oldestAt, range.beforeMs),
    // The months first, so the look-up walks `audit_archives_month_idx` for a range of days.
    range.fromMs === undefined ? undefined : gte(t.month, new Date(range.fromMs).toISOString().slice(0, 7)),
    range.beforeMs === undefined ? undefined : lte(t.month, new Date(range.beforeMs).toISOString().slice(0, 7)),
    after === undefined ? undefined : order === "id" ? lt(t.firstId, after.id) : lte(t.oldestAt, after.createdAt),
    recordedAfter === undefined ? undefined : gt(t.id, recordedAfter),
  ];
  const sorted = (objects: ArchiveObject[]) =>
    objects.sort((a, b) => (comesBefore(placeOf(a), placeOf(b), order) ? -1 : 1));
  if (maxObjects === undefined || recordedAfter !== undefined)
    return sorted(
      await db
        .select()
        .from(t)
        .where(and(...conditions)),
    );
  // A bounded read opens, past those reaching over its start (not counted), at most `maxObjects` before it pauses
  // at the next: only those are read, not the records of every year of archive for each page.
  const overStart =
    after === undefined
      ? undefined
      : order === "id"
        ? gte(t.lastId, after.id)
        : or(gt(t.newestAt, after.createdAt), and(eq(t.newestAt, after.createdAt), gte(t.lastId, after.id)));
  const [over, beyond] = await Promise.all([
    overStart
      ? db
          .select()
          .from(t)
          .where(and(...conditions, overStart))
      : [],
    db
      .select()
      .from(t)
      .where(and(...conditions, overStart && not(overStart)))
      .orderBy(...(order === "id" ? [desc(t.lastId)] : [desc(t.newestAt), desc(t.lastId)]))
      .limit(maxObjects + 1),
  ]);
  return sorted([...over, ...beyond]);
}

/** An object's rows after `from` (the list's last given place) and not among `inD1` (read from D1), or its gap. */
async function openObject<Row extends AuditKey>(
  source: AuditListSource<Row>,
  object: ArchiveObject,
  from: AuditKey | undefined,
  inD1: ReadonlySet<number>,
): Promise<Array<Row | AuditArchiveGap>> {
  const read = await readVerifiedObject<ArchivedAuditRow>(source.bucket, object);
  if (!read.ok) {
    // A gap before the starting place was shown on an earlier page, where the list passed its place.
    if (source.after && !comesBefore(source.after, placeOf(object), source.order)) return [];
    const expired =
      read.problem === "missing" && object.createdAt + AUDIT_ARCHIVE_KEPT_MS <= (source.now ?? Date.now());
    const { objectKey, month, firstId, lastId, rowCount } = object;
    return [
      { ...placeOf(object), gap: expired ? "expired" : read.problem, objectKey, month, firstId, lastId, rowCount },
    ];
  }
  const rows = read.rows.filter(
    (row) => !inD1.has(row.id) && (from === undefined || comesBefore(from, row, source.order)),
  );
  return rows.length === 0 ? [] : source.matchArchived(rows);
}

/**
 * The list from `after` on, newest first: D1's rows and the archive's, merged, with a gap for each object that
 * could not be read. Reads D1 a page at a time and opens each object only when the list reaches it.
 */
export async function* auditNewestFirst<Row extends AuditKey>(
  source: AuditListSource<Row>,
): AsyncGenerator<Row | AuditArchiveGap | AuditListPause> {
  const { order } = source;
  let objects = await reachableObjects(source.db, source);
  let lastRecorded = Math.max(0, ...objects.map((object) => object.id));
  let lastGiven: AuditKey | undefined = source.after;
  const pageSize = source.livePageSize ?? 100;
  let live: Row[] = [];
  let liveAfter = source.after;
  let liveDone = false;
  /** Rows of opened objects not yet given, in the list's order. */
  let opened: Array<Row | AuditArchiveGap> = [];
  let nextObject = 0;
  let counted = 0;
  for (;;) {
    if (live.length === 0 && !liveDone) {
      live = await source.readLive(liveAfter, pageSize);
      liveDone = live.length < pageSize;
      liveAfter = live.at(-1) ?? liveAfter;
      // A read may overlap a cron run: rows archived since the objects were listed are gone from D1, so their
      // objects join the list (rows this page of D1 still had are taken from D1, not twice).
      const recorded = await reachableObjects(source.db, source, lastRecorded);
      if (recorded.length > 0) {
        lastRecorded = Math.max(lastRecorded, ...recorded.map((object) => object.id));
        objects = [...objects.slice(nextObject), ...recorded].sort((a, b) =>
          comesBefore(placeOf(a), placeOf(b), order) ? -1 : 1,
        );
        nextObject = 0;
      }
    }
    const head = () => {
      const [a, b] = [live[0], opened[0]];
      if (!a || !b) return a ?? b;
      return comesBefore(b, a, order) ? b : a;
    };
    // Open every object that could hold a row before the current head: none of its rows may be passed over.
    while (nextObject < objects.length) {
      const candidate = head();
      const object = objects[nextObject] as ArchiveObject;
      if (candidate && comesBefore(candidate, placeOf(object), order)) break;
      // Objects reaching over the starting place come first and are not counted: they hold rows of this read too,
      // and a read that stopped among them would stop there again. Each read so gets past one more object.
      const beyondStart = source.after === undefined || comesBefore(source.after, placeOf(object), order);
      if (beyondStart && counted === source.maxObjects) {
        // Every row left is at or after this object's place, every row given before it: a clean place to stop.
        yield { pausedAt: placeOf(object) };
        return;
      }
      if (beyondStart) counted++;
      nextObject++;
      opened = [...opened, ...(await openObject(source, object, lastGiven, new Set(live.map((row) => row.id))))].sort(
        (a, b) => (comesBefore(a, b, order) ? -1 : 1),
      );
    }
    const next = head();
    if (!next) return;
    if (next === live[0]) live.shift();
    else opened.shift();
    lastGiven = next;
    yield next;
  }
}
