/** A filter on a range of whole UTC days (the audit log, the alerts CSV), as one SQL condition over a timestamp. */
import { and, gte, lt, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { type DayRange, historyTimeRange } from "~/lib/history-filters";

/** Rows whose `column` falls within the range's days; undefined (no condition) for an open range. */
export function withinDays(column: SQLiteColumn, range: DayRange): SQL | undefined {
  const { fromMs, beforeMs } = historyTimeRange(range);
  return and(
    fromMs === undefined ? undefined : gte(column, fromMs),
    beforeMs === undefined ? undefined : lt(column, beforeMs),
  );
}
