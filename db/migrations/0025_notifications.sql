-- The notification centre and mail preferences (docs/product.md, "Notifications"; docs/decisions/0048).
-- A notification is written by the outbox insert of the client's mail about the same event, in the same statement
-- (the trigger below), so the two are stored together or not at all and a retried event adds neither twice.
-- Written with uppercase BEGIN/END and LF line endings: D1's remote migration path splits statements on them.
CREATE TABLE `notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`subject` text NOT NULL,
	`data` text NOT NULL,
	`dedupe_key` text,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`read_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "notifications_kind" CHECK("notifications"."kind" IN ('request_decided', 'entry_posted', 'verification_decided', 'verification_restricted', 'security_notice'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_dedupe_key_unique` ON `notifications` (`dedupe_key`);
--> statement-breakpoint
CREATE INDEX `notifications_user_newest_idx` ON `notifications` (`user_id`,`created_at`,`id`);
--> statement-breakpoint
CREATE INDEX `notifications_unread_idx` ON `notifications` (`user_id`) WHERE "notifications"."read_at" IS NULL;
--> statement-breakpoint
CREATE TABLE `mail_preferences` (
	`user_id` text NOT NULL,
	`category` text NOT NULL,
	`wanted` integer NOT NULL,
	`updated_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	PRIMARY KEY(`user_id`, `category`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "mail_preferences_category" CHECK("mail_preferences"."category" IN ('requests', 'entries', 'verification')),
	CONSTRAINT "mail_preferences_wanted" CHECK("mail_preferences"."wanted" IN (0, 1))
);
--> statement-breakpoint
-- Before the outbox row is stored: the client's notification of the same event (clients only, never an admin; at
-- most one per dedupe key, so a retried event whose mail is already queued adds nothing), then the mail itself is
-- left out (RAISE(IGNORE): the row is not inserted, the statement goes on) when it is an optional mail the client
-- turned off. Security and legal notices have no category here, so they are always queued. The template to
-- category map is MAIL_CATEGORIES in app/lib/mail-preferences.ts; a test holds the two together.
CREATE TRIGGER `email_outbox_notifies` BEFORE INSERT ON `email_outbox`
FOR EACH ROW
BEGIN
	INSERT INTO notifications (user_id, kind, subject, data, dedupe_key, created_at)
	SELECT u.id, NEW.template,
		CASE
			WHEN NEW.template IN ('request_decided', 'entry_posted')
				THEN 'transaction:' || coalesce(json_extract(NEW.payload, '$.transactionId'), '')
			WHEN NEW.template = 'security_notice'
				THEN 'security:' || coalesce(json_extract(NEW.payload, '$.event'), '')
			ELSE 'verification'
		END,
		NEW.payload, NEW.dedupe_key, coalesce(NEW.created_at, CAST(unixepoch('subsec') * 1000 AS INTEGER))
	FROM users u
	WHERE NEW.template IN ('request_decided', 'entry_posted', 'verification_decided', 'verification_restricted', 'security_notice')
		AND u.email = NEW.to_address AND u.role = 'user'
		AND (NEW.dedupe_key IS NULL OR NOT EXISTS (SELECT 1 FROM notifications n WHERE n.dedupe_key = NEW.dedupe_key));
	SELECT RAISE(IGNORE)
	FROM users u
	JOIN mail_preferences mp ON mp.user_id = u.id AND mp.wanted = 0
	WHERE u.email = NEW.to_address
		AND mp.category = CASE NEW.template
			WHEN 'withdrawal_receipt' THEN 'requests'
			WHEN 'request_decided' THEN 'requests'
			WHEN 'entry_posted' THEN 'entries'
			WHEN 'verification_decided' THEN 'verification'
		END;
END;
