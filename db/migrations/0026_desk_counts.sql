-- The desk's two running totals (/admin: Total Users and Active Alerts), kept by triggers in the same statement as
-- the row they count, so the desk reads two primary-key rows instead of counting every client and every pending
-- request on each load and live refresh (a count that grew with the firm: 10,000 profiles and 20,000 pending rows
-- were about 2 ms of the desk's 10). 'clients' counts the profiles of role 'user' (a client whose data was deleted
-- has none); 'pending' counts the transactions waiting for a decision. A test holds both equal to COUNT(*) after
-- random ledgers. Uppercase BEGIN/END and LF line endings, as in 0001.
CREATE TABLE `desk_counts` (
	`name` text PRIMARY KEY NOT NULL,
	`n` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `desk_counts` (`name`, `n`)
VALUES ('clients', (SELECT count(*) FROM `profiles` WHERE `role` = 'user')),
       ('pending', (SELECT count(*) FROM `transactions` WHERE `status` = 'pending'));
--> statement-breakpoint
CREATE TRIGGER `desk_counts_profiles_after_insert`
AFTER INSERT ON `profiles`
WHEN NEW.role = 'user'
BEGIN
  UPDATE `desk_counts` SET `n` = `n` + 1 WHERE `name` = 'clients';
END;
--> statement-breakpoint
CREATE TRIGGER `desk_counts_profiles_after_update`
AFTER UPDATE OF `role` ON `profiles`
WHEN (OLD.role = 'user') <> (NEW.role = 'user')
BEGIN
  UPDATE `desk_counts` SET `n` = `n` + CASE WHEN NEW.role = 'user' THEN 1 ELSE -1 END WHERE `name` = 'clients';
END;
--> statement-breakpoint
CREATE TRIGGER `desk_counts_profiles_after_delete`
AFTER DELETE ON `profiles`
WHEN OLD.role = 'user'
BEGIN
  UPDATE `desk_counts` SET `n` = `n` - 1 WHERE `name` = 'clients';
END;
--> statement-breakpoint
CREATE TRIGGER `desk_counts_transactions_after_insert`
AFTER INSERT ON `transactions`
WHEN NEW.status = 'pending'
BEGIN
  UPDATE `desk_counts` SET `n` = `n` + 1 WHERE `name` = 'pending';
END;
--> statement-breakpoint
CREATE TRIGGER `desk_counts_transactions_after_update`
AFTER UPDATE OF `status` ON `transactions`
WHEN (OLD.status = 'pending') <> (NEW.status = 'pending')
BEGIN
  UPDATE `desk_counts` SET `n` = `n` + CASE WHEN NEW.status = 'pending' THEN 1 ELSE -1 END WHERE `name` = 'pending';
END;
--> statement-breakpoint
CREATE TRIGGER `desk_counts_transactions_after_delete`
AFTER DELETE ON `transactions`
WHEN OLD.status = 'pending'
BEGIN
  UPDATE `desk_counts` SET `n` = `n` - 1 WHERE `name` = 'pending';
END;
