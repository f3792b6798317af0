CREATE TABLE `ledger_totals` (
	`user_id` text NOT NULL,
	`status` text NOT NULL,
	`transaction_type` text NOT NULL,
	`stock` text NOT NULL,
	`count` integer NOT NULL,
	`cents` integer NOT NULL,
	PRIMARY KEY(`user_id`, `status`, `transaction_type`, `stock`)
);
--> statement-breakpoint
DROP INDEX `transactions_user_totals_idx`;--> statement-breakpoint
CREATE INDEX `users_role_created_idx` ON `users` (`role`,`created_at`,`id`);--> statement-breakpoint
-- The totals of the ledger as it stands, then triggers that keep them equal to it in the same statement as
-- every insert, decision and archival delete. Uppercase BEGIN/END and LF line endings, as in 0001.
INSERT INTO `ledger_totals` (`user_id`, `status`, `transaction_type`, `stock`, `count`, `cents`)
SELECT `user_id`, `status`, `transaction_type`, coalesce(`stock`, ''), count(*), sum(`amount_cents`)
FROM `transactions`
GROUP BY `user_id`, `status`, `transaction_type`, coalesce(`stock`, '');
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
-- Only a decision may change a row (0001), but the totals follow any change of the columns they are keyed on.
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
