CREATE TABLE `audit_archives` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`object_key` text NOT NULL,
	`month` text NOT NULL,
	`first_id` integer NOT NULL,
	`last_id` integer NOT NULL,
	`oldest_at` integer NOT NULL,
	`newest_at` integer NOT NULL,
	`row_count` integer NOT NULL,
	`sha256` text NOT NULL,
	`bytes` integer NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `audit_archives_object_key_unique` ON `audit_archives` (`object_key`);--> statement-breakpoint
CREATE INDEX `audit_archives_month_idx` ON `audit_archives` (`month`,`first_id`);--> statement-breakpoint
-- Audit rows leave D1 13 months on for the audit archive (docs/decisions/0077), and only for it: a row is deleted
-- only while a recorded archive object holds it. An object holds every row of its month between its first and last
-- id (the archive takes a month's rows in id order, and later rows get higher ids), so the range is the proof.
DROP TRIGGER `audit_log_no_delete`;--> statement-breakpoint
CREATE TRIGGER `audit_log_no_delete`
BEFORE DELETE ON `audit_log`
WHEN NOT EXISTS (
  SELECT 1 FROM audit_archives a
  WHERE a.month = strftime('%Y-%m', OLD.created_at / 1000, 'unixepoch') AND OLD.id BETWEEN a.first_id AND a.last_id
)
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only: a row leaves only for a recorded archive object');
END;--> statement-breakpoint
-- The record of an object is the row's only way back: it is never changed or removed, even after the bucket's
-- five-year rule has removed the object (the reader then says so).
CREATE TRIGGER `audit_archives_no_update`
BEFORE UPDATE ON `audit_archives`
BEGIN
  SELECT RAISE(ABORT, 'audit_archives is append-only');
END;--> statement-breakpoint
CREATE TRIGGER `audit_archives_no_delete`
BEFORE DELETE ON `audit_archives`
BEGIN
  SELECT RAISE(ABORT, 'audit_archives is append-only');
END;
