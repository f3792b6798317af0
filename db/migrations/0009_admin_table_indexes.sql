CREATE INDEX `profiles_role_name_idx` ON `profiles` (`role`,lower(CASE WHEN trim("first_name" || ' ' || "last_name") = '' THEN "email" ELSE trim("first_name" || ' ' || "last_name") END),`user_id`);--> statement-breakpoint
CREATE INDEX `profiles_role_balance_idx` ON `profiles` (`role`,`balance_cents`,`user_id`);--> statement-breakpoint
CREATE INDEX `transactions_recent_idx` ON `transactions` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `transactions_status_recent_idx` ON `transactions` (`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `users_role_activity_idx` ON `users` (`role`,(CASE WHEN "last_login_at" IS NULL THEN 0 ELSE "last_login_at" END),`id`);