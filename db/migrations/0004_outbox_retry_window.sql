ALTER TABLE `email_outbox` ADD `failed_at` integer;--> statement-breakpoint
ALTER TABLE `email_outbox` ADD `requeued_at` integer;--> statement-breakpoint
CREATE INDEX `email_outbox_open_idx` ON `email_outbox` (`created_at`,`id`) WHERE status IN ('pending', 'failed');--> statement-breakpoint
CREATE INDEX `email_outbox_failed_idx` ON `email_outbox` (`failed_at`) WHERE status = 'failed';--> statement-breakpoint
-- Rows failed before this migration: the old code set next_attempt_at to the moment it gave up.
UPDATE `email_outbox` SET `failed_at` = `next_attempt_at` WHERE `status` = 'failed' AND `failed_at` IS NULL;
