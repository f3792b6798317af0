CREATE TABLE `mail_archives` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`object_key` text NOT NULL,
	`month` text NOT NULL,
	`row_count` integer NOT NULL,
	`sha256` text NOT NULL,
	`bytes` integer NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mail_archives_object_key_unique` ON `mail_archives` (`object_key`);--> statement-breakpoint
CREATE TABLE `__new_email_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`to_address` text NOT NULL,
	`template` text NOT NULL,
	`payload` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`last_error` text,
	`provider_id` text,
	`dedupe_key` text,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`sent_at` integer,
	`failed_at` integer,
	`requeued_at` integer,
	`archive_id` integer,
	FOREIGN KEY (`archive_id`) REFERENCES `mail_archives`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "email_outbox_status" CHECK("__new_email_outbox"."status" IN ('pending', 'sent', 'captured', 'failed')),
	CONSTRAINT "email_outbox_body_kept" CHECK("__new_email_outbox"."payload" IS NOT NULL OR "__new_email_outbox"."archive_id" IS NOT NULL)
);
--> statement-breakpoint
INSERT INTO `__new_email_outbox`("id", "to_address", "template", "payload", "status", "attempts", "next_attempt_at", "last_error", "provider_id", "dedupe_key", "created_at", "sent_at", "failed_at", "requeued_at") SELECT "id", "to_address", "template", "payload", "status", "attempts", "next_attempt_at", "last_error", "provider_id", "dedupe_key", "created_at", "sent_at", "failed_at", "requeued_at" FROM `email_outbox`;--> statement-breakpoint
DROP TABLE `email_outbox`;--> statement-breakpoint
ALTER TABLE `__new_email_outbox` RENAME TO `email_outbox`;--> statement-breakpoint
CREATE UNIQUE INDEX `email_outbox_dedupe_key_unique` ON `email_outbox` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `email_outbox_due_idx` ON `email_outbox` (`next_attempt_at`) WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX `email_outbox_unarchived_idx` ON `email_outbox` (`created_at`) WHERE status IN ('sent', 'captured') AND archive_id IS NULL;--> statement-breakpoint
CREATE INDEX `email_outbox_open_idx` ON `email_outbox` (`created_at`,`id`) WHERE status IN ('pending', 'failed');--> statement-breakpoint
CREATE INDEX `email_outbox_failed_idx` ON `email_outbox` (`failed_at`) WHERE status = 'failed';--> statement-breakpoint
CREATE INDEX `email_outbox_recipient_idx` ON `email_outbox` (`to_address`,`created_at`);--> statement-breakpoint
-- The rebuild dropped the table's trigger: the same notification trigger as migration 0036's, made again.
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
			WHEN NEW.template = 'order_filled'
				THEN 'order:' || coalesce(json_extract(NEW.payload, '$.serial'), '')
			ELSE 'verification'
		END,
		NEW.payload, NEW.dedupe_key, coalesce(NEW.created_at, CAST(unixepoch('subsec') * 1000 AS INTEGER))
	FROM users u
	WHERE NEW.template IN ('request_decided', 'entry_posted', 'verification_decided', 'verification_restricted', 'security_notice', 'order_filled')
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
			WHEN 'order_filled' THEN 'orders'
		END;
END;
