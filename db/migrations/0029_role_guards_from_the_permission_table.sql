DROP TRIGGER IF EXISTS `transactions_withdrawal_decided_by_role`;
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
DROP TRIGGER IF EXISTS `transactions_deposit_decided_by_role`;
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
DROP TRIGGER IF EXISTS `proposals_decided_by_role`;
--> statement-breakpoint
CREATE TRIGGER `proposals_decided_by_role`
BEFORE UPDATE OF `status` ON `proposals`
WHEN OLD.status = 'pending' AND NEW.status IN ('approved', 'rejected')
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.decided_by AND `role` IN ('approver', 'owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow deciding a proposal');
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `proposals_entry_proposed_by_role`;
--> statement-breakpoint
CREATE TRIGGER `proposals_entry_proposed_by_role`
BEFORE INSERT ON `proposals`
WHEN NEW.kind = 'ledger_entry'
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.proposed_by AND `role` IN ('operator', 'owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow proposing a ledger entry');
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `proposals_withdrawal_approval_proposed_by_role`;
--> statement-breakpoint
CREATE TRIGGER `proposals_withdrawal_approval_proposed_by_role`
BEFORE INSERT ON `proposals`
WHEN NEW.kind = 'request_approval' AND NEW.transaction_type = 'withdraw'
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.proposed_by AND `role` IN ('approver', 'owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow deciding a withdrawal');
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `proposals_deposit_approval_proposed_by_role`;
--> statement-breakpoint
CREATE TRIGGER `proposals_deposit_approval_proposed_by_role`
BEFORE INSERT ON `proposals`
WHEN NEW.kind = 'request_approval' AND NEW.transaction_type IS NOT 'withdraw'
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.proposed_by AND `role` IN ('operator', 'owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow deciding a deposit');
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `proposals_wallet_change_proposed_by_role`;
--> statement-breakpoint
CREATE TRIGGER `proposals_wallet_change_proposed_by_role`
BEFORE INSERT ON `proposals`
WHEN NEW.kind = 'wallet_change'
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.proposed_by AND `role` IN ('owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow proposing a deposit wallet change');
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `access_recovery_requests_decided_by_role`;
--> statement-breakpoint
CREATE TRIGGER `access_recovery_requests_decided_by_role`
BEFORE UPDATE OF `status` ON `access_recovery_requests`
WHEN (NEW.status = 'first_approved' AND NOT EXISTS (
        SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.first_approved_by AND `role` IN ('compliance', 'owner')))
  OR (NEW.status IN ('approved', 'refused') AND NOT EXISTS (
        SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.decided_by AND `role` IN ('compliance', 'owner')))
BEGIN
  SELECT RAISE(ABORT, 'the admin''s roles do not allow deciding an access recovery');
END;
