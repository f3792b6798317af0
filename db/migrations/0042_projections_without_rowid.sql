-- The three projections of the ledger (ledger_totals 0003, ledger_months 0008, ledger_days 0024) become WITHOUT ROWID
-- tables: each is looked up only by its primary key, which a rowid table keeps twice (the row, and an index of the
-- key pointing at it). Stored in the key's own b-tree, a decided request keeps about 100 bytes less
-- (docs/performance.md, "How far one database goes"). Rows, columns, keys and the triggers that keep them are
-- unchanged: the triggers on `transactions` are dropped first and made again word for word, so no statement ever
-- sees a projection missing.
--> statement-breakpoint
DROP TRIGGER `ledger_totals_after_insert`;
--> statement-breakpoint
DROP TRIGGER `ledger_totals_after_update`;
--> statement-breakpoint
DROP TRIGGER `ledger_totals_after_delete`;
--> statement-breakpoint
DROP TRIGGER `ledger_months_after_insert`;
--> statement-breakpoint
DROP TRIGGER `ledger_months_after_update`;
--> statement-breakpoint
DROP TRIGGER `ledger_months_after_delete`;
--> statement-breakpoint
DROP TRIGGER `ledger_days_after_insert`;
--> statement-breakpoint
DROP TRIGGER `ledger_days_after_update`;
--> statement-breakpoint
DROP TRIGGER `ledger_days_after_delete`;
--> statement-breakpoint
CREATE TABLE `ledger_totals_without_rowid` (
	`user_id` text NOT NULL,
	`status` text NOT NULL,
	`transaction_type` text NOT NULL,
	`stock` text NOT NULL,
	`count` integer NOT NULL,
	`cents` integer NOT NULL,
	PRIMARY KEY(`user_id`, `status`, `transaction_type`, `stock`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `ledger_totals_without_rowid` (`user_id`, `status`, `transaction_type`, `stock`, `count`, `cents`) SELECT `user_id`, `status`, `transaction_type`, `stock`, `count`, `cents` FROM `ledger_totals`;
--> statement-breakpoint
DROP TABLE `ledger_totals`;
--> statement-breakpoint
ALTER TABLE `ledger_totals_without_rowid` RENAME TO `ledger_totals`;
--> statement-breakpoint
CREATE TABLE `ledger_months_without_rowid` (
	`user_id` text NOT NULL,
	`month` text NOT NULL,
	`transaction_type` text NOT NULL,
	`count` integer NOT NULL,
	`cents` integer NOT NULL,
	PRIMARY KEY(`user_id`, `month`, `transaction_type`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `ledger_months_without_rowid` (`user_id`, `month`, `transaction_type`, `count`, `cents`) SELECT `user_id`, `month`, `transaction_type`, `count`, `cents` FROM `ledger_months`;
--> statement-breakpoint
DROP TABLE `ledger_months`;
--> statement-breakpoint
ALTER TABLE `ledger_months_without_rowid` RENAME TO `ledger_months`;
--> statement-breakpoint
CREATE TABLE `ledger_days_without_rowid` (
	`user_id` text NOT NULL,
	`day` text NOT NULL,
	`transaction_type` text NOT NULL,
	`count` integer NOT NULL,
	`cents` integer NOT NULL,
	PRIMARY KEY(`user_id`, `day`, `transaction_type`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `ledger_days_without_rowid` (`user_id`, `day`, `transaction_type`, `count`, `cents`) SELECT `user_id`, `day`, `transaction_type`, `count`, `cents` FROM `ledger_days`;
--> statement-breakpoint
DROP TABLE `ledger_days`;
--> statement-breakpoint
ALTER TABLE `ledger_days_without_rowid` RENAME TO `ledger_days`;
--> statement-breakpoint
CREATE TRIGGER `ledger_totals_after_insert`
AFTER INSERT ON `transactions`
BEGIN
  INSERT INTO `ledger_totals` (`user_id`, `status`, `transaction_type`, `stock`, `count`, `cents`)
  VALUES (NEW.user_id, NEW.status, NEW.transaction_type, coalesce(NEW.stock, ''), 1, NEW.amount_cents)
  ON CONFLICT (`user_id`, `status`, `transaction_type`, `stock`)
  DO UPDATE SET `count` = `count` + 1, `cents` = `cents` + excluded.`cents`;
END;
--> statement-breakpoint
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
--> statement-breakpoint
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
