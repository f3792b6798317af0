ALTER TABLE `email_outbox` ADD `dedupe_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `email_outbox_dedupe_key_unique` ON `email_outbox` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `transactions_user_status_recent_idx` ON `transactions` (`user_id`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `transactions_user_type_recent_idx` ON `transactions` (`user_id`,`transaction_type`,`created_at`,`id`);