-- Two holes in the money controls.
-- 1. How a session proved its second factor: only an authenticator's code counts for step-up, not a recovery
--    code. Sessions from before this migration have no method recorded, so none of them counts as fresh: their
--    next money act asks for a code once.
-- 2. Approving a client's deposit or stock deposit at or above the threshold waits for a second admin, as a
--    withdrawal's approval did: the kind 'withdrawal_approval' becomes 'request_approval' (the proposal's
--    transaction_type says which request). SQLite cannot change a CHECK in place, so `proposals` is rebuilt
--    (copied, dropped, renamed) and its indexes and triggers are made again below, as 0007 made them. Uppercase
--    BEGIN/END and LF line endings, as in 0001.
CREATE TABLE `__new_proposals` (
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
	CONSTRAINT "proposals_kind" CHECK("kind" IN ('ledger_entry', 'request_approval', 'wallet_change')),
	CONSTRAINT "proposals_status" CHECK("status" IN ('pending', 'approved', 'rejected', 'expired')),
	CONSTRAINT "proposals_amount_positive" CHECK("amount_cents" IS NULL OR "amount_cents" > 0),
	CONSTRAINT "proposals_entry_complete" CHECK("kind" <> 'ledger_entry' OR ("user_id" IS NOT NULL AND "transaction_type" IS NOT NULL
          AND "amount_cents" IS NOT NULL AND length(trim(coalesce("note", ''))) > 0)),
	CONSTRAINT "proposals_request_complete" CHECK("kind" <> 'request_approval' OR ("user_id" IS NOT NULL AND "transaction_id" IS NOT NULL
          AND "transaction_type" IS NOT NULL)),
	CONSTRAINT "proposals_wallet_complete" CHECK("kind" <> 'wallet_change' OR ("wallet_id" IS NOT NULL AND "old_address" IS NOT NULL
          AND "new_address" IS NOT NULL))
);
--> statement-breakpoint
INSERT INTO `__new_proposals`("id", "kind", "status", "user_id", "transaction_id", "transaction_type", "amount_cents", "trading_pair", "stock", "wallet_id", "wallet_type", "old_address", "new_address", "note", "idempotency_key", "proposed_by", "proposed_at", "expires_at", "decided_by", "decided_at", "decision_reason") SELECT "id", CASE "kind" WHEN 'withdrawal_approval' THEN 'request_approval' ELSE "kind" END, "status", "user_id", "transaction_id", "transaction_type", "amount_cents", "trading_pair", "stock", "wallet_id", "wallet_type", "old_address", "new_address", "note", "idempotency_key", "proposed_by", "proposed_at", "expires_at", "decided_by", "decided_at", "decision_reason" FROM `proposals`;--> statement-breakpoint
DROP TABLE `proposals`;--> statement-breakpoint
ALTER TABLE `__new_proposals` RENAME TO `proposals`;--> statement-breakpoint
CREATE UNIQUE INDEX `proposals_proposer_idempotency_uq` ON `proposals` (`proposed_by`,`idempotency_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `proposals_pending_request_uq` ON `proposals` (`transaction_id`) WHERE kind = 'request_approval' AND status = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX `proposals_pending_wallet_uq` ON `proposals` (`wallet_id`) WHERE kind = 'wallet_change' AND status = 'pending';--> statement-breakpoint
CREATE INDEX `proposals_pending_idx` ON `proposals` (`proposed_at`,`id`) WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX `proposals_user_idx` ON `proposals` (`user_id`,`status`,`proposed_at`);--> statement-breakpoint
ALTER TABLE `sessions` ADD `second_factor_method` text;
--> statement-breakpoint
-- The guards of 0007 went with the old table: the same again, with 'request_approval'.
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
  OR (OLD.kind = 'request_approval' AND NEW.transaction_id IS NOT OLD.transaction_id)
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
