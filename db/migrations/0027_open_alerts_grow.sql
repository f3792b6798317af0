-- An open monitoring alert grows (docs/product.md, "Transaction monitoring"; docs/decisions/0055): a windowed rule's
-- later matching requests join the client's open alert, so its detail (the requests and the figures of its words)
-- may change while it is open. It never loses a request it listed, and once decided nothing about it changes.
-- Uppercase BEGIN/END and LF line endings, as in 0022.
DROP TRIGGER `monitoring_alerts_decided_once`;
--> statement-breakpoint
CREATE TRIGGER `monitoring_alerts_decided_once`
BEFORE UPDATE ON `monitoring_alerts`
WHEN OLD.status <> 'open'
  OR NEW.id IS NOT OLD.id OR NEW.user_id IS NOT OLD.user_id OR NEW.rule IS NOT OLD.rule
  OR NEW.trigger_transaction_id IS NOT OLD.trigger_transaction_id OR NEW.created_at IS NOT OLD.created_at
  OR (NEW.detail IS NOT OLD.detail AND NEW.status <> 'open')
BEGIN
  SELECT RAISE(ABORT, 'a monitoring alert is decided once');
END;
--> statement-breakpoint
-- A decision covers every request the alert listed when it was taken: an open alert only ever adds requests.
CREATE TRIGGER `monitoring_alerts_only_grow`
BEFORE UPDATE OF `detail` ON `monitoring_alerts`
WHEN EXISTS (
  SELECT 1 FROM json_each(OLD.detail, '$.transactionIds') AS listed
  WHERE listed.value NOT IN (SELECT value FROM json_each(NEW.detail, '$.transactionIds'))
)
BEGIN
  SELECT RAISE(ABORT, 'an open monitoring alert only grows');
END;
