-- The desk closes a client's position: proposals gain the kind 'position_close', with the position and the shares it
-- had open. The table is rebuilt for its CHECKs, so its triggers are made again, and the two decision guards on
-- transactions that read it go first and come back at the end.
DROP TRIGGER `transactions_withdrawal_decided_by_role`;--> statement-breakpoint
DROP TRIGGER `transactions_deposit_decided_by_role`;--> statement-breakpoint
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
	`position_id` integer,
	`shares_e4` integer,
	`note` text,
	`limit_reason` text,
	`idempotency_key` text,
	`proposed_by` text NOT NULL,
	`proposed_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`expires_at` integer NOT NULL,
	`decided_by` text,
	`decided_at` integer,
	`decision_reason` text,
	CONSTRAINT "proposals_kind" CHECK("__new_proposals"."kind" IN ('ledger_entry', 'request_approval', 'wallet_change', 'position_close')),
	CONSTRAINT "proposals_status" CHECK("__new_proposals"."status" IN ('pending', 'approved', 'rejected', 'expired')),
	CONSTRAINT "proposals_amount_positive" CHECK("__new_proposals"."amount_cents" IS NULL OR "__new_proposals"."amount_cents" > 0),
	CONSTRAINT "proposals_entry_complete" CHECK("__new_proposals"."kind" <> 'ledger_entry' OR ("__new_proposals"."user_id" IS NOT NULL AND "__new_proposals"."transaction_type" IS NOT NULL
          AND "__new_proposals"."amount_cents" IS NOT NULL AND length(trim(coalesce("__new_proposals"."note", ''))) > 0)),
	CONSTRAINT "proposals_request_complete" CHECK("__new_proposals"."kind" <> 'request_approval' OR ("__new_proposals"."user_id" IS NOT NULL AND "__new_proposals"."transaction_id" IS NOT NULL
          AND "__new_proposals"."transaction_type" IS NOT NULL)),
	CONSTRAINT "proposals_wallet_complete" CHECK("__new_proposals"."kind" <> 'wallet_change' OR ("__new_proposals"."wallet_id" IS NOT NULL AND "__new_proposals"."old_address" IS NOT NULL
          AND "__new_proposals"."new_address" IS NOT NULL)),
	CONSTRAINT "proposals_close_complete" CHECK("__new_proposals"."kind" <> 'position_close' OR ("__new_proposals"."user_id" IS NOT NULL AND "__new_proposals"."position_id" IS NOT NULL
          AND "__new_proposals"."shares_e4" > 0 AND "__new_proposals"."stock" IS NOT NULL AND "__new_proposals"."amount_cents" IS NOT NULL
          AND length(trim(coalesce("__new_proposals"."note", ''))) > 0))
);
--> statement-breakpoint
INSERT INTO `__new_proposals`("id", "kind", "status", "user_id", "transaction_id", "transaction_type", "amount_cents", "trading_pair", "stock", "wallet_id", "wallet_type", "old_address", "new_address", "position_id", "shares_e4", "note", "limit_reason", "idempotency_key", "proposed_by", "proposed_at", "expires_at", "decided_by", "decided_at", "decision_reason") SELECT "id", "kind", "status", "user_id", "transaction_id", "transaction_type", "amount_cents", "trading_pair", "stock", "wallet_id", "wallet_type", "old_address", "new_address", NULL, NULL, "note", "limit_reason", "idempotency_key", "proposed_by", "proposed_at", "expires_at", "decided_by", "decided_at", "decision_reason" FROM `proposals`;--> statement-breakpoint
DROP TABLE `proposals`;--> statement-breakpoint
ALTER TABLE `__new_proposals` RENAME TO `proposals`;--> statement-breakpoint
CREATE UNIQUE INDEX `proposals_proposer_idempotency_uq` ON `proposals` (`proposed_by`,`idempotency_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `proposals_pending_request_uq` ON `proposals` (`transaction_id`) WHERE kind = 'request_approval' AND status = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX `proposals_pending_wallet_uq` ON `proposals` (`wallet_id`) WHERE kind = 'wallet_change' AND status = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX `proposals_pending_close_uq` ON `proposals` (`position_id`) WHERE kind = 'position_close' AND status = 'pending';--> statement-breakpoint
CREATE INDEX `proposals_pending_idx` ON `proposals` (`proposed_at`,`id`) WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX `proposals_user_idx` ON `proposals` (`user_id`,`status`,`proposed_at`);--> statement-breakpoint
CREATE INDEX `proposals_transaction_idx` ON `proposals` (`transaction_id`);--> statement-breakpoint
CREATE TRIGGER `proposals_decided_are_immutable`
BEFORE UPDATE ON `proposals`
WHEN OLD.status <> 'pending'
BEGIN
  SELECT RAISE(ABORT, 'proposal already decided');
END;
--> statement-breakpoint
CREATE TRIGGER `proposals_no_delete`
BEFORE DELETE ON `proposals`
BEGIN
  SELECT RAISE(ABORT, 'proposals are kept');
END;
--> statement-breakpoint
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
  OR NEW.position_id IS NOT OLD.position_id
  OR NEW.shares_e4 IS NOT OLD.shares_e4
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
CREATE TRIGGER `transactions_withdrawal_decided_by_role`
BEFORE UPDATE OF `status` ON `transactions`
WHEN OLD.status = 'pending' AND NEW.status IN ('approved', 'rejected') AND OLD.transaction_type = 'withdraw'
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.decided_by AND `role` IN ('approver', 'owner'))
  AND NOT EXISTS (SELECT 1 FROM `proposals` p JOIN `admin_roles` r ON r.user_id = p.proposed_by
                  WHERE p.kind = 'request_approval' AND p.status = 'pending' AND p.transaction_id = OLD.id
                    AND r.role IN ('approver', 'owner'))
  AND EXISTS (SELECT 1 FROM `users` WHERE `id` = NEW.decided_by AND `role` = 'admin')
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow deciding a withdrawal');
END;
--> statement-breakpoint
CREATE TRIGGER `transactions_deposit_decided_by_role`
BEFORE UPDATE OF `status` ON `transactions`
WHEN OLD.status = 'pending' AND NEW.status IN ('approved', 'rejected') AND OLD.transaction_type <> 'withdraw'
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.decided_by AND `role` IN ('operator', 'owner'))
  AND NOT EXISTS (SELECT 1 FROM `proposals` p JOIN `admin_roles` r ON r.user_id = p.proposed_by
                  WHERE p.kind = 'request_approval' AND p.status = 'pending' AND p.transaction_id = OLD.id
                    AND r.role IN ('operator', 'owner'))
  AND EXISTS (SELECT 1 FROM `users` WHERE `id` = NEW.decided_by AND `role` = 'admin')
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow deciding a deposit');
END;
--> statement-breakpoint
CREATE TRIGGER `proposals_decided_by_role`
BEFORE UPDATE OF `status` ON `proposals`
WHEN OLD.status = 'pending' AND NEW.status IN ('approved', 'rejected')
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.decided_by AND `role` IN ('approver', 'owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow deciding a proposal');
END;
--> statement-breakpoint
CREATE TRIGGER `proposals_entry_proposed_by_role`
BEFORE INSERT ON `proposals`
WHEN NEW.kind = 'ledger_entry'
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.proposed_by AND `role` IN ('operator', 'owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow proposing a ledger entry');
END;
--> statement-breakpoint
CREATE TRIGGER `proposals_withdrawal_approval_proposed_by_role`
BEFORE INSERT ON `proposals`
WHEN NEW.kind = 'request_approval' AND NEW.transaction_type = 'withdraw'
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.proposed_by AND `role` IN ('approver', 'owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow deciding a withdrawal');
END;
--> statement-breakpoint
CREATE TRIGGER `proposals_deposit_approval_proposed_by_role`
BEFORE INSERT ON `proposals`
WHEN NEW.kind = 'request_approval' AND NEW.transaction_type IS NOT 'withdraw'
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.proposed_by AND `role` IN ('operator', 'owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow deciding a deposit');
END;
--> statement-breakpoint
CREATE TRIGGER `proposals_wallet_change_proposed_by_role`
BEFORE INSERT ON `proposals`
WHEN NEW.kind = 'wallet_change'
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.proposed_by AND `role` IN ('owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow proposing a deposit wallet change');
END;
--> statement-breakpoint
CREATE TRIGGER `proposals_position_close_proposed_by_role`
BEFORE INSERT ON `proposals`
WHEN NEW.kind = 'position_close'
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.proposed_by AND `role` IN ('operator', 'owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow closing a client''s position');
END;
--> statement-breakpoint
CREATE TRIGGER `stock_sales_sold_by_role`
BEFORE INSERT ON `stock_sales`
WHEN NEW.sold_by <> NEW.user_id
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.sold_by AND `role` IN ('operator', 'owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow closing a client''s position');
END;
