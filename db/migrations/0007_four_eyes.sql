-- Four eyes and cancellable requests. `transactions` gains the status 'cancelled' and the decision's reason:
-- SQLite cannot change a CHECK in place, so the table is rebuilt (copied, dropped, renamed) and its indexes and
-- triggers are made again below. Uppercase BEGIN/END and LF line endings, as in 0001.
CREATE TABLE `proposals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`user_id` text,
	`transaction_id` integer,
	`transaction_type` text,
	`amount_cents` integer,
	`trading_pair` text,
	`stock` text,
	`wallet_id` integer,
	`wallet_type` text,
	`old_address` text,
	`new_address` text,
	`note` text,
	`idempotency_key` text,
	`proposed_by` text NOT NULL,
	`proposed_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`expires_at` integer NOT NULL,
	`decided_by` text,
	`decided_at` integer,
	`decision_reason` text,
	CONSTRAINT "proposals_kind" CHECK("proposals"."kind" IN ('ledger_entry', 'withdrawal_approval', 'wallet_change')),
	CONSTRAINT "proposals_status" CHECK("proposals"."status" IN ('pending', 'approved', 'rejected', 'expired')),
	CONSTRAINT "proposals_amount_positive" CHECK("proposals"."amount_cents" IS NULL OR "proposals"."amount_cents" > 0),
	CONSTRAINT "proposals_entry_complete" CHECK("proposals"."kind" <> 'ledger_entry' OR ("proposals"."user_id" IS NOT NULL AND "proposals"."transaction_type" IS NOT NULL
          AND "proposals"."amount_cents" IS NOT NULL AND length(trim(coalesce("proposals"."note", ''))) > 0)),
	CONSTRAINT "proposals_withdrawal_complete" CHECK("proposals"."kind" <> 'withdrawal_approval' OR ("proposals"."user_id" IS NOT NULL AND "proposals"."transaction_id" IS NOT NULL)),
	CONSTRAINT "proposals_wallet_complete" CHECK("proposals"."kind" <> 'wallet_change' OR ("proposals"."wallet_id" IS NOT NULL AND "proposals"."old_address" IS NOT NULL
          AND "proposals"."new_address" IS NOT NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `proposals_proposer_idempotency_uq` ON `proposals` (`proposed_by`,`idempotency_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `proposals_pending_withdrawal_uq` ON `proposals` (`transaction_id`) WHERE kind = 'withdrawal_approval' AND status = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX `proposals_pending_wallet_uq` ON `proposals` (`wallet_id`) WHERE kind = 'wallet_change' AND status = 'pending';--> statement-breakpoint
CREATE INDEX `proposals_pending_idx` ON `proposals` (`proposed_at`,`id`) WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX `proposals_user_idx` ON `proposals` (`user_id`,`status`,`proposed_at`);--> statement-breakpoint
CREATE TABLE `__new_transactions` (
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
	`decision_reason` text,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "transactions_amount_positive" CHECK("amount_cents" > 0),
	CONSTRAINT "transactions_type" CHECK("transaction_type" IN ('deposit', 'stock_deposit', 'fee_deposit', 'withdraw', 'profit', 'loss')),
	CONSTRAINT "transactions_status" CHECK("status" IN ('pending', 'approved', 'rejected', 'cancelled')),
	CONSTRAINT "transactions_stock_deposit_has_stock" CHECK("transaction_type" <> 'stock_deposit' OR "stock" IS NOT NULL)
);
--> statement-breakpoint
INSERT INTO `__new_transactions`("id", "user_id", "transaction_type", "amount_cents", "status", "wallet_address", "withdrawal_wallet_address", "balance_after_cents", "trading_pair", "stock", "idempotency_key", "created_by", "decided_by", "decided_at", "decision_reason", "created_at") SELECT "id", "user_id", "transaction_type", "amount_cents", "status", "wallet_address", "withdrawal_wallet_address", "balance_after_cents", "trading_pair", "stock", "idempotency_key", "created_by", "decided_by", "decided_at", NULL, "created_at" FROM `transactions`;
--> statement-breakpoint
-- Ids only grow (the realtime feeds catch up on "rows after id N", archived rows keep theirs): the rebuilt
-- table continues the old one's AUTOINCREMENT counter rather than restarting at its highest remaining id.
INSERT INTO sqlite_sequence (name, seq)
SELECT '__new_transactions', 0
WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = '__new_transactions');
--> statement-breakpoint
UPDATE sqlite_sequence
SET seq = max(seq,
              coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'transactions'), 0),
              coalesce((SELECT max(id) FROM transactions_archive), 0))
WHERE name = '__new_transactions';
--> statement-breakpoint
DROP TABLE `transactions`;--> statement-breakpoint
ALTER TABLE `__new_transactions` RENAME TO `transactions`;--> statement-breakpoint
CREATE UNIQUE INDEX `transactions_user_idempotency_uq` ON `transactions` (`user_id`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `transactions_user_recent_idx` ON `transactions` (`user_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `transactions_user_status_recent_idx` ON `transactions` (`user_id`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `transactions_user_type_recent_idx` ON `transactions` (`user_id`,`transaction_type`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `transactions_pending_idx` ON `transactions` (`created_at`) WHERE status = 'pending';--> statement-breakpoint
ALTER TABLE `transactions_archive` ADD `decision_reason` text;
--> statement-breakpoint
-- The guards of 0001 and the totals of 0003 went with the old table: the same again, with 'cancelled'.
-- A decided, or cancelled, transaction never changes again.
CREATE TRIGGER `transactions_decided_are_immutable`
BEFORE UPDATE ON `transactions`
WHEN OLD.status <> 'pending'
BEGIN
  SELECT RAISE(ABORT, 'transaction already decided');
END;
--> statement-breakpoint
-- While pending, only the decision itself may be written: pending -> approved, rejected or cancelled, with who
-- decided, when, the balance after it and the reason given.
CREATE TRIGGER `transactions_pending_only_decides`
BEFORE UPDATE ON `transactions`
WHEN OLD.status = 'pending' AND (
  NEW.status NOT IN ('approved', 'rejected', 'cancelled')
  OR NEW.id IS NOT OLD.id
  OR NEW.user_id IS NOT OLD.user_id
  OR NEW.transaction_type IS NOT OLD.transaction_type
  OR NEW.amount_cents IS NOT OLD.amount_cents
  OR NEW.wallet_address IS NOT OLD.wallet_address
  OR NEW.withdrawal_wallet_address IS NOT OLD.withdrawal_wallet_address
  OR NEW.trading_pair IS NOT OLD.trading_pair
  OR NEW.stock IS NOT OLD.stock
  OR NEW.idempotency_key IS NOT OLD.idempotency_key
  OR NEW.created_by IS NOT OLD.created_by
  OR NEW.created_at IS NOT OLD.created_at
)
BEGIN
  SELECT RAISE(ABORT, 'a pending transaction may only be approved, rejected or cancelled');
END;
--> statement-breakpoint
-- Only the client who made a request may cancel it (decided_by names them), and only a request a client makes.
CREATE TRIGGER `transactions_cancel_by_owner`
BEFORE UPDATE OF `status` ON `transactions`
WHEN OLD.status = 'pending' AND NEW.status = 'cancelled' AND (
  NEW.decided_by IS NOT OLD.user_id
  OR OLD.transaction_type NOT IN ('deposit', 'stock_deposit', 'withdraw')
)
BEGIN
  SELECT RAISE(ABORT, 'only its owner may cancel a pending request');
END;
--> statement-breakpoint
-- Approve and reject are an admin's: a client can never decide a request, their own included.
CREATE TRIGGER `transactions_decided_by_admin`
BEFORE UPDATE OF `status` ON `transactions`
WHEN OLD.status = 'pending' AND NEW.status IN ('approved', 'rejected')
  AND NOT EXISTS (SELECT 1 FROM `users` WHERE `id` = NEW.decided_by AND `role` = 'admin')
BEGIN
  SELECT RAISE(ABORT, 'only an admin may approve or reject a request');
END;
--> statement-breakpoint
CREATE TRIGGER `transactions_delete_requires_archive`
BEFORE DELETE ON `transactions`
WHEN NOT EXISTS (SELECT 1 FROM `transactions_archive` WHERE `id` = OLD.id)
BEGIN
  SELECT RAISE(ABORT, 'transaction must be archived before it is deleted');
END;
--> statement-breakpoint
CREATE TRIGGER `ledger_totals_after_insert`
AFTER INSERT ON `transactions`
BEGIN
  INSERT INTO `ledger_totals` (`user_id`, `status`, `transaction_type`, `stock`, `count`, `cents`)
  VALUES (NEW.user_id, NEW.status, NEW.transaction_type, coalesce(NEW.stock, ''), 1, NEW.amount_cents)
  ON CONFLICT (`user_id`, `status`, `transaction_type`, `stock`)
  DO UPDATE SET `count` = `count` + 1, `cents` = `cents` + excluded.`cents`;
END;
--> statement-breakpoint
CREATE TRIGGER `ledger_totals_after_update`
AFTER UPDATE OF `user_id`, `status`, `transaction_type`, `stock`, `amount_cents` ON `transactions`
BEGIN
  UPDATE `ledger_totals` SET `count` = `count` - 1, `cents` = `cents` - OLD.amount_cents
  WHERE `user_id` = OLD.user_id AND `status` = OLD.status AND `transaction_type` = OLD.transaction_type
    AND `stock` = coalesce(OLD.stock, '');
  DELETE FROM `ledger_totals`
  WHERE `user_id` = OLD.user_id AND `status` = OLD.status AND `transaction_type` = OLD.transaction_type
    AND `stock` = coalesce(OLD.stock, '') AND `count` = 0;
  INSERT INTO `ledger_totals` (`user_id`, `status`, `transaction_type`, `stock`, `count`, `cents`)
  VALUES (NEW.user_id, NEW.status, NEW.transaction_type, coalesce(NEW.stock, ''), 1, NEW.amount_cents)
  ON CONFLICT (`user_id`, `status`, `transaction_type`, `stock`)
  DO UPDATE SET `count` = `count` + 1, `cents` = `cents` + excluded.`cents`;
END;
--> statement-breakpoint
CREATE TRIGGER `ledger_totals_after_delete`
AFTER DELETE ON `transactions`
BEGIN
  UPDATE `ledger_totals` SET `count` = `count` - 1, `cents` = `cents` - OLD.amount_cents
  WHERE `user_id` = OLD.user_id AND `status` = OLD.status AND `transaction_type` = OLD.transaction_type
    AND `stock` = coalesce(OLD.stock, '');
  DELETE FROM `ledger_totals`
  WHERE `user_id` = OLD.user_id AND `status` = OLD.status AND `transaction_type` = OLD.transaction_type
    AND `stock` = coalesce(OLD.stock, '') AND `count` = 0;
END;
--> statement-breakpoint
-- A proposal is decided once: approved, rejected or expired, never changed after.
CREATE TRIGGER `proposals_decided_are_immutable`
BEFORE UPDATE ON `proposals`
WHEN OLD.status <> 'pending'
BEGIN
  SELECT RAISE(ABORT, 'proposal already decided');
END;
--> statement-breakpoint
-- Four eyes: the admin who proposed never approves, and nobody approves after the proposal's expiry.
CREATE TRIGGER `proposals_second_admin_approves`
BEFORE UPDATE OF `status` ON `proposals`
WHEN OLD.status = 'pending' AND NEW.status = 'approved' AND (
  NEW.decided_by IS NULL
  OR NEW.decided_by = OLD.proposed_by
  OR NEW.decided_at IS NULL
  OR NEW.decided_at >= OLD.expires_at
  OR NOT EXISTS (SELECT 1 FROM `users` WHERE `id` = NEW.decided_by AND `role` = 'admin')
)
BEGIN
  SELECT RAISE(ABORT, 'a proposal is approved by a different admin before it expires');
END;
--> statement-breakpoint
-- While pending only the decision is written; what was proposed never changes.
CREATE TRIGGER `proposals_pending_only_decides`
BEFORE UPDATE ON `proposals`
WHEN OLD.status = 'pending' AND (
  NEW.kind IS NOT OLD.kind
  OR NEW.user_id IS NOT OLD.user_id
  OR NEW.transaction_type IS NOT OLD.transaction_type
  OR NEW.amount_cents IS NOT OLD.amount_cents
  OR NEW.trading_pair IS NOT OLD.trading_pair
  OR NEW.stock IS NOT OLD.stock
  OR NEW.wallet_id IS NOT OLD.wallet_id
  OR NEW.old_address IS NOT OLD.old_address
  OR NEW.new_address IS NOT OLD.new_address
  OR NEW.note IS NOT OLD.note
  OR NEW.proposed_by IS NOT OLD.proposed_by
  OR NEW.proposed_at IS NOT OLD.proposed_at
  OR NEW.expires_at IS NOT OLD.expires_at
  OR (OLD.kind = 'withdrawal_approval' AND NEW.transaction_id IS NOT OLD.transaction_id)
)
BEGIN
  SELECT RAISE(ABORT, 'a pending proposal may only be decided');
END;
--> statement-breakpoint
CREATE TRIGGER `proposals_no_delete`
BEFORE DELETE ON `proposals`
BEGIN
  SELECT RAISE(ABORT, 'proposals are kept');
END;
