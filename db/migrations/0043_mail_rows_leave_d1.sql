-- Archived mail's compact outbox rows leave D1 13 months on (docs/decisions/0075, its update): each archive object
-- already holds its rows whole (recipient, template, status, times, provider id, dedupe key and body). What stays is
-- who the object's mails went to, one row per recipient, month and object, which /admin/mail's search by recipient
-- and month reads to open only the objects it needs. Read only by its key: a WITHOUT ROWID table.
CREATE TABLE `mail_archive_recipients` (
	`to_address` text NOT NULL,
	`month` text NOT NULL,
	`archive_id` integer NOT NULL,
	PRIMARY KEY(`to_address`, `month`, `archive_id`),
	FOREIGN KEY (`archive_id`) REFERENCES `mail_archives`(`id`) ON UPDATE no action ON DELETE no action
) WITHOUT ROWID;
--> statement-breakpoint
ALTER TABLE `mail_archives` ADD `rows_left_at` integer;
--> statement-breakpoint
CREATE INDEX `mail_archives_rows_in_d1_idx` ON `mail_archives` (`month`) WHERE rows_left_at IS NULL;
--> statement-breakpoint
-- An archived mail's row leaves D1 only once the search can still find it: its archive object recorded and its
-- recipient listed for that object. Rows not archived (pending, failed, or delivered less than 30 days ago) are
-- not this guard's business.
CREATE TRIGGER `email_outbox_leaves_only_findable`
BEFORE DELETE ON `email_outbox`
WHEN OLD.archive_id IS NOT NULL AND NOT EXISTS (
  SELECT 1 FROM mail_archive_recipients r
  JOIN mail_archives a ON a.id = r.archive_id
  WHERE r.to_address = OLD.to_address AND r.archive_id = OLD.archive_id
    AND r.month = strftime('%Y-%m', OLD.created_at / 1000, 'unixepoch') AND a.month = r.month
)
BEGIN
  SELECT RAISE(ABORT, 'an archived mail leaves D1 only once its recipient is listed for its archive object');
END;
