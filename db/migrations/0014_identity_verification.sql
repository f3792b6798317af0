CREATE TABLE `verification_cases` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`legal_first_name` text,
	`legal_last_name` text,
	`date_of_birth` text,
	`country` text,
	`address` text,
	`document_type` text,
	`document_number` text,
	`submitted_at` integer,
	`reviewed_by` text,
	`reviewed_at` integer,
	`review_note` text,
	`review_document_kind` text,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`updated_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`ended_at` integer,
	`retain_until` integer,
	CONSTRAINT "verification_cases_status" CHECK("verification_cases"."status" IN ('draft', 'submitted', 'approved', 'rejected', 'more_info_needed')),
	CONSTRAINT "verification_cases_document_type" CHECK("verification_cases"."document_type" IS NULL OR "verification_cases"."document_type" IN ('passport', 'national_id', 'driving_licence')),
	CONSTRAINT "verification_cases_ended" CHECK(("verification_cases"."ended_at" IS NULL) = ("verification_cases"."retain_until" IS NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `verification_cases_live_idx` ON `verification_cases` (`user_id`) WHERE ended_at IS NULL;--> statement-breakpoint
CREATE INDEX `verification_cases_queue_idx` ON `verification_cases` (`status`,`submitted_at`,`id`);--> statement-breakpoint
CREATE INDEX `verification_cases_retain_idx` ON `verification_cases` (`retain_until`) WHERE retain_until IS NOT NULL;--> statement-breakpoint
CREATE TABLE `verification_documents` (
	`id` text PRIMARY KEY NOT NULL,
	`case_id` integer NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`object_key` text NOT NULL,
	`file_name` text NOT NULL,
	`content_type` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`sha256` text NOT NULL,
	`uploaded_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`replaced_at` integer,
	CONSTRAINT "verification_documents_kind" CHECK("verification_documents"."kind" IN ('identity_front', 'identity_back', 'proof_of_address')),
	CONSTRAINT "verification_documents_type" CHECK("verification_documents"."content_type" IN ('image/jpeg', 'image/png', 'application/pdf')),
	CONSTRAINT "verification_documents_size" CHECK("verification_documents"."size_bytes" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `verification_documents_object_key_unique` ON `verification_documents` (`object_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `verification_documents_current_idx` ON `verification_documents` (`case_id`,`kind`) WHERE replaced_at IS NULL;--> statement-breakpoint
CREATE INDEX `verification_documents_user_idx` ON `verification_documents` (`user_id`);