CREATE TABLE `oauth_accounts` (
	`provider` text NOT NULL,
	`provider_user_id` text NOT NULL,
	`user_id` text NOT NULL,
	`email` text NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	PRIMARY KEY(`provider`, `provider_user_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "oauth_accounts_provider" CHECK("oauth_accounts"."provider" IN ('google', 'github'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `oauth_accounts_user_provider_uq` ON `oauth_accounts` (`user_id`,`provider`);--> statement-breakpoint
CREATE TABLE `oauth_pending` (
	`id` text PRIMARY KEY NOT NULL,
	`purpose` text NOT NULL,
	`provider` text NOT NULL,
	`provider_user_id` text NOT NULL,
	`email` text NOT NULL,
	`first_name` text DEFAULT '' NOT NULL,
	`last_name` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`expires_at` integer NOT NULL,
	CONSTRAINT "oauth_pending_purpose" CHECK("oauth_pending"."purpose" IN ('register', 'link'))
);
--> statement-breakpoint
CREATE TABLE `recovery_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`code_hash` text NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `recovery_codes_user_hash_uq` ON `recovery_codes` (`user_id`,`code_hash`);--> statement-breakpoint
CREATE TABLE `sign_in_challenges` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`redirect_to` text,
	`method` text DEFAULT 'password' NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sign_in_challenges_user_idx` ON `sign_in_challenges` (`user_id`);--> statement-breakpoint
CREATE TABLE `sign_in_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`result` text NOT NULL,
	`method` text DEFAULT 'password' NOT NULL,
	`user_agent` text,
	`country` text,
	`city` text,
	`device_hash` text,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "sign_in_events_result" CHECK("sign_in_events"."result" IN ('success', 'wrong_password', 'wrong_code', 'locked'))
);
--> statement-breakpoint
CREATE INDEX `sign_in_events_user_idx` ON `sign_in_events` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `sign_in_events_device_idx` ON `sign_in_events` (`user_id`,`device_hash`);--> statement-breakpoint
CREATE TABLE `two_factor` (
	`user_id` text PRIMARY KEY NOT NULL,
	`secret_encrypted` text NOT NULL,
	`confirmed_at` integer,
	`last_used_step` integer,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `sessions` ADD `user_agent` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `country` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `city` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `second_factor_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `two_factor_suggestion_dismissed_at` integer;