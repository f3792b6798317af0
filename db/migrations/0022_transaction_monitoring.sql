-- Transaction monitoring (docs/product.md, "Transaction monitoring"): an alert for each pattern a compliance officer
-- must look at, written once per client, rule and triggering transaction, then decided once. Never shown to clients.
-- No foreign keys: an alert outlives the deletion of the client's data (the regulator may ask who looked, and when).
-- Written with uppercase BEGIN/END and LF line endings: D1's remote migration path splits statements on them.
CREATE TABLE `monitoring_alerts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`rule` text NOT NULL,
	`trigger_transaction_id` integer NOT NULL,
	`detail` text DEFAULT '{}' NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`disposed_by` text,
	`disposed_at` integer,
	`disposition_note` text,
	`report_reference` text,
	CONSTRAINT "monitoring_alerts_rule" CHECK("monitoring_alerts"."rule" IN ('large_transaction', 'structuring', 'velocity', 'rapid_in_out', 'new_destination_after_security_change', 'dormant_account')),
	CONSTRAINT "monitoring_alerts_status" CHECK("monitoring_alerts"."status" IN ('open', 'dismissed', 'escalated', 'reported')),
	CONSTRAINT "monitoring_alerts_detail" CHECK(json_valid("monitoring_alerts"."detail") AND json_type("monitoring_alerts"."detail") = 'object'),
	CONSTRAINT "monitoring_alerts_disposed" CHECK(("monitoring_alerts"."status" = 'open') = ("monitoring_alerts"."disposed_at" IS NULL) AND ("monitoring_alerts"."status" = 'open') = ("monitoring_alerts"."disposed_by" IS NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `monitoring_alerts_once_uq` ON `monitoring_alerts` (`user_id`,`rule`,`trigger_transaction_id`);
--> statement-breakpoint
CREATE INDEX `monitoring_alerts_open_idx` ON `monitoring_alerts` (`created_at`,`id`) WHERE "monitoring_alerts"."status" = 'open';
--> statement-breakpoint
CREATE INDEX `monitoring_alerts_user_idx` ON `monitoring_alerts` (`user_id`,`rule`,`created_at`);
--> statement-breakpoint
-- The new-destination rule asks for one account's recent security notices on every withdrawal request.
CREATE INDEX `email_outbox_security_idx` ON `email_outbox` (`to_address`,`created_at`) WHERE "email_outbox"."template" = 'security_notice';
--> statement-breakpoint
-- Decided once: an open alert takes one decision (who, when, what); after it, nothing about the alert changes, and
-- nothing about what fired it changes before either.
CREATE TRIGGER `monitoring_alerts_decided_once`
BEFORE UPDATE ON `monitoring_alerts`
WHEN OLD.status <> 'open'
  OR NEW.id IS NOT OLD.id OR NEW.user_id IS NOT OLD.user_id OR NEW.rule IS NOT OLD.rule
  OR NEW.trigger_transaction_id IS NOT OLD.trigger_transaction_id OR NEW.detail IS NOT OLD.detail
  OR NEW.created_at IS NOT OLD.created_at
BEGIN
  SELECT RAISE(ABORT, 'a monitoring alert is decided once');
END;
--> statement-breakpoint
CREATE TRIGGER `monitoring_alerts_kept`
BEFORE DELETE ON `monitoring_alerts`
BEGIN
  SELECT RAISE(ABORT, 'monitoring alerts are never deleted');
END;
