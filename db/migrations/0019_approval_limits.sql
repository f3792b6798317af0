-- Approval limits per admin: an admin's own acts add up over a rolling 24 hours (docs/product.md, "Approval limits
-- per admin"). The sums are read inside the statement that writes the act, so they need an index of the approved
-- rows each admin decided, by when; and whether a second admin approved a row (its proposal, by transaction).
CREATE INDEX `transactions_decided_by_idx` ON `transactions` (`decided_by`,`decided_at`) WHERE status = 'approved';
--> statement-breakpoint
CREATE INDEX `proposals_transaction_idx` ON `proposals` (`transaction_id`);
--> statement-breakpoint
-- Why an act under the threshold waits for a second admin: the limit it would break, in the proposer's words.
ALTER TABLE `proposals` ADD `limit_reason` text;
