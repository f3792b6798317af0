-- The database's guards: every trigger and CHECK constraint of the schema that db/migrations builds, grouped
-- under the section of docs/product.md whose rule each keeps. Written by `npm run db:generate` (db/guards.ts); the
-- migrations test fails when it is not current. For review, not to be run: a guard changes by a new migration, and
-- this file shows the change in one diff.

-- ======== Account security › Access recovery

CREATE TRIGGER `access_recovery_requests_ended_are_immutable`
BEFORE UPDATE ON `access_recovery_requests`
WHEN OLD.status IN ('approved', 'refused', 'cancelled')
BEGIN
  SELECT RAISE(ABORT, 'an ended access recovery request cannot change');
END;

CREATE TRIGGER `access_recovery_requests_in_order`
BEFORE UPDATE OF `status` ON `access_recovery_requests`
WHEN NEW.status IS NOT OLD.status AND NOT (
  (OLD.status = 'open' AND NEW.status IN ('submitted', 'cancelled'))
  OR (OLD.status = 'submitted' AND NEW.status IN ('first_approved', 'refused', 'cancelled'))
  OR (OLD.status = 'first_approved' AND NEW.status IN ('approved', 'refused', 'cancelled'))
)
BEGIN
  SELECT RAISE(ABORT, 'an access recovery request moves one step at a time and ends once');
END;

CREATE TRIGGER `access_recovery_requests_second_admin_approves`
BEFORE UPDATE OF `status` ON `access_recovery_requests`
WHEN NEW.status = 'approved' AND (NEW.decided_by IS NULL OR NEW.decided_by IS OLD.first_approved_by)
BEGIN
  SELECT RAISE(ABORT, 'an access recovery is approved by a second admin');
END;

-- ======== Account security › Passkeys

CREATE TRIGGER `passkeys_at_most_ten`
BEFORE INSERT ON `passkeys`
WHEN (SELECT count(*) FROM `passkeys` WHERE `user_id` = NEW.user_id) >= 10
BEGIN
  SELECT RAISE(ABORT, 'an account holds at most 10 passkeys');
END;

CREATE TRIGGER `passkeys_counter_forward`
BEFORE UPDATE ON `passkeys`
WHEN NEW.counter < OLD.counter OR NEW.user_id IS NOT OLD.user_id OR NEW.public_key IS NOT OLD.public_key
BEGIN
  SELECT RAISE(ABORT, 'a passkey''s counter only goes forward, and its account and key never change');
END;

-- ======== Back-office roles › Client notes

CREATE TRIGGER `client_notes_flags_after_insert`
AFTER INSERT ON `client_notes`
BEGIN
  DELETE FROM `client_flags`
  WHERE `user_id` = NEW.user_id AND `flag` IN (SELECT `value` FROM json_each(NEW.flags_removed));
  INSERT INTO `client_flags` (`user_id`, `flag`, `note_id`)
  SELECT NEW.user_id, `value`, NEW.id FROM json_each(NEW.flags_added) WHERE true
  ON CONFLICT (`user_id`, `flag`) DO UPDATE SET `note_id` = excluded.note_id;
END;

CREATE TRIGGER `client_notes_kept_until_retained`
BEFORE DELETE ON `client_notes`
WHEN OLD.retain_until IS NULL OR OLD.retain_until > CAST(unixepoch('subsec') * 1000 AS INTEGER)
BEGIN
  SELECT RAISE(ABORT, 'client notes are append-only and kept until their retain_until');
END;

CREATE TRIGGER `client_notes_no_update`
BEFORE UPDATE ON `client_notes`
WHEN OLD.retain_until IS NOT NULL OR NEW.retain_until IS NULL
  OR NEW.id IS NOT OLD.id OR NEW.user_id IS NOT OLD.user_id OR NEW.author_id IS NOT OLD.author_id
  OR NEW.body IS NOT OLD.body OR NEW.corrects_id IS NOT OLD.corrects_id OR NEW.flags_added IS NOT OLD.flags_added
  OR NEW.flags_removed IS NOT OLD.flags_removed OR NEW.created_at IS NOT OLD.created_at
BEGIN
  SELECT RAISE(ABORT, 'client notes are append-only');
END;

CREATE TRIGGER `client_notes_valid`
BEFORE INSERT ON `client_notes`
BEGIN
  SELECT RAISE(ABORT, 'a client note is written by an admin')
  WHERE (SELECT `role` FROM `users` WHERE `id` = NEW.author_id) IS NOT 'admin';
  SELECT RAISE(ABORT, 'a client note is about a client')
  WHERE (SELECT `role` FROM `users` WHERE `id` = NEW.user_id) IS NOT 'user';
  SELECT RAISE(ABORT, 'a client note carries only known flags')
  WHERE EXISTS (SELECT 1 FROM json_each(NEW.flags_added) WHERE `value` NOT IN ('watch', 'vip', 'do_not_contact'))
     OR EXISTS (SELECT 1 FROM json_each(NEW.flags_removed) WHERE `value` NOT IN ('watch', 'vip', 'do_not_contact'))
     OR EXISTS (SELECT 1 FROM json_each(NEW.flags_added) a JOIN json_each(NEW.flags_removed) r ON a.`value` = r.`value`);
  SELECT RAISE(ABORT, 'a correction points to a note of the same client')
  WHERE NEW.corrects_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM `client_notes` WHERE `id` = NEW.corrects_id AND `user_id` = NEW.user_id
                    AND `retain_until` IS NULL);
  SELECT RAISE(ABORT, 'a new client note is not retained yet') WHERE NEW.retain_until IS NOT NULL;
END;

-- ======== Back-office roles › The team page

CREATE TRIGGER `admin_invitations_accepted_while_inviter_owns`
BEFORE UPDATE OF `accepted_at` ON `admin_invitations`
WHEN NEW.accepted_at IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` r JOIN `users` u ON u.id = r.user_id
                  WHERE r.user_id = NEW.invited_by AND r.role = 'owner' AND u.deactivated_at IS NULL)
BEGIN
  SELECT RAISE(ABORT, 'an invitation is accepted only while the owner who sent it is an active owner');
END;

CREATE TRIGGER `admin_roles_admins_only` BEFORE INSERT ON `admin_roles`
WHEN (SELECT `role` FROM `users` WHERE `id` = NEW.`user_id`) IS NOT 'admin'
BEGIN
	SELECT RAISE(ABORT, 'only an admin holds a back-office role');
END;

CREATE TRIGGER `team_proposals_approved_while_proposer_owns`
BEFORE UPDATE OF `status` ON `team_proposals`
WHEN NEW.status = 'approved'
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` r JOIN `users` u ON u.id = r.user_id
                  WHERE r.user_id = OLD.proposed_by AND r.role = 'owner' AND u.deactivated_at IS NULL)
BEGIN
  SELECT RAISE(ABORT, 'a team proposal is approved only while the owner who made it is an active owner');
END;

CREATE TRIGGER `team_proposals_decided_are_immutable` BEFORE UPDATE ON `team_proposals`
WHEN OLD.`status` <> 'pending'
BEGIN
	SELECT RAISE(ABORT, 'a decided team proposal cannot change');
END;

CREATE TRIGGER `team_proposals_second_owner_approves` BEFORE UPDATE OF `status` ON `team_proposals`
WHEN NEW.`status` = 'approved' AND NEW.`decided_by` IS OLD.`proposed_by`
BEGIN
	SELECT RAISE(ABORT, 'a team proposal is approved by another owner');
END;

-- ======== Back-office roles › Where the table is enforced

CREATE TRIGGER `access_recovery_requests_decided_by_role`
BEFORE UPDATE OF `status` ON `access_recovery_requests`
WHEN (NEW.status = 'first_approved' AND NOT EXISTS (
        SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.first_approved_by AND `role` IN ('compliance', 'owner')))
  OR (NEW.status IN ('approved', 'refused') AND NOT EXISTS (
        SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.decided_by AND `role` IN ('compliance', 'owner')))
BEGIN
  SELECT RAISE(ABORT, 'the admin''s roles do not allow deciding an access recovery');
END;

CREATE TRIGGER `chain_payouts_recorded_by_role`
BEFORE INSERT ON `chain_payouts`
WHEN NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.recorded_by AND `role` IN ('approver', 'owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow recording a payout');
END;

CREATE TRIGGER `proposals_decided_by_role`
BEFORE UPDATE OF `status` ON `proposals`
WHEN OLD.status = 'pending' AND NEW.status IN ('approved', 'rejected')
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.decided_by AND `role` IN ('approver', 'owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow deciding a proposal');
END;

CREATE TRIGGER `proposals_deposit_approval_proposed_by_role`
BEFORE INSERT ON `proposals`
WHEN NEW.kind = 'request_approval' AND NEW.transaction_type IS NOT 'withdraw'
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.proposed_by AND `role` IN ('operator', 'owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow deciding a deposit');
END;

CREATE TRIGGER `proposals_entry_proposed_by_role`
BEFORE INSERT ON `proposals`
WHEN NEW.kind = 'ledger_entry'
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.proposed_by AND `role` IN ('operator', 'owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow proposing a ledger entry');
END;

CREATE TRIGGER `proposals_position_close_proposed_by_role`
BEFORE INSERT ON `proposals`
WHEN NEW.kind = 'position_close'
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.proposed_by AND `role` IN ('operator', 'owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow closing a client''s position');
END;

CREATE TRIGGER `proposals_wallet_change_proposed_by_role`
BEFORE INSERT ON `proposals`
WHEN NEW.kind = 'wallet_change'
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.proposed_by AND `role` IN ('owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow proposing a deposit wallet change');
END;

CREATE TRIGGER `proposals_withdrawal_approval_proposed_by_role`
BEFORE INSERT ON `proposals`
WHEN NEW.kind = 'request_approval' AND NEW.transaction_type = 'withdraw'
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.proposed_by AND `role` IN ('approver', 'owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow deciding a withdrawal');
END;

CREATE TRIGGER `stock_sales_sold_by_role`
BEFORE INSERT ON `stock_sales`
WHEN NEW.sold_by <> NEW.user_id
  AND NOT EXISTS (SELECT 1 FROM `admin_roles` WHERE `user_id` = NEW.sold_by AND `role` IN ('operator', 'owner'))
BEGIN
  SELECT RAISE(ABORT, 'this admin''s roles do not allow closing a client''s position');
END;

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

-- ======== Identity verification › Money by level

CREATE TRIGGER `transactions_withdrawal_approval_requires_verification`
BEFORE UPDATE OF `status` ON `transactions`
WHEN NEW.status = 'approved' AND OLD.status = 'pending' AND OLD.transaction_type = 'withdraw'
  AND NOT EXISTS (SELECT 1 FROM `verification_cases` WHERE `user_id` = OLD.user_id AND `status` = 'approved'
                  AND `ended_at` IS NULL)
BEGIN
  SELECT RAISE(ABORT, 'a withdrawal is approved only for a verified client');
END;

-- ======== Identity verification › Retention

CREATE TRIGGER `verification_cases_kept_until_retained`
BEFORE DELETE ON `verification_cases`
WHEN OLD.ended_at IS NOT NULL AND OLD.retain_until > CAST(unixepoch('subsec') * 1000 AS INTEGER)
BEGIN
  SELECT RAISE(ABORT, 'verification evidence is kept until its retain_until');
END;

CREATE TRIGGER `verification_documents_kept_until_retained`
BEFORE DELETE ON `verification_documents`
WHEN EXISTS (SELECT 1 FROM `verification_cases` WHERE `id` = OLD.case_id AND `ended_at` IS NOT NULL
             AND `retain_until` > CAST(unixepoch('subsec') * 1000 AS INTEGER))
BEGIN
  SELECT RAISE(ABORT, 'verification evidence is kept until its retain_until');
END;

-- ======== Messages › Notifications and mail preferences

CREATE TRIGGER `email_outbox_notifies` BEFORE INSERT ON `email_outbox`
FOR EACH ROW
BEGIN
	INSERT INTO notifications (user_id, kind, subject, data, dedupe_key, created_at)
	SELECT u.id, NEW.template,
		CASE
			WHEN NEW.template IN ('request_decided', 'entry_posted')
				THEN 'transaction:' || coalesce(json_extract(NEW.payload, '$.transactionId'), '')
			WHEN NEW.template = 'security_notice'
				THEN 'security:' || coalesce(json_extract(NEW.payload, '$.event'), '')
			WHEN NEW.template = 'order_filled'
				THEN 'order:' || coalesce(json_extract(NEW.payload, '$.serial'), '')
			ELSE 'verification'
		END,
		NEW.payload, NEW.dedupe_key, coalesce(NEW.created_at, CAST(unixepoch('subsec') * 1000 AS INTEGER))
	FROM users u
	WHERE NEW.template IN ('request_decided', 'entry_posted', 'verification_decided', 'verification_restricted', 'security_notice', 'order_filled')
		AND u.email = NEW.to_address AND u.role = 'user'
		AND (NEW.dedupe_key IS NULL OR NOT EXISTS (SELECT 1 FROM notifications n WHERE n.dedupe_key = NEW.dedupe_key));
	SELECT RAISE(IGNORE)
	FROM users u
	JOIN mail_preferences mp ON mp.user_id = u.id AND mp.wanted = 0
	WHERE u.email = NEW.to_address
		AND mp.category = CASE NEW.template
			WHEN 'withdrawal_receipt' THEN 'requests'
			WHEN 'request_decided' THEN 'requests'
			WHEN 'entry_posted' THEN 'entries'
			WHEN 'verification_decided' THEN 'verification'
			WHEN 'order_filled' THEN 'orders'
		END;
END;

-- ======== Money rules › Audit log

CREATE TRIGGER `audit_archives_no_delete`
BEFORE DELETE ON `audit_archives`
BEGIN
  SELECT RAISE(ABORT, 'audit_archives is append-only');
END;

CREATE TRIGGER `audit_archives_no_update`
BEFORE UPDATE ON `audit_archives`
BEGIN
  SELECT RAISE(ABORT, 'audit_archives is append-only');
END;

CREATE TRIGGER `audit_log_ids_only_grow`
BEFORE INSERT ON `audit_log`
WHEN EXISTS (SELECT 1 FROM audit_log WHERE id = NEW.id)
  OR EXISTS (
    SELECT 1 FROM audit_archives a
    WHERE a.month = strftime('%Y-%m', NEW.created_at / 1000, 'unixepoch') AND NEW.id >= 1 AND NEW.id <= a.last_id
  )
BEGIN
  SELECT RAISE(ABORT, 'audit_log ids only grow: an insert never chooses its id');
END;

CREATE TRIGGER `audit_log_no_delete`
BEFORE DELETE ON `audit_log`
WHEN NOT EXISTS (
  SELECT 1 FROM audit_archives a
  WHERE a.month = strftime('%Y-%m', OLD.created_at / 1000, 'unixepoch') AND OLD.id BETWEEN a.first_id AND a.last_id
)
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only: a row leaves only for a recorded archive object');
END;

CREATE TRIGGER `audit_log_no_update`
BEFORE UPDATE ON `audit_log`
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;

-- ======== Money rules › Cancelling

CREATE TRIGGER `transactions_cancel_by_owner`
BEFORE UPDATE OF `status` ON `transactions`
WHEN OLD.status = 'pending' AND NEW.status = 'cancelled' AND (
  NEW.decided_by IS NOT OLD.user_id
  OR OLD.transaction_type NOT IN ('deposit', 'stock_deposit', 'withdraw')
)
BEGIN
  SELECT RAISE(ABORT, 'only its owner may cancel a pending request');
END;

CREATE TRIGGER `transactions_cancel_own_requests_only`
BEFORE UPDATE OF `status` ON `transactions`
WHEN OLD.status = 'pending' AND NEW.status = 'cancelled' AND OLD.created_by IS NOT OLD.user_id
BEGIN
  SELECT RAISE(ABORT, 'only a request the client made may be cancelled');
END;

-- ======== Money rules › Decisions

CREATE TRIGGER `transactions_decided_are_immutable`
BEFORE UPDATE ON `transactions`
WHEN OLD.status <> 'pending'
BEGIN
  SELECT RAISE(ABORT, 'transaction already decided');
END;

CREATE TRIGGER `transactions_decided_by_admin`
BEFORE UPDATE OF `status` ON `transactions`
WHEN OLD.status = 'pending' AND NEW.status IN ('approved', 'rejected')
  AND NOT EXISTS (SELECT 1 FROM `users` WHERE `id` = NEW.decided_by AND `role` = 'admin')
BEGIN
  SELECT RAISE(ABORT, 'only an admin may approve or reject a request');
END;

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

-- ======== Money rules › Deposits on chain

CREATE TRIGGER `chain_payments_settled_are_final`
BEFORE UPDATE ON `chain_payments`
WHEN OLD.status <> 'seen' AND (NEW.transaction_id IS NOT OLD.transaction_id OR (NEW.status IS NOT OLD.status
  AND NOT (OLD.status = 'dropped' AND NEW.status = 'seen')))
BEGIN
  SELECT RAISE(ABORT, 'a settled chain payment is final');
END;

CREATE TRIGGER `deposit_addresses_no_delete`
BEFORE DELETE ON `deposit_addresses`
BEGIN
  SELECT RAISE(ABORT, 'a deposit address is kept: payments to it are still watched');
END;

CREATE TRIGGER `deposit_addresses_no_update`
BEFORE UPDATE OF `user_id`, `network`, `key_id`, `derivation_index`, `address` ON `deposit_addresses`
BEGIN
  SELECT RAISE(ABORT, 'a deposit address is never reassigned');
END;

-- ======== Money rules › Figures

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

CREATE TRIGGER `ledger_totals_after_insert`
AFTER INSERT ON `transactions`
BEGIN
  INSERT INTO `ledger_totals` (`user_id`, `status`, `transaction_type`, `stock`, `count`, `cents`)
  VALUES (NEW.user_id, NEW.status, NEW.transaction_type, coalesce(NEW.stock, ''), 1, NEW.amount_cents)
  ON CONFLICT (`user_id`, `status`, `transaction_type`, `stock`)
  DO UPDATE SET `count` = `count` + 1, `cents` = `cents` + excluded.`cents`;
END;

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

-- ======== Money rules › Orders and positions

CREATE TRIGGER `position_closes_are_final`
BEFORE UPDATE ON `position_closes`
BEGIN
  SELECT RAISE(ABORT, 'a close is final');
END;

CREATE TRIGGER `position_closes_no_delete`
BEFORE DELETE ON `position_closes`
BEGIN
  SELECT RAISE(ABORT, 'closes are kept');
END;

CREATE TRIGGER `position_closes_own_lots_while_selling`
BEFORE INSERT ON `position_closes`
WHEN NOT EXISTS (
  SELECT 1 FROM stock_sales s JOIN positions p ON p.id = NEW.position_id
  WHERE s.id = NEW.sale_id AND s.settled_at IS NULL AND p.user_id = s.user_id AND p.symbol = s.symbol
    AND p.status = 'open' AND NEW.shares_e4 <= p.open_shares_e4
)
BEGIN
  SELECT RAISE(ABORT, 'a sale closes open lots of its own client''s stock, once');
END;

CREATE TRIGGER `positions_cancel_within_window`
BEFORE UPDATE OF `status` ON `positions`
WHEN NEW.status = 'cancelled' AND (
  OLD.open_shares_e4 <> OLD.shares_e4
  OR CAST(unixepoch('subsec') * 1000 AS INTEGER) - OLD.opened_at > 5000
)
BEGIN
  SELECT RAISE(ABORT, 'a position may be cancelled only within seconds of its order, before any sale');
END;

CREATE TRIGGER `positions_no_delete`
BEFORE DELETE ON `positions`
BEGIN
  SELECT RAISE(ABORT, 'positions are kept');
END;

CREATE TRIGGER `positions_open_part_only_shrinks`
BEFORE UPDATE OF `open_shares_e4`, `open_cost_cents` ON `positions`
WHEN NEW.open_shares_e4 > OLD.open_shares_e4 OR NEW.open_cost_cents > OLD.open_cost_cents
BEGIN
  SELECT RAISE(ABORT, 'a position''s open part only shrinks');
END;

CREATE TRIGGER `positions_terms_are_final`
BEFORE UPDATE ON `positions`
WHEN NEW.id IS NOT OLD.id OR NEW.user_id IS NOT OLD.user_id OR NEW.symbol IS NOT OLD.symbol
  OR NEW.shares_e4 IS NOT OLD.shares_e4 OR NEW.price_e4 IS NOT OLD.price_e4 OR NEW.quote_at IS NOT OLD.quote_at
  OR NEW.cost_cents IS NOT OLD.cost_cents OR NEW.idempotency_key IS NOT OLD.idempotency_key
  OR NEW.opened_at IS NOT OLD.opened_at OR OLD.status <> 'open'
BEGIN
  SELECT RAISE(ABORT, 'a position''s terms are final, and so is an ended position');
END;

CREATE TRIGGER `profiles_kept_while_positions_open`
BEFORE DELETE ON `profiles`
WHEN EXISTS (SELECT 1 FROM positions WHERE user_id = OLD.user_id AND status = 'open')
BEGIN
  SELECT RAISE(ABORT, 'the client holds open positions');
END;

CREATE TRIGGER `stock_sales_no_delete`
BEFORE DELETE ON `stock_sales`
BEGIN
  SELECT RAISE(ABORT, 'sales are kept');
END;

CREATE TRIGGER `stock_sales_settled_are_final`
BEFORE UPDATE ON `stock_sales`
WHEN OLD.settled_at IS NOT NULL
  OR NEW.id IS NOT OLD.id OR NEW.user_id IS NOT OLD.user_id OR NEW.symbol IS NOT OLD.symbol
  OR NEW.shares_e4 IS NOT OLD.shares_e4 OR NEW.price_e4 IS NOT OLD.price_e4 OR NEW.quote_at IS NOT OLD.quote_at
  OR NEW.proceeds_cents IS NOT OLD.proceeds_cents OR NEW.sold_by IS NOT OLD.sold_by
  OR NEW.idempotency_key IS NOT OLD.idempotency_key OR NEW.sold_at IS NOT OLD.sold_at
BEGIN
  SELECT RAISE(ABORT, 'a settled sale is final');
END;

-- ======== Money rules › Other admin changes

CREATE TRIGGER `transactions_delete_requires_archive`
BEFORE DELETE ON `transactions`
WHEN NOT EXISTS (SELECT 1 FROM `transactions_archive` WHERE `id` = OLD.id)
BEGIN
  SELECT RAISE(ABORT, 'transaction must be archived before it is deleted');
END;

-- ======== Money rules › Payouts on chain

CREATE TRIGGER `chain_payouts_keep_what_was_recorded`
BEFORE UPDATE OF `transaction_id`, `user_id`, `asset`, `txid`, `recorded_by`, `recorded_at` ON `chain_payouts`
BEGIN
  SELECT RAISE(ABORT, 'a recorded payout keeps its withdrawal, transaction and recorder');
END;

CREATE TRIGGER `chain_payouts_no_delete`
BEFORE DELETE ON `chain_payouts`
BEGIN
  SELECT RAISE(ABORT, 'a recorded payout is kept');
END;

CREATE TRIGGER `chain_payouts_pay_approved_withdrawals`
BEFORE INSERT ON `chain_payouts`
WHEN NOT EXISTS (SELECT 1 FROM `transactions` WHERE `id` = NEW.transaction_id AND `user_id` = NEW.user_id
                   AND `transaction_type` = 'withdraw' AND `status` = 'approved')
BEGIN
  SELECT RAISE(ABORT, 'a payout pays an approved withdrawal of its client');
END;

CREATE TRIGGER `chain_payouts_settled_are_final`
BEFORE UPDATE ON `chain_payouts`
WHEN OLD.status IN ('confirmed', 'mismatch')
BEGIN
  SELECT RAISE(ABORT, 'a settled payout is final');
END;

-- ======== Money rules › Second approval

CREATE TRIGGER `proposals_decided_are_immutable`
BEFORE UPDATE ON `proposals`
WHEN OLD.status <> 'pending'
BEGIN
  SELECT RAISE(ABORT, 'proposal already decided');
END;

CREATE TRIGGER `proposals_no_delete`
BEFORE DELETE ON `proposals`
BEGIN
  SELECT RAISE(ABORT, 'proposals are kept');
END;

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

-- ======== Money rules › Statements

CREATE TRIGGER `ledger_months_after_delete`
AFTER DELETE ON `transactions`
WHEN OLD.status = 'approved'
BEGIN
  UPDATE `ledger_months` SET `count` = `count` - 1, `cents` = `cents` - OLD.amount_cents
  WHERE `user_id` = OLD.user_id
    AND `month` = strftime('%Y-%m', coalesce(OLD.decided_at, OLD.created_at) / 1000, 'unixepoch')
    AND `transaction_type` = OLD.transaction_type;
  DELETE FROM `ledger_months`
  WHERE `user_id` = OLD.user_id
    AND `month` = strftime('%Y-%m', coalesce(OLD.decided_at, OLD.created_at) / 1000, 'unixepoch')
    AND `transaction_type` = OLD.transaction_type AND `count` = 0;
END;

CREATE TRIGGER `ledger_months_after_insert`
AFTER INSERT ON `transactions`
WHEN NEW.status = 'approved'
BEGIN
  INSERT INTO `ledger_months` (`user_id`, `month`, `transaction_type`, `count`, `cents`)
  VALUES (NEW.user_id, strftime('%Y-%m', coalesce(NEW.decided_at, NEW.created_at) / 1000, 'unixepoch'),
          NEW.transaction_type, 1, NEW.amount_cents)
  ON CONFLICT (`user_id`, `month`, `transaction_type`)
  DO UPDATE SET `count` = `count` + 1, `cents` = `cents` + excluded.`cents`;
END;

CREATE TRIGGER `ledger_months_after_update`
AFTER UPDATE OF `user_id`, `status`, `transaction_type`, `amount_cents`, `decided_at`, `created_at` ON `transactions`
WHEN OLD.status = 'approved' OR NEW.status = 'approved'
BEGIN
  UPDATE `ledger_months` SET `count` = `count` - 1, `cents` = `cents` - OLD.amount_cents
  WHERE OLD.status = 'approved' AND `user_id` = OLD.user_id
    AND `month` = strftime('%Y-%m', coalesce(OLD.decided_at, OLD.created_at) / 1000, 'unixepoch')
    AND `transaction_type` = OLD.transaction_type;
  DELETE FROM `ledger_months`
  WHERE OLD.status = 'approved' AND `user_id` = OLD.user_id
    AND `month` = strftime('%Y-%m', coalesce(OLD.decided_at, OLD.created_at) / 1000, 'unixepoch')
    AND `transaction_type` = OLD.transaction_type AND `count` = 0;
  INSERT INTO `ledger_months` (`user_id`, `month`, `transaction_type`, `count`, `cents`)
  SELECT NEW.user_id, strftime('%Y-%m', coalesce(NEW.decided_at, NEW.created_at) / 1000, 'unixepoch'),
         NEW.transaction_type, 1, NEW.amount_cents
  WHERE NEW.status = 'approved'
  ON CONFLICT (`user_id`, `month`, `transaction_type`)
  DO UPDATE SET `count` = `count` + 1, `cents` = `cents` + excluded.`cents`;
END;

-- ======== Money rules › Transaction monitoring

CREATE TRIGGER `monitoring_alerts_decided_once`
BEFORE UPDATE ON `monitoring_alerts`
WHEN OLD.status <> 'open'
  OR NEW.id IS NOT OLD.id OR NEW.user_id IS NOT OLD.user_id OR NEW.rule IS NOT OLD.rule
  OR NEW.trigger_transaction_id IS NOT OLD.trigger_transaction_id OR NEW.created_at IS NOT OLD.created_at
  OR (NEW.detail IS NOT OLD.detail AND NEW.status <> 'open')
BEGIN
  SELECT RAISE(ABORT, 'a monitoring alert is decided once');
END;

CREATE TRIGGER `monitoring_alerts_kept`
BEFORE DELETE ON `monitoring_alerts`
BEGIN
  SELECT RAISE(ABORT, 'monitoring alerts are never deleted');
END;

CREATE TRIGGER `monitoring_alerts_only_grow`
BEFORE UPDATE OF `detail` ON `monitoring_alerts`
WHEN EXISTS (
  SELECT 1 FROM json_each(OLD.detail, '$.transactionIds') AS listed
  WHERE listed.value NOT IN (SELECT value FROM json_each(NEW.detail, '$.transactionIds'))
)
BEGIN
  SELECT RAISE(ABORT, 'an open monitoring alert only grows');
END;

-- ======== Screens › Desk (`/admin`)

CREATE TRIGGER `client_search_profiles_after_delete`
AFTER DELETE ON `profiles`
BEGIN
  DELETE FROM `client_search` WHERE `rowid` = OLD.id;
END;

CREATE TRIGGER `client_search_profiles_after_insert`
AFTER INSERT ON `profiles`
BEGIN
  INSERT INTO `client_search` (`rowid`, `name`, `email`)
  VALUES (NEW.id, NEW.first_name || ' ' || NEW.last_name,
          coalesce((SELECT `email` FROM `users` WHERE `id` = NEW.user_id), NEW.email));
END;

CREATE TRIGGER `client_search_profiles_after_update`
AFTER UPDATE OF `id`, `user_id`, `first_name`, `last_name` ON `profiles`
BEGIN
  DELETE FROM `client_search` WHERE `rowid` = OLD.id;
  INSERT INTO `client_search` (`rowid`, `name`, `email`)
  VALUES (NEW.id, NEW.first_name || ' ' || NEW.last_name,
          coalesce((SELECT `email` FROM `users` WHERE `id` = NEW.user_id), NEW.email));
END;

CREATE TRIGGER `client_search_users_after_update`
AFTER UPDATE OF `email` ON `users`
BEGIN
  UPDATE `client_search` SET `email` = NEW.email
  WHERE `rowid` = (SELECT `id` FROM `profiles` WHERE `user_id` = NEW.id);
END;

CREATE TRIGGER `desk_counts_profiles_after_delete`
AFTER DELETE ON `profiles`
WHEN OLD.role = 'user'
BEGIN
  UPDATE `desk_counts` SET `n` = `n` - 1 WHERE `name` = 'clients';
END;

CREATE TRIGGER `desk_counts_profiles_after_insert`
AFTER INSERT ON `profiles`
WHEN NEW.role = 'user'
BEGIN
  UPDATE `desk_counts` SET `n` = `n` + 1 WHERE `name` = 'clients';
END;

CREATE TRIGGER `desk_counts_profiles_after_update`
AFTER UPDATE OF `role` ON `profiles`
WHEN (OLD.role = 'user') <> (NEW.role = 'user')
BEGIN
  UPDATE `desk_counts` SET `n` = `n` + CASE WHEN NEW.role = 'user' THEN 1 ELSE -1 END WHERE `name` = 'clients';
END;

CREATE TRIGGER `desk_counts_transactions_after_delete`
AFTER DELETE ON `transactions`
WHEN OLD.status = 'pending'
BEGIN
  UPDATE `desk_counts` SET `n` = `n` - 1 WHERE `name` = 'pending';
END;

CREATE TRIGGER `desk_counts_transactions_after_insert`
AFTER INSERT ON `transactions`
WHEN NEW.status = 'pending'
BEGIN
  UPDATE `desk_counts` SET `n` = `n` + 1 WHERE `name` = 'pending';
END;

CREATE TRIGGER `desk_counts_transactions_after_update`
AFTER UPDATE OF `status` ON `transactions`
WHEN (OLD.status = 'pending') <> (NEW.status = 'pending')
BEGIN
  UPDATE `desk_counts` SET `n` = `n` + CASE WHEN NEW.status = 'pending' THEN 1 ELSE -1 END WHERE `name` = 'pending';
END;

-- ======== Screens › Mail queue (`/admin/mail`)

CREATE TRIGGER `email_outbox_leaves_only_findable`
BEFORE DELETE ON `email_outbox`
WHEN OLD.archive_id IS NOT NULL AND NOT EXISTS (
  SELECT 1 FROM mail_archive_recipients r
  JOIN mail_archives a ON a.id = r.archive_id
  WHERE r.to_address = OLD.to_address AND r.archive_id = OLD.archive_id
    AND r.month = strftime('%Y-%m', OLD.created_at / 1000, 'unixepoch') AND a.month = r.month
)
BEGIN
  SELECT RAISE(ABORT, 'an archived mail leaves D1 only once its recipient is listed for its archive object');
END;

-- ======== Screens › Portfolio (`/portfolio`)

CREATE TRIGGER `ledger_days_after_delete`
AFTER DELETE ON `transactions`
WHEN OLD.status = 'approved'
BEGIN
  UPDATE `ledger_days` SET `count` = `count` - 1, `cents` = `cents` - OLD.amount_cents
  WHERE `user_id` = OLD.user_id
    AND `day` = strftime('%Y-%m-%d', coalesce(OLD.decided_at, OLD.created_at) / 1000, 'unixepoch')
    AND `transaction_type` = OLD.transaction_type;
  DELETE FROM `ledger_days`
  WHERE `user_id` = OLD.user_id
    AND `day` = strftime('%Y-%m-%d', coalesce(OLD.decided_at, OLD.created_at) / 1000, 'unixepoch')
    AND `transaction_type` = OLD.transaction_type AND `count` = 0;
END;

CREATE TRIGGER `ledger_days_after_insert`
AFTER INSERT ON `transactions`
WHEN NEW.status = 'approved'
BEGIN
  INSERT INTO `ledger_days` (`user_id`, `day`, `transaction_type`, `count`, `cents`)
  VALUES (NEW.user_id, strftime('%Y-%m-%d', coalesce(NEW.decided_at, NEW.created_at) / 1000, 'unixepoch'),
          NEW.transaction_type, 1, NEW.amount_cents)
  ON CONFLICT (`user_id`, `day`, `transaction_type`)
  DO UPDATE SET `count` = `count` + 1, `cents` = `cents` + excluded.`cents`;
END;

CREATE TRIGGER `ledger_days_after_update`
AFTER UPDATE OF `user_id`, `status`, `transaction_type`, `amount_cents`, `decided_at`, `created_at` ON `transactions`
WHEN OLD.status = 'approved' OR NEW.status = 'approved'
BEGIN
  UPDATE `ledger_days` SET `count` = `count` - 1, `cents` = `cents` - OLD.amount_cents
  WHERE OLD.status = 'approved' AND `user_id` = OLD.user_id
    AND `day` = strftime('%Y-%m-%d', coalesce(OLD.decided_at, OLD.created_at) / 1000, 'unixepoch')
    AND `transaction_type` = OLD.transaction_type;
  DELETE FROM `ledger_days`
  WHERE OLD.status = 'approved' AND `user_id` = OLD.user_id
    AND `day` = strftime('%Y-%m-%d', coalesce(OLD.decided_at, OLD.created_at) / 1000, 'unixepoch')
    AND `transaction_type` = OLD.transaction_type AND `count` = 0;
  INSERT INTO `ledger_days` (`user_id`, `day`, `transaction_type`, `count`, `cents`)
  SELECT NEW.user_id, strftime('%Y-%m-%d', coalesce(NEW.decided_at, NEW.created_at) / 1000, 'unixepoch'),
         NEW.transaction_type, 1, NEW.amount_cents
  WHERE NEW.status = 'approved'
  ON CONFLICT (`user_id`, `day`, `transaction_type`)
  DO UPDATE SET `count` = `count` + 1, `cents` = `cents` + excluded.`cents`;
END;

-- ======== CHECK constraints, per table

-- access_recovery_files
CHECK("access_recovery_files"."kind" IN ('identity_photo', 'selfie'))
CHECK("access_recovery_files"."content_type" IN ('image/jpeg', 'image/png', 'application/pdf'))
CHECK("access_recovery_files"."size_bytes" > 0)

-- access_recovery_requests
CHECK("access_recovery_requests"."status" IN ('open', 'submitted', 'first_approved', 'approved', 'refused', 'cancelled'))

-- admin_invitations
CHECK("admin_invitations"."email" = lower("admin_invitations"."email"))

-- admin_roles
CHECK("admin_roles"."role" IN ('support', 'operator', 'approver', 'compliance', 'owner'))

-- auth_tokens
CHECK("auth_tokens"."purpose" IN ('reset', 'confirm'))

-- chain_payments
CHECK("chain_payments"."asset" IN ('BTC', 'ETH', 'USDT_ERC20'))
CHECK("chain_payments"."network" IN ('bitcoin', 'ethereum'))
CHECK("chain_payments"."status" IN ('seen', 'credited', 'held', 'dropped'))
CHECK("chain_payments"."output_index" >= 0)
CHECK("chain_payments"."confirmations" >= 0)
CHECK("chain_payments"."status" IN ('seen', 'dropped') OR "chain_payments"."transaction_id" IS NOT NULL)

-- chain_payouts
CHECK("chain_payouts"."asset" IN ('BTC', 'ETH', 'USDT_ERC20'))
CHECK("chain_payouts"."status" IN ('recorded', 'matched', 'confirmed', 'mismatch'))
CHECK("chain_payouts"."txid" = lower("chain_payouts"."txid"))
CHECK("chain_payouts"."status" IN ('recorded', 'mismatch') OR "chain_payouts"."output_index" IS NOT NULL)
CHECK("chain_payouts"."confirmations" >= 0)

-- client_flags
CHECK("client_flags"."flag" IN ('watch', 'vip', 'do_not_contact'))

-- client_notes
CHECK(length(trim("client_notes"."body")) BETWEEN 1 AND 2000)
CHECK(json_valid("client_notes"."flags_added") AND json_type("client_notes"."flags_added") = 'array' AND json_valid("client_notes"."flags_removed") AND json_type("client_notes"."flags_removed") = 'array')

-- deposit_addresses
CHECK("deposit_addresses"."network" IN ('bitcoin', 'ethereum'))
CHECK("deposit_addresses"."derivation_index" >= 0 AND "deposit_addresses"."derivation_index" <= 2147483647)
CHECK("deposit_addresses"."address" = lower("deposit_addresses"."address"))

-- email_outbox
CHECK("email_outbox"."status" IN ('pending', 'sent', 'captured', 'failed'))
CHECK("email_outbox"."payload" IS NOT NULL OR "email_outbox"."archive_id" IS NOT NULL)

-- mail_preferences
CHECK("mail_preferences"."category" IN ('requests', 'entries', 'verification', 'orders'))
CHECK("mail_preferences"."wanted" IN (0, 1))

-- monitoring_alerts
CHECK("monitoring_alerts"."rule" IN ('large_transaction', 'structuring', 'velocity', 'rapid_in_out', 'new_destination_after_security_change', 'dormant_account'))
CHECK("monitoring_alerts"."status" IN ('open', 'dismissed', 'escalated', 'reported'))
CHECK(json_valid("monitoring_alerts"."detail") AND json_type("monitoring_alerts"."detail") = 'object')
CHECK(("monitoring_alerts"."status" = 'open') = ("monitoring_alerts"."disposed_at" IS NULL) AND ("monitoring_alerts"."status" = 'open') = ("monitoring_alerts"."disposed_by" IS NULL))

-- notifications
CHECK("notifications"."kind" IN ('request_decided', 'entry_posted', 'verification_decided', 'verification_restricted', 'security_notice', 'order_filled'))

-- oauth_accounts
CHECK("oauth_accounts"."provider" IN ('google', 'github'))

-- oauth_pending
CHECK("oauth_pending"."purpose" IN ('register', 'link'))

-- passkeys
CHECK(length("passkeys"."name") BETWEEN 1 AND 64)
CHECK("passkeys"."device_type" IN ('singleDevice', 'multiDevice'))
CHECK("passkeys"."counter" >= 0)

-- position_closes
CHECK("position_closes"."shares_e4" > 0 AND "position_closes"."cost_cents" >= 0)

-- positions
CHECK("positions"."status" IN ('open', 'closed', 'cancelled'))
CHECK("positions"."shares_e4" > 0 AND "positions"."price_e4" > 0 AND "positions"."cost_cents" > 0)
CHECK("positions"."open_shares_e4" BETWEEN 0 AND "positions"."shares_e4" AND "positions"."open_cost_cents" BETWEEN 0 AND "positions"."cost_cents")
CHECK(("positions"."status" = 'open') = ("positions"."open_shares_e4" > 0) AND ("positions"."open_shares_e4" > 0 OR "positions"."open_cost_cents" = 0))

-- profiles
CHECK("profiles"."status" IN ('active', 'suspended'))
CHECK("profiles"."role" IN ('user', 'admin'))

-- proposals
CHECK("proposals"."kind" IN ('ledger_entry', 'request_approval', 'wallet_change', 'position_close'))
CHECK("proposals"."status" IN ('pending', 'approved', 'rejected', 'expired'))
CHECK("proposals"."amount_cents" IS NULL OR "proposals"."amount_cents" > 0)
CHECK("proposals"."kind" <> 'ledger_entry' OR ("proposals"."user_id" IS NOT NULL AND "proposals"."transaction_type" IS NOT NULL AND "proposals"."amount_cents" IS NOT NULL AND length(trim(coalesce("proposals"."note", ''))) > 0))
CHECK("proposals"."kind" <> 'request_approval' OR ("proposals"."user_id" IS NOT NULL AND "proposals"."transaction_id" IS NOT NULL AND "proposals"."transaction_type" IS NOT NULL))
CHECK("proposals"."kind" <> 'wallet_change' OR ("proposals"."wallet_id" IS NOT NULL AND "proposals"."old_address" IS NOT NULL AND "proposals"."new_address" IS NOT NULL))
CHECK("proposals"."kind" <> 'position_close' OR ("proposals"."user_id" IS NOT NULL AND "proposals"."position_id" IS NOT NULL AND "proposals"."shares_e4" > 0 AND "proposals"."stock" IS NOT NULL AND "proposals"."amount_cents" IS NOT NULL AND length(trim(coalesce("proposals"."note", ''))) > 0))

-- sign_in_events
CHECK("sign_in_events"."result" IN ('success', 'wrong_password', 'wrong_code', 'locked'))

-- stock_sales
CHECK("stock_sales"."shares_e4" > 0 AND "stock_sales"."price_e4" > 0 AND "stock_sales"."proceeds_cents" >= 0)

-- team_proposals
CHECK("team_proposals"."kind" IN ('grant_owner', 'reset_two_factor'))
CHECK("team_proposals"."status" IN ('pending', 'approved', 'rejected'))

-- transactions
CHECK("amount_cents" > 0)
CHECK("transaction_type" IN ('deposit', 'stock_deposit', 'fee_deposit', 'withdraw', 'profit', 'loss'))
CHECK("status" IN ('pending', 'approved', 'rejected', 'cancelled'))
CHECK("transaction_type" <> 'stock_deposit' OR "stock" IS NOT NULL)

-- users
CHECK("users"."email" = lower("users"."email"))
CHECK("users"."role" IN ('user', 'admin'))

-- verification_cases
CHECK("verification_cases"."status" IN ('draft', 'submitted', 'approved', 'rejected', 'more_info_needed'))
CHECK("verification_cases"."document_type" IS NULL OR "verification_cases"."document_type" IN ('passport', 'national_id', 'driving_licence'))
CHECK(("verification_cases"."ended_at" IS NULL) = ("verification_cases"."retain_until" IS NULL))

-- verification_documents
CHECK("verification_documents"."kind" IN ('identity_front', 'identity_back', 'proof_of_address'))
CHECK("verification_documents"."content_type" IN ('image/jpeg', 'image/png', 'application/pdf'))
CHECK("verification_documents"."size_bytes" > 0)

-- webauthn_challenges
CHECK("webauthn_challenges"."purpose" IN ('register', 'sign_in', 'second_factor'))
CHECK(("webauthn_challenges"."purpose" = 'sign_in') = ("webauthn_challenges"."user_id" IS NULL))
