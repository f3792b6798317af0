-- The team page (/admin/team): deactivated admins, invitations, and the owners' second approvals.
-- A deactivated admin keeps their account and history but cannot sign in; their sessions end when it happens.
ALTER TABLE `users` ADD `deactivated_at` integer;
--> statement-breakpoint
-- An invitation to join the back office: only the SHA-256 of the mailed token is stored; single use, 48 hours.
-- `roles` is a JSON array of back-office roles (never owner: that takes a second owner's approval).
CREATE TABLE `admin_invitations` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`roles` text NOT NULL,
	`invited_by` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`accepted_at` integer,
	FOREIGN KEY (`invited_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "admin_invitations_email_lower" CHECK("admin_invitations"."email" = lower("admin_invitations"."email"))
);
--> statement-breakpoint
CREATE INDEX `admin_invitations_email_idx` ON `admin_invitations` (`email`,`expires_at`);
--> statement-breakpoint
-- Granting the owner role and resetting another admin's two-factor sign-in: one owner proposes, another decides.
CREATE TABLE `team_proposals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`target_id` text NOT NULL,
	`proposed_by` text,
	`proposed_at` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`decided_by` text,
	`decided_at` integer,
	FOREIGN KEY (`target_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`proposed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`decided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "team_proposals_kind" CHECK("team_proposals"."kind" IN ('grant_owner', 'reset_two_factor')),
	CONSTRAINT "team_proposals_status" CHECK("team_proposals"."status" IN ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
-- One open proposal of a kind per admin.
CREATE UNIQUE INDEX `team_proposals_open_uq` ON `team_proposals` (`kind`,`target_id`) WHERE "team_proposals"."status" = 'pending';
--> statement-breakpoint
-- The second pair of eyes, in the database too: whoever proposed never approves.
CREATE TRIGGER `team_proposals_second_owner_approves` BEFORE UPDATE OF `status` ON `team_proposals`
WHEN NEW.`status` = 'approved' AND NEW.`decided_by` IS OLD.`proposed_by`
BEGIN
	SELECT RAISE(ABORT, 'a team proposal is approved by another owner');
END;
--> statement-breakpoint
-- A decided proposal stays as it was decided.
CREATE TRIGGER `team_proposals_decided_are_immutable` BEFORE UPDATE ON `team_proposals`
WHEN OLD.`status` <> 'pending'
BEGIN
	SELECT RAISE(ABORT, 'a decided team proposal cannot change');
END;
