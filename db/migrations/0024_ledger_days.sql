-- Balance over time (/portfolio, the dashboard's chart). `ledger_days` keeps each client's approved movements per
-- UTC day and type, keyed like `ledger_months` (0008) by when the money moved: the decision, or when a row written
-- approved without one was written. A day's closing balance is then the opening of its month (the signed months
-- before it) plus the signed days of the month up to it: a bounded read, never the client's history. The signs
-- are applied by the reader from the rules table; this table only counts and sums. Written only by the triggers
-- below, in the same statement as the ledger row. Uppercase BEGIN/END and LF line endings, as in 0001.
CREATE TABLE `ledger_days` (
	`user_id` text NOT NULL,
	`day` text NOT NULL,
	`transaction_type` text NOT NULL,
	`count` integer NOT NULL,
	`cents` integer NOT NULL,
	PRIMARY KEY(`user_id`, `day`, `transaction_type`)
);
--> statement-breakpoint
-- Positions: each stock's first and last approved deposit is one step down this index, however many there are.
CREATE INDEX `transactions_user_stock_moved_idx` ON `transactions` (`user_id`,`stock`,coalesce("decided_at", "created_at")) WHERE status = 'approved' AND transaction_type = 'stock_deposit';
--> statement-breakpoint
INSERT INTO `ledger_days` (`user_id`, `day`, `transaction_type`, `count`, `cents`)
SELECT `user_id`, strftime('%Y-%m-%d', coalesce(`decided_at`, `created_at`) / 1000, 'unixepoch'), `transaction_type`,
       count(*), sum(`amount_cents`)
FROM `transactions`
WHERE `status` = 'approved'
GROUP BY 1, 2, 3;
--> statement-breakpoint
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
--> statement-breakpoint
-- A decision (pending -> approved) adds the row to its day; the days follow any change of the columns they are
-- keyed on, though only a decision may change a row (0007).
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
--> statement-breakpoint
-- The deletion of a client's data (archived first) takes their days with it.
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
