-- Deposits on chain (docs/product.md, "Deposits on chain"; docs/decisions/0067): each client's deposit address per
-- chain and key, the payments the watcher sees to them, and how far it has read each chain. The snapshot beside this
-- migration also catches up with the tables earlier hand-written migrations created. Uppercase BEGIN/END and LF line
-- endings, as in 0022.
CREATE TABLE `chain_blocks` (
	`network` text NOT NULL,
	`height` integer NOT NULL,
	`hash` text NOT NULL,
	PRIMARY KEY(`network`, `height`)
);
--> statement-breakpoint
CREATE TABLE `chain_payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`asset` text NOT NULL,
	`network` text NOT NULL,
	`txid` text NOT NULL,
	`output_index` integer NOT NULL,
	`address` text NOT NULL,
	`user_id` text NOT NULL,
	`amount_units` text NOT NULL,
	`block_height` integer,
	`block_hash` text,
	`confirmations` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'seen' NOT NULL,
	`waiting` text,
	`transaction_id` integer,
	`usd_rate` text,
	`rate_source` text,
	`rate_at` integer,
	`seen_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`updated_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "chain_payments_asset" CHECK("chain_payments"."asset" IN ('BTC', 'ETH', 'USDT_ERC20')),
	CONSTRAINT "chain_payments_network" CHECK("chain_payments"."network" IN ('bitcoin', 'ethereum')),
	CONSTRAINT "chain_payments_status" CHECK("chain_payments"."status" IN ('seen', 'credited', 'held', 'dropped')),
	CONSTRAINT "chain_payments_output_index" CHECK("chain_payments"."output_index" >= 0),
	CONSTRAINT "chain_payments_confirmations" CHECK("chain_payments"."confirmations" >= 0),
	CONSTRAINT "chain_payments_settled_has_row" CHECK("chain_payments"."status" IN ('seen', 'dropped') OR "chain_payments"."transaction_id" IS NOT NULL)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chain_payments_output_uq` ON `chain_payments` (`asset`,`txid`,`output_index`);--> statement-breakpoint
CREATE UNIQUE INDEX `chain_payments_transaction_uq` ON `chain_payments` (`transaction_id`);--> statement-breakpoint
CREATE INDEX `chain_payments_open_idx` ON `chain_payments` (`network`,`block_height`) WHERE status = 'seen';--> statement-breakpoint
CREATE INDEX `chain_payments_user_idx` ON `chain_payments` (`user_id`,`seen_at`,`id`);--> statement-breakpoint
CREATE TABLE `chain_scans` (
	`network` text PRIMARY KEY NOT NULL,
	`height` integer NOT NULL,
	`block_hash` text NOT NULL,
	`lease_owner` text,
	`lease_until` integer DEFAULT 0 NOT NULL,
	`updated_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `deposit_keys` (
	`key_id` text PRIMARY KEY NOT NULL,
	`next_index` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `deposit_addresses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`network` text NOT NULL,
	`key_id` text NOT NULL,
	`derivation_index` integer NOT NULL,
	`address` text NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`shown_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "deposit_addresses_network" CHECK("deposit_addresses"."network" IN ('bitcoin', 'ethereum')),
	CONSTRAINT "deposit_addresses_index" CHECK("deposit_addresses"."derivation_index" >= 0 AND "deposit_addresses"."derivation_index" <= 2147483647),
	CONSTRAINT "deposit_addresses_lower_case" CHECK("deposit_addresses"."address" = lower("deposit_addresses"."address"))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `deposit_addresses_address_uq` ON `deposit_addresses` (`network`,`address`);--> statement-breakpoint
CREATE UNIQUE INDEX `deposit_addresses_key_index_uq` ON `deposit_addresses` (`key_id`,`derivation_index`);--> statement-breakpoint
CREATE UNIQUE INDEX `deposit_addresses_user_key_uq` ON `deposit_addresses` (`user_id`,`network`,`key_id`);--> statement-breakpoint
CREATE INDEX `deposit_addresses_shown_idx` ON `deposit_addresses` (`network`,`shown_at`);

--> statement-breakpoint
-- A payment credited, held for review or dropped stays so: no second credit from a row put back to 'seen'.
CREATE TRIGGER `chain_payments_settled_are_final`
BEFORE UPDATE ON `chain_payments`
WHEN OLD.status <> 'seen' AND (NEW.status IS NOT OLD.status OR NEW.transaction_id IS NOT OLD.transaction_id)
BEGIN
  SELECT RAISE(ABORT, 'a settled chain payment is final');
END;
--> statement-breakpoint
-- An address is never moved to another client or another index.
CREATE TRIGGER `deposit_addresses_no_update`
BEFORE UPDATE OF `user_id`, `network`, `key_id`, `derivation_index`, `address` ON `deposit_addresses`
BEGIN
  SELECT RAISE(ABORT, 'a deposit address is never reassigned');
END;
--> statement-breakpoint
CREATE TRIGGER `deposit_addresses_no_delete`
BEFORE DELETE ON `deposit_addresses`
BEGIN
  SELECT RAISE(ABORT, 'a deposit address is kept: payments to it are still watched');
END;
--> statement-breakpoint
-- A client cancels only a request they made: a deposit seen on chain and held for review (written by the watcher,
-- with no author) is the desk's to decide.
CREATE TRIGGER `transactions_cancel_own_requests_only`
BEFORE UPDATE OF `status` ON `transactions`
WHEN OLD.status = 'pending' AND NEW.status = 'cancelled' AND OLD.created_by IS NOT OLD.user_id
BEGIN
  SELECT RAISE(ABORT, 'only a request the client made may be cancelled');
END;
