-- Invariants the database holds whatever the application does. Written with uppercase BEGIN/END and LF
-- line endings: D1's remote migration path splits statements on them.

-- A decided transaction (approved or rejected) never changes again: no second decision, no edits.
CREATE TRIGGER `transactions_decided_are_immutable`
BEFORE UPDATE ON `transactions`
WHEN OLD.status <> 'pending'
BEGIN
  SELECT RAISE(ABORT, 'transaction already decided');
END;
--> statement-breakpoint
-- While pending, only the decision itself may be written: pending -> approved or pending -> rejected.
CREATE TRIGGER `transactions_pending_only_decides`
BEFORE UPDATE ON `transactions`
WHEN OLD.status = 'pending' AND (
  NEW.status NOT IN ('approved', 'rejected')
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
  SELECT RAISE(ABORT, 'a pending transaction may only be approved or rejected');
END;
--> statement-breakpoint
-- Client data is deleted only after it has been copied to the archive (5-year retention).
CREATE TRIGGER `transactions_delete_requires_archive`
BEFORE DELETE ON `transactions`
WHEN NOT EXISTS (SELECT 1 FROM `transactions_archive` WHERE `id` = OLD.id)
BEGIN
  SELECT RAISE(ABORT, 'transaction must be archived before it is deleted');
END;
--> statement-breakpoint
CREATE TRIGGER `audit_log_no_update`
BEFORE UPDATE ON `audit_log`
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
--> statement-breakpoint
CREATE TRIGGER `audit_log_no_delete`
BEFORE DELETE ON `audit_log`
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
