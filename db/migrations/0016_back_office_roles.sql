-- Back-office roles: an admin holds one or more. What each role may do is the permission table in
-- app/lib/permissions.ts; the database keeps who holds which role, and who granted it when.
CREATE TABLE `admin_roles` (
	`user_id` text NOT NULL,
	`role` text NOT NULL,
	`granted_by` text,
	`granted_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	PRIMARY KEY(`user_id`, `role`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`granted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "admin_roles_role" CHECK("admin_roles"."role" IN ('support', 'operator', 'approver', 'compliance', 'owner'))
);
--> statement-breakpoint
-- Every admin so far could do everything: each becomes an owner.
INSERT INTO `admin_roles` (`user_id`, `role`) SELECT `id`, 'owner' FROM `users` WHERE `role` = 'admin';
--> statement-breakpoint
-- Only an admin holds a back-office role.
CREATE TRIGGER `admin_roles_admins_only` BEFORE INSERT ON `admin_roles`
WHEN (SELECT `role` FROM `users` WHERE `id` = NEW.`user_id`) IS NOT 'admin'
BEGIN
	SELECT RAISE(ABORT, 'only an admin holds a back-office role');
END;
