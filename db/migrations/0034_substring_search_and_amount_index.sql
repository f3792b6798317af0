-- /admin/transactions?min=&max=: a rare amount range is read off this index and sorted, instead of walking the
-- whole history newest first until a page fills.
CREATE INDEX `transactions_amount_recent_idx` ON `transactions` (`amount_cents`,`created_at`,`id`);
--> statement-breakpoint
-- The back office's client search (User Management, the Client filter of /admin/transactions): any part of a
-- client's first and last name or e-mail, case-insensitive, found through a trigram index instead of a LIKE over
-- every client. One row a profile (rowid = profiles.id, stable and what the triggers look up), the name as the
-- search has always read it (first, a space, last) and the account's e-mail. Kept by the triggers below in the
-- statement that changes a profile or an e-mail. Uppercase BEGIN/END and LF line endings, as in 0026.
CREATE VIRTUAL TABLE `client_search` USING fts5(`name`, `email`, tokenize = 'trigram');
--> statement-breakpoint
INSERT INTO `client_search` (`rowid`, `name`, `email`)
SELECT p.`id`, p.`first_name` || ' ' || p.`last_name`, coalesce(u.`email`, p.`email`)
FROM `profiles` p LEFT JOIN `users` u ON u.`id` = p.`user_id`;
--> statement-breakpoint
CREATE TRIGGER `client_search_profiles_after_insert`
AFTER INSERT ON `profiles`
BEGIN
  INSERT INTO `client_search` (`rowid`, `name`, `email`)
  VALUES (NEW.id, NEW.first_name || ' ' || NEW.last_name,
          coalesce((SELECT `email` FROM `users` WHERE `id` = NEW.user_id), NEW.email));
END;
--> statement-breakpoint
CREATE TRIGGER `client_search_profiles_after_update`
AFTER UPDATE OF `id`, `user_id`, `first_name`, `last_name` ON `profiles`
BEGIN
  DELETE FROM `client_search` WHERE `rowid` = OLD.id;
  INSERT INTO `client_search` (`rowid`, `name`, `email`)
  VALUES (NEW.id, NEW.first_name || ' ' || NEW.last_name,
          coalesce((SELECT `email` FROM `users` WHERE `id` = NEW.user_id), NEW.email));
END;
--> statement-breakpoint
CREATE TRIGGER `client_search_profiles_after_delete`
AFTER DELETE ON `profiles`
BEGIN
  DELETE FROM `client_search` WHERE `rowid` = OLD.id;
END;
--> statement-breakpoint
CREATE TRIGGER `client_search_users_after_update`
AFTER UPDATE OF `email` ON `users`
BEGIN
  UPDATE `client_search` SET `email` = NEW.email
  WHERE `rowid` = (SELECT `id` FROM `profiles` WHERE `user_id` = NEW.id);
END;
