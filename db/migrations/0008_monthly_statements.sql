-- Monthly statements. `ledger_months` keeps each client's approved movements per month (UTC) and type, keyed by
-- when the money moved: the decision (an admin's entry is decided as it is written; a row written approved
-- without a decision time moved when written). A statement's opening balance is then the signed sum of the
-- months before it. Written only by the triggers below, in the same statement as the ledger row, like
-- `ledger_totals` (0003). Uppercase BEGIN/END and LF line endings, as in 0001.
CREATE TABLE `ledger_months` (
	`user_id` text NOT NULL,
	`month` text NOT NULL,
	`transaction_type` text NOT NULL,
	`count` integer NOT NULL,
	`cents` integer NOT NULL,
	PRIMARY KEY(`user_id`, `month`, `transaction_type`)
);
--> statement-breakpoint
CREATE INDEX `transactions_user_moved_idx` ON `transactions` (`user_id`,coalesce("decided_at", "created_at"),`id`) WHERE status = 'approved';
--> statement-breakpoint
INSERT INTO `ledger_months` (`user_id`, `month`, `transaction_type`, `count`, `cents`)
SELECT `user_id`, strftime('%Y-%m', coalesce(`decided_at`, `created_at`) / 1000, 'unixepoch'), `transaction_type`,
       count(*), sum(`amount_cents`)
FROM `transactions`
WHERE `status` = 'approved'
GROUP BY 1, 2, 3;
--> statement-breakpoint
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
--> statement-breakpoint
-- A decision (pending -> approved) adds the row to its month; the months follow any change of the columns they
-- are keyed on, though only a decision may change a row (0007).
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
--> statement-breakpoint
-- The deletion of a client's data (archived first) takes its months with it.
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
