-- Passkeys (docs/product.md, "Passkeys" under "Account security"): WebAuthn credentials, each bound to one account
-- (the credential id is the key, so no second account can claim it), with the signature counter and backup flags
-- the last ceremony reported; and the ceremonies' challenges, kept server-side, single use, 5 minutes.
-- Written with uppercase BEGIN/END and LF line endings: D1's remote migration path splits statements on them.
CREATE TABLE `passkeys` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`public_key` text NOT NULL,
	`counter` integer DEFAULT 0 NOT NULL,
	`transports` text DEFAULT '[]' NOT NULL,
	`device_type` text NOT NULL,
	`backed_up` integer NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`last_used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "passkeys_name" CHECK(length("passkeys"."name") BETWEEN 1 AND 64),
	CONSTRAINT "passkeys_device_type" CHECK("passkeys"."device_type" IN ('singleDevice', 'multiDevice')),
	CONSTRAINT "passkeys_counter" CHECK("passkeys"."counter" >= 0)
);
--> statement-breakpoint
CREATE INDEX `passkeys_user_idx` ON `passkeys` (`user_id`,`created_at`);
--> statement-breakpoint
CREATE TABLE `webauthn_challenges` (
	`challenge` text PRIMARY KEY NOT NULL,
	`purpose` text NOT NULL,
	`user_id` text,
	`requested_by` text NOT NULL,
	`created_at` integer DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER)) NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "webauthn_challenges_purpose" CHECK("webauthn_challenges"."purpose" IN ('register', 'sign_in', 'second_factor')),
	CONSTRAINT "webauthn_challenges_account" CHECK(("webauthn_challenges"."purpose" = 'sign_in') = ("webauthn_challenges"."user_id" IS NULL))
);
--> statement-breakpoint
CREATE INDEX `webauthn_challenges_requester_idx` ON `webauthn_challenges` (`requested_by`,`expires_at`);
--> statement-breakpoint
CREATE INDEX `webauthn_challenges_expiry_idx` ON `webauthn_challenges` (`expires_at`);
--> statement-breakpoint
-- At most 10 passkeys per account, whatever raced to add the eleventh.
CREATE TRIGGER `passkeys_at_most_ten`
BEFORE INSERT ON `passkeys`
WHEN (SELECT count(*) FROM `passkeys` WHERE `user_id` = NEW.user_id) >= 10
BEGIN
  SELECT RAISE(ABORT, 'an account holds at most 10 passkeys');
END;
--> statement-breakpoint
-- A signature counter never goes backwards (a cloned authenticator's does), and a passkey never changes account.
CREATE TRIGGER `passkeys_counter_forward`
BEFORE UPDATE ON `passkeys`
WHEN NEW.counter < OLD.counter OR NEW.user_id IS NOT OLD.user_id OR NEW.public_key IS NOT OLD.public_key
BEGIN
  SELECT RAISE(ABORT, 'a passkey''s counter only goes forward, and its account and key never change');
END;
--> statement-breakpoint
-- How a session's sign-in began ('password', 'google', 'github', 'register', 'passkey'): the sessions list shows a
-- passkey sign-in as such. Null for sessions from before.
ALTER TABLE `sessions` ADD `sign_in_method` text;
