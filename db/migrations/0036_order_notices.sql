-- The outbox trigger writes to both tables rebuilt below: it goes first and comes back, knowing orders, at the end.
DROP TRIGGER `email_outbox_notifies`;--> statement-breakpoint
CREATE TABLE `__new_mail_preferences` (
	`user_id` text NOT NULL,
	`category` text NOT NULL,
	`wanted` integer NOT NULL,
	`updated_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	PRIMARY KEY(`user_id`, `category`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "mail_preferences_category" CHECK("__new_mail_preferences"."category" IN ('requests', 'entries', 'verification', 'orders')),
	CONSTRAINT "mail_preferences_wanted" CHECK("__new_mail_preferences"."wanted" IN (0, 1))
);
--> statement-breakpoint
INSERT INTO `__new_mail_preferences`("user_id", "category", "wanted", "updated_at") SELECT "user_id", "category", "wanted", "updated_at" FROM `mail_preferences`;--> statement-breakpoint
DROP TABLE `mail_preferences`;--> statement-breakpoint
ALTER TABLE `__new_mail_preferences` RENAME TO `mail_preferences`;--> statement-breakpoint
CREATE TABLE `__new_notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`subject` text NOT NULL,
	`data` text NOT NULL,
	`dedupe_key` text,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`read_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "notifications_kind" CHECK("__new_notifications"."kind" IN ('request_decided', 'entry_posted', 'verification_decided', 'verification_restricted', 'security_notice', 'order_filled'))
);
--> statement-breakpoint
INSERT INTO `__new_notifications`("id", "user_id", "kind", "subject", "data", "dedupe_key", "created_at", "read_at") SELECT "id", "user_id", "kind", "subject", "data", "dedupe_key", "created_at", "read_at" FROM `notifications`;--> statement-breakpoint
DROP TABLE `notifications`;--> statement-breakpoint
ALTER TABLE `__new_notifications` RENAME TO `notifications`;--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_dedupe_key_unique` ON `notifications` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `notifications_user_newest_idx` ON `notifications` (`user_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `notifications_unread_idx` ON `notifications` (`user_id`) WHERE "notifications"."read_at" IS NULL;--> statement-breakpoint
-- As in 0025, with the order notices: a buy, a cancel or a sale is about its position or sale, and is an optional
-- mail of the 'orders' category.
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
--> statement-breakpoint
-- Deleting a client's data removes their ledger: positions still open would keep reserving against nothing. The
-- deletion's batch deletes the profile, so this refuses the whole batch while any position is open.
CREATE TRIGGER `profiles_kept_while_positions_open`
BEFORE DELETE ON `profiles`
WHEN EXISTS (SELECT 1 FROM positions WHERE user_id = OLD.user_id AND status = 'open')
BEGIN
  SELECT RAISE(ABORT, 'the client holds open positions');
END;
