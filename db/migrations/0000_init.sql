CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`actor_id` text,
	`action` text NOT NULL,
	`target` text,
	`detail` text,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_log_created_idx` ON `audit_log` (`created_at`);--> statement-breakpoint
CREATE INDEX `audit_log_actor_idx` ON `audit_log` (`actor_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `audit_log_target_idx` ON `audit_log` (`target`,`created_at`);--> statement-breakpoint
CREATE TABLE `auth_failures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`scope` text NOT NULL,
	`key` text NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `auth_failures_key_idx` ON `auth_failures` (`scope`,`key`,`created_at`);--> statement-breakpoint
CREATE TABLE `auth_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`purpose` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "auth_tokens_purpose" CHECK("auth_tokens"."purpose" IN ('reset', 'confirm'))
);
--> statement-breakpoint
CREATE INDEX `auth_tokens_user_idx` ON `auth_tokens` (`user_id`,`purpose`);--> statement-breakpoint
CREATE TABLE `deposit_wallets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`wallet_type` text NOT NULL,
	`wallet_address` text NOT NULL,
	`updated_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`updated_by` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `deposit_wallets_wallet_type_unique` ON `deposit_wallets` (`wallet_type`);--> statement-breakpoint
CREATE TABLE `email_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`to_address` text NOT NULL,
	`template` text NOT NULL,
	`payload` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`last_error` text,
	`provider_id` text,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`sent_at` integer,
	CONSTRAINT "email_outbox_status" CHECK("email_outbox"."status" IN ('pending', 'sent', 'captured', 'failed'))
);
--> statement-breakpoint
CREATE INDEX `email_outbox_due_idx` ON `email_outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `profiles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`email` text NOT NULL,
	`first_name` text DEFAULT '' NOT NULL,
	`last_name` text DEFAULT '' NOT NULL,
	`phone_number` text,
	`username` text,
	`country` text,
	`referral_id` text,
	`balance_cents` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`role` text DEFAULT 'user' NOT NULL,
	`total_trades` integer DEFAULT 0 NOT NULL,
	`win_rate` real DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`updated_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "profiles_status" CHECK("profiles"."status" IN ('active', 'suspended')),
	CONSTRAINT "profiles_role" CHECK("profiles"."role" IN ('user', 'admin'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `profiles_user_id_unique` ON `profiles` (`user_id`);--> statement-breakpoint
CREATE TABLE `profiles_archive` (
	`archive_id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` integer NOT NULL,
	`user_id` text NOT NULL,
	`email` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`phone_number` text,
	`username` text,
	`country` text,
	`referral_id` text,
	`balance_cents` integer NOT NULL,
	`status` text NOT NULL,
	`role` text NOT NULL,
	`total_trades` integer NOT NULL,
	`win_rate` real NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`archived_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`archived_by` text
);
--> statement-breakpoint
CREATE INDEX `profiles_archive_user_idx` ON `profiles_archive` (`user_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`last_seen_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `transactions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`transaction_type` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`wallet_address` text,
	`withdrawal_wallet_address` text,
	`balance_after_cents` integer,
	`trading_pair` text,
	`stock` text,
	`idempotency_key` text,
	`created_by` text,
	`decided_by` text,
	`decided_at` integer,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "transactions_amount_positive" CHECK("transactions"."amount_cents" > 0),
	CONSTRAINT "transactions_type" CHECK("transactions"."transaction_type" IN ('deposit', 'stock_deposit', 'fee_deposit', 'withdraw', 'profit', 'loss')),
	CONSTRAINT "transactions_status" CHECK("transactions"."status" IN ('pending', 'approved', 'rejected')),
	CONSTRAINT "transactions_stock_deposit_has_stock" CHECK("transactions"."transaction_type" <> 'stock_deposit' OR "transactions"."stock" IS NOT NULL)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `transactions_user_idempotency_uq` ON `transactions` (`user_id`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `transactions_user_recent_idx` ON `transactions` (`user_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `transactions_user_totals_idx` ON `transactions` (`user_id`,`status`,`transaction_type`,`amount_cents`);--> statement-breakpoint
CREATE INDEX `transactions_pending_idx` ON `transactions` (`created_at`) WHERE status = 'pending';--> statement-breakpoint
CREATE TABLE `transactions_archive` (
	`id` integer PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`transaction_type` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`wallet_address` text,
	`withdrawal_wallet_address` text,
	`balance_after_cents` integer,
	`trading_pair` text,
	`stock` text,
	`idempotency_key` text,
	`created_by` text,
	`decided_by` text,
	`decided_at` integer,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`archived_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`archived_by` text
);
--> statement-breakpoint
CREATE INDEX `transactions_archive_user_idx` ON `transactions_archive` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`role` text DEFAULT 'user' NOT NULL,
	`email_confirmed_at` integer,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`last_login_at` integer,
	CONSTRAINT "users_email_lower" CHECK("users"."email" = lower("users"."email")),
	CONSTRAINT "users_role" CHECK("users"."role" IN ('user', 'admin'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE TABLE `withdrawal_wallets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`transaction_id` integer,
	`wallet_address` text NOT NULL,
	`crypto_currency` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `withdrawal_wallets_user_idx` ON `withdrawal_wallets` (`user_id`);