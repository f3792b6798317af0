-- A payment marked dropped (its transaction unknown to the chain's API) is seen again when it turns up in a block
-- after all: an API that lagged, or a payment broadcast again, must not leave a client's money uncredited. Credited
-- and held payments stay final. Uppercase BEGIN/END and LF line endings, as in 0022.
DROP TRIGGER `chain_payments_settled_are_final`;
--> statement-breakpoint
CREATE TRIGGER `chain_payments_settled_are_final`
BEFORE UPDATE ON `chain_payments`
WHEN OLD.status <> 'seen' AND (NEW.transaction_id IS NOT OLD.transaction_id OR (NEW.status IS NOT OLD.status
  AND NOT (OLD.status = 'dropped' AND NEW.status = 'seen')))
BEGIN
  SELECT RAISE(ABORT, 'a settled chain payment is final');
END;
