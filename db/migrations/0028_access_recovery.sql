-- Access recovery (docs/product.md, "Access recovery"; docs/decisions/0058): a client who lost every second factor
-- asks, with a new photo of their identity document and a selfie holding it; two admins of the access-recovery roles
-- approve, one after the other. Uppercase BEGIN/END and LF line endings, as in 0022.
CREATE TABLE `access_recovery_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`case_id` integer NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`token_hash` text NOT NULL,
	`user_agent` text,
	`country` text,
	`city` text,
	`created_at` integer NOT NULL,
	`submitted_at` integer,
	`first_approved_by` text,
	`first_approved_at` integer,
	`decided_by` text,
	`decided_at` integer,
	`refusal_reason` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "access_recovery_requests_status" CHECK("access_recovery_requests"."status" IN ('open', 'submitted', 'first_approved', 'approved', 'refused', 'cancelled'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `access_recovery_requests_live_idx` ON `access_recovery_requests` (`user_id`) WHERE status IN ('open', 'submitted', 'first_approved');
--> statement-breakpoint
CREATE INDEX `access_recovery_requests_queue_idx` ON `access_recovery_requests` (`status`,`submitted_at`,`id`);
--> statement-breakpoint
CREATE TABLE `access_recovery_files` (
	`id` text PRIMARY KEY NOT NULL,
	`request_id` integer NOT NULL,
	`case_id` integer NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`object_key` text NOT NULL,
	`file_name` text NOT NULL,
	`content_type` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`sha256` text NOT NULL,
	`uploaded_at` integer NOT NULL,
	`replaced_at` integer,
	CONSTRAINT "access_recovery_files_kind" CHECK("access_recovery_files"."kind" IN ('identity_photo', 'selfie')),
	CONSTRAINT "access_recovery_files_type" CHECK("access_recovery_files"."content_type" IN ('image/jpeg', 'image/png', 'application/pdf')),
	CONSTRAINT "access_recovery_files_size" CHECK("access_recovery_files"."size_bytes" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `access_recovery_files_object_key_unique` ON `access_recovery_files` (`object_key`);
--> statement-breakpoint
CREATE UNIQUE INDEX `access_recovery_files_current_idx` ON `access_recovery_files` (`request_id`,`kind`) WHERE replaced_at IS NULL;
--> statement-breakpoint
CREATE INDEX `access_recovery_files_case_idx` ON `access_recovery_files` (`case_id`);
--> statement-breakpoint
-- The steps in their order: open -> submitted (or cancelled); submitted -> first_approved, refused or cancelled;
-- first_approved -> approved, refused or cancelled. An ended request never changes again.
CREATE TRIGGER `access_recovery_requests_in_order`
BEFORE UPDATE OF `status` ON `access_recovery_requests`
WHEN NEW.status IS NOT OLD.status AND NOT (
  (OLD.status = 'open' AND NEW.status IN ('submitted', 'cancelled'))
  OR (OLD.status = 'submitted' AND NEW.status IN ('first_approved', 'refused', 'cancelled'))
  OR (OLD.status = 'first_approved' AND NEW.status IN ('approved', 'refused', 'cancelled'))
)
BEGIN
  SELECT RAISE(ABORT, 'an access recovery request moves one step at a time and ends once');
END;
--> statement-breakpoint
CREATE TRIGGER `access_recovery_requests_ended_are_immutable`
BEFORE UPDATE ON `access_recovery_requests`
WHEN OLD.status IN ('approved', 'refused', 'cancelled')
BEGIN
  SELECT RAISE(ABORT, 'an ended access recovery request cannot change');
END;
--> statement-breakpoint
-- Four eyes: the approval that restores access is a second admin's, never the first approver's.
CREATE TRIGGER `access_recovery_requests_second_admin_approves`
BEFORE UPDATE OF `status` ON `access_recovery_requests`
WHEN NEW.status = 'approved' AND (NEW.decided_by IS NULL OR NEW.decided_by IS OLD.first_approved_by)
BEGIN
  SELECT RAISE(ABORT, 'an access recovery is approved by a second admin');
END;
--> statement-breakpoint
-- Both approvals and a refusal are acts of the access-recovery roles (the permission table's `restoreAccess`).
CREATE TRIGGER `access_recovery_requests_decided_by_role`
BEFORE UPDATE OF `status` ON `access_recovery_requests`
WHEN (NEW.status = 'first_approved' AND NOT EXISTS (
        SELECT 1 FROM admin_roles WHERE user_id = NEW.first_approved_by AND role IN ('compliance', 'owner')))
  OR (NEW.status IN ('approved', 'refused') AND NOT EXISTS (
        SELECT 1 FROM admin_roles WHERE user_id = NEW.decided_by AND role IN ('compliance', 'owner')))
BEGIN
  SELECT RAISE(ABORT, 'the admin''s roles do not allow deciding an access recovery');
END;
