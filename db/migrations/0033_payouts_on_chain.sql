-- Payouts on chain (docs/product.md, "Payouts on chain"; docs/decisions/0068): the transaction an admin records as
-- a withdrawal's payout, and what the watcher found of it.
CREATE TABLE `chain_payouts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`transaction_id` integer NOT NULL,
	`user_id` text NOT NULL,
	`asset` text NOT NULL,
	`txid` text NOT NULL,
	`recorded_by` text NOT NULL,
	`recorded_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`status` text DEFAULT 'recorded' NOT NULL,
	`problem` text,
	`output_index` integer,
	`amount_units` text,
	`fee_units` text,
	`usd_cents` integer,
	`usd_rate` text,
	`rate_at` integer,
	`block_height` integer,
	`confirmations` integer DEFAULT 0 NOT NULL,
	`missing_since` integer,
	`checked_at` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "chain_payouts_asset" CHECK("chain_payouts"."asset" IN ('BTC', 'ETH', 'USDT_ERC20')),
	CONSTRAINT "chain_payouts_status" CHECK("chain_payouts"."status" IN ('recorded', 'matched', 'confirmed', 'mismatch')),
	CONSTRAINT "chain_payouts_txid" CHECK("chain_payouts"."txid" = lower("chain_payouts"."txid")),
	CONSTRAINT "chain_payouts_matched_has_output" CHECK("chain_payouts"."status" IN ('recorded', 'mismatch') OR "chain_payouts"."output_index" IS NOT NULL),
	CONSTRAINT "chain_payouts_confirmations" CHECK("chain_payouts"."confirmations" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chain_payouts_withdrawal_uq` ON `chain_payouts` (`transaction_id`) WHERE status <> 'mismatch';--> statement-breakpoint
CREATE UNIQUE INDEX `chain_payouts_output_uq` ON `chain_payouts` (`asset`,`txid`,`output_index`) WHERE status IN ('matched', 'confirmed');--> statement-breakpoint
CREATE INDEX `chain_payouts_open_idx` ON `chain_payouts` (`checked_at`) WHERE status IN ('recorded', 'matched');--> statement-breakpoint
CREATE INDEX `chain_payouts_user_idx` ON `chain_payouts` (`user_id`,`transaction_id`);
--> statement-breakpoint
-- A payout pays an approved withdrawal of the client it names: never a pending, rejected or cancelled one, never a
-- deposit, never another client's.
CREATE TRIGGER `chain_payouts_pay_approved_withdrawals`
BEFORE INSERT ON `chain_payouts`
WHEN NOT EXISTS (SELECT 1 FROM `transactions` WHERE `id` = NEW.transaction_id AND `user_id` = NEW.user_id
                   AND `transaction_type` = 'withdraw' AND `status` = 'approved')
BEGIN
  SELECT RAISE(ABORT, 'a payout pays an approved withdrawal of its client');
END;
--> statement-breakpoint
-- What was recorded stays as it was recorded; only the watcher's findings change.
CREATE TRIGGER `chain_payouts_keep_what_was_recorded`
BEFORE UPDATE OF `transaction_id`, `user_id`, `asset`, `txid`, `recorded_by`, `recorded_at` ON `chain_payouts`
BEGIN
  SELECT RAISE(ABORT, 'a recorded payout keeps its withdrawal, transaction and recorder');
END;
--> statement-breakpoint
-- A confirmed or refused payout is final: the client's record of it never changes after.
CREATE TRIGGER `chain_payouts_settled_are_final`
BEFORE UPDATE ON `chain_payouts`
WHEN OLD.status IN ('confirmed', 'mismatch')
BEGIN
  SELECT RAISE(ABORT, 'a settled payout is final');
END;
--> statement-breakpoint
CREATE TRIGGER `chain_payouts_no_delete`
BEFORE DELETE ON `chain_payouts`
BEGIN
  SELECT RAISE(ABORT, 'a recorded payout is kept');
END;
--> statement-breakpoint
CREATE TRIGGER `chain_payouts_recorded_by_role`
BEFORE INSERT ON `chain_payouts`
WHEN NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.recorded_by AND `role` IN ('approver', 'owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow recording a payout');
END;
