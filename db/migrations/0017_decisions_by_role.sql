-- Back-office roles in the database's own guards: a decision, or a proposal, is written only by an admin whose
-- roles allow it. The role lists are the permission table's (app/lib/permissions.ts); a test holds them equal.
-- Someone who is not an admin at all is refused by the older guards (`transactions_decided_by_admin`,
-- `proposals_second_admin_approves`), with their own message; these guards are about admins' roles.
-- A withdrawal is decided by an approver or an owner (decideWithdrawals); when a second admin approves it through a
-- proposal, the proposer held one of those roles (the proposals' own guards check the second admin).
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
-- Every other request (deposits, stock deposits) is decided by an operator or an owner (decideDeposits).
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
-- A proposal is approved or rejected by an approver or an owner (decideProposals).
CREATE TRIGGER `proposals_decided_by_role`
BEFORE UPDATE OF `status` ON `proposals`
WHEN OLD.status = 'pending' AND NEW.status IN ('approved', 'rejected')
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.decided_by AND `role` IN ('approver', 'owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow deciding a proposal');
END;
--> statement-breakpoint
-- A ledger entry is proposed by an operator or an owner (postEntries).
CREATE TRIGGER `proposals_entry_proposed_by_role`
BEFORE INSERT ON `proposals`
WHEN NEW.kind = 'ledger_entry'
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.proposed_by AND `role` IN ('operator', 'owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow proposing a ledger entry');
END;
--> statement-breakpoint
-- A request's approval is proposed by whoever may decide it: a withdrawal's by an approver or an owner...
CREATE TRIGGER `proposals_withdrawal_approval_proposed_by_role`
BEFORE INSERT ON `proposals`
WHEN NEW.kind = 'request_approval' AND NEW.transaction_type = 'withdraw'
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.proposed_by AND `role` IN ('approver', 'owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow deciding a withdrawal');
END;
--> statement-breakpoint
-- ...a deposit's by an operator or an owner.
CREATE TRIGGER `proposals_deposit_approval_proposed_by_role`
BEFORE INSERT ON `proposals`
WHEN NEW.kind = 'request_approval' AND NEW.transaction_type IS NOT 'withdraw'
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.proposed_by AND `role` IN ('operator', 'owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow deciding a deposit');
END;
--> statement-breakpoint
-- A deposit wallet's change is proposed by an owner (proposeWallets).
CREATE TRIGGER `proposals_wallet_change_proposed_by_role`
BEFORE INSERT ON `proposals`
WHEN NEW.kind = 'wallet_change'
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.proposed_by AND `role` IN ('owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow proposing a deposit wallet change');
END;
