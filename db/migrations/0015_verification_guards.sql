-- Identity verification's guards, held by the database whatever the application does (docs/product.md, "Identity
-- verification"). Written with uppercase BEGIN/END and LF line endings: D1's remote migration path splits
-- statements on them.

-- Money leaves only a verified client's account: a withdrawal is approved (directly or by a second admin's
-- approval of a proposal) only while the client's live verification case is approved.
CREATE TRIGGER `transactions_withdrawal_approval_requires_verification`
BEFORE UPDATE OF `status` ON `transactions`
WHEN NEW.status = 'approved' AND OLD.status = 'pending' AND OLD.transaction_type = 'withdraw'
  AND NOT EXISTS (SELECT 1 FROM `verification_cases` WHERE `user_id` = OLD.user_id AND `status` = 'approved'
                  AND `ended_at` IS NULL)
BEGIN
  SELECT RAISE(ABORT, 'a withdrawal is approved only for a verified client');
END;
--> statement-breakpoint
-- The evidence of an ended account is kept until its retain_until: no earlier deletion of the case or its files.
CREATE TRIGGER `verification_cases_kept_until_retained`
BEFORE DELETE ON `verification_cases`
WHEN OLD.ended_at IS NOT NULL AND OLD.retain_until > CAST(unixepoch('subsec') * 1000 AS INTEGER)
BEGIN
  SELECT RAISE(ABORT, 'verification evidence is kept until its retain_until');
END;
--> statement-breakpoint
CREATE TRIGGER `verification_documents_kept_until_retained`
BEFORE DELETE ON `verification_documents`
WHEN EXISTS (SELECT 1 FROM `verification_cases` WHERE `id` = OLD.case_id AND `ended_at` IS NOT NULL
             AND `retain_until` > CAST(unixepoch('subsec') * 1000 AS INTEGER))
BEGIN
  SELECT RAISE(ABORT, 'verification evidence is kept until its retain_until');
END;
