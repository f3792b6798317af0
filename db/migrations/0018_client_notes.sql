-- Client notes and flags (docs/product.md, "Back-office roles", "Client notes"): the back office's own notes on a
-- client, never shown to the client. Append-only: a mistake is corrected by a new note pointing to the old one.
-- Written with uppercase BEGIN/END and LF line endings: D1's remote migration path splits statements on them.
CREATE TABLE `client_notes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`author_id` text NOT NULL,
	`body` text NOT NULL,
	`corrects_id` integer,
	`flags_added` text DEFAULT '[]' NOT NULL,
	`flags_removed` text DEFAULT '[]' NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`retain_until` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`corrects_id`) REFERENCES `client_notes`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "client_notes_body" CHECK(length(trim("client_notes"."body")) BETWEEN 1 AND 2000),
	CONSTRAINT "client_notes_flags" CHECK(json_valid("client_notes"."flags_added") AND json_type("client_notes"."flags_added") = 'array' AND json_valid("client_notes"."flags_removed") AND json_type("client_notes"."flags_removed") = 'array')
);
--> statement-breakpoint
CREATE INDEX `client_notes_user_idx` ON `client_notes` (`user_id`,`id`);
--> statement-breakpoint
CREATE INDEX `client_notes_corrects_idx` ON `client_notes` (`corrects_id`) WHERE "client_notes"."corrects_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX `client_notes_retain_idx` ON `client_notes` (`retain_until`) WHERE "client_notes"."retain_until" IS NOT NULL;
--> statement-breakpoint
-- A client's current flags, as the notes so far leave them: kept by the trigger below, so the desk's list filters by
-- a flag with one look-up of the primary key.
CREATE TABLE `client_flags` (
	`user_id` text NOT NULL,
	`flag` text NOT NULL,
	`note_id` integer NOT NULL,
	PRIMARY KEY(`user_id`, `flag`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "client_flags_flag" CHECK("client_flags"."flag" IN ('watch', 'vip', 'do_not_contact'))
);
--> statement-breakpoint
-- What a note may be: written by an admin, about a client, with known flags (none both set and cleared), and a
-- correction of a live note of the same client.
CREATE TRIGGER `client_notes_valid`
BEFORE INSERT ON `client_notes`
BEGIN
  SELECT RAISE(ABORT, 'a client note is written by an admin')
  WHERE (SELECT `role` FROM `users` WHERE `id` = NEW.author_id) IS NOT 'admin';
  SELECT RAISE(ABORT, 'a client note is about a client')
  WHERE (SELECT `role` FROM `users` WHERE `id` = NEW.user_id) IS NOT 'user';
  SELECT RAISE(ABORT, 'a client note carries only known flags')
  WHERE EXISTS (SELECT 1 FROM json_each(NEW.flags_added) WHERE `value` NOT IN ('watch', 'vip', 'do_not_contact'))
     OR EXISTS (SELECT 1 FROM json_each(NEW.flags_removed) WHERE `value` NOT IN ('watch', 'vip', 'do_not_contact'))
     OR EXISTS (SELECT 1 FROM json_each(NEW.flags_added) a JOIN json_each(NEW.flags_removed) r ON a.`value` = r.`value`);
  SELECT RAISE(ABORT, 'a correction points to a note of the same client')
  WHERE NEW.corrects_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM `client_notes` WHERE `id` = NEW.corrects_id AND `user_id` = NEW.user_id
                    AND `retain_until` IS NULL);
  SELECT RAISE(ABORT, 'a new client note is not retained yet') WHERE NEW.retain_until IS NOT NULL;
END;
--> statement-breakpoint
-- The flags projection follows each note: what it sets is set (by this note), what it clears is cleared.
CREATE TRIGGER `client_notes_flags_after_insert`
AFTER INSERT ON `client_notes`
BEGIN
  DELETE FROM `client_flags`
  WHERE `user_id` = NEW.user_id AND `flag` IN (SELECT `value` FROM json_each(NEW.flags_removed));
  INSERT INTO `client_flags` (`user_id`, `flag`, `note_id`)
  SELECT NEW.user_id, `value`, NEW.id FROM json_each(NEW.flags_added) WHERE true
  ON CONFLICT (`user_id`, `flag`) DO UPDATE SET `note_id` = excluded.note_id;
END;
--> statement-breakpoint
-- Append-only: the only change a note ever takes is the start of its retention, once, when the client's data is
-- deleted.
CREATE TRIGGER `client_notes_no_update`
BEFORE UPDATE ON `client_notes`
WHEN OLD.retain_until IS NOT NULL OR NEW.retain_until IS NULL
  OR NEW.id IS NOT OLD.id OR NEW.user_id IS NOT OLD.user_id OR NEW.author_id IS NOT OLD.author_id
  OR NEW.body IS NOT OLD.body OR NEW.corrects_id IS NOT OLD.corrects_id OR NEW.flags_added IS NOT OLD.flags_added
  OR NEW.flags_removed IS NOT OLD.flags_removed OR NEW.created_at IS NOT OLD.created_at
BEGIN
  SELECT RAISE(ABORT, 'client notes are append-only');
END;
--> statement-breakpoint
-- Deleted only by the retention purge: a note is kept until its retain_until, which the client's data deletion sets.
CREATE TRIGGER `client_notes_kept_until_retained`
BEFORE DELETE ON `client_notes`
WHEN OLD.retain_until IS NULL OR OLD.retain_until > CAST(unixepoch('subsec') * 1000 AS INTEGER)
BEGIN
  SELECT RAISE(ABORT, 'client notes are append-only and kept until their retain_until');
END;
