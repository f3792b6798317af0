-- 1. An admin entry's reason (`transactions.memo`, kept in the archive too): the client reads it in the entry's
--    mail and on their History. Entries are written approved, and a decided row never changes; a pending row (a
--    client's request, which carries no memo) may only be decided, so its memo joins the columns the decision
--    cannot touch: what the client was told stays what was written.
-- 2. How a sign-in's second step was proved (`sign_in_events.second_factor`): the authenticator's code or a
--    recovery code, so the account's sign-in activity names the whole way in. Older records have none.
-- Uppercase BEGIN/END and LF line endings, as in 0001.
ALTER TABLE `sign_in_events` ADD `second_factor` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `memo` text;--> statement-breakpoint
ALTER TABLE `transactions_archive` ADD `memo` text;
--> statement-breakpoint
DROP TRIGGER `transactions_pending_only_decides`;
--> statement-breakpoint
-- As made in 0007, with the memo among what a decision leaves as it was.
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
  OR NEW.memo IS NOT OLD.memo
)
BEGIN
  SELECT RAISE(ABORT, 'a pending transaction may only be approved, rejected or cancelled');
END;
