CREATE TABLE `position_closes` (
	`sale_id` integer NOT NULL,
	`position_id` integer NOT NULL,
	`shares_e4` integer NOT NULL,
	`cost_cents` integer NOT NULL,
	CONSTRAINT "position_closes_part" CHECK("position_closes"."shares_e4" > 0 AND "position_closes"."cost_cents" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `position_closes_uq` ON `position_closes` (`sale_id`,`position_id`);--> statement-breakpoint
CREATE INDEX `position_closes_position_idx` ON `position_closes` (`position_id`);--> statement-breakpoint
CREATE TABLE `positions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`symbol` text NOT NULL,
	`shares_e4` integer NOT NULL,
	`price_e4` integer NOT NULL,
	`quote_at` integer NOT NULL,
	`cost_cents` integer NOT NULL,
	`open_shares_e4` integer NOT NULL,
	`open_cost_cents` integer NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`idempotency_key` text NOT NULL,
	`opened_at` integer NOT NULL,
	`ended_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "positions_status" CHECK("positions"."status" IN ('open', 'closed', 'cancelled')),
	CONSTRAINT "positions_bought" CHECK("positions"."shares_e4" > 0 AND "positions"."price_e4" > 0 AND "positions"."cost_cents" > 0),
	CONSTRAINT "positions_open_part" CHECK("positions"."open_shares_e4" BETWEEN 0 AND "positions"."shares_e4" AND "positions"."open_cost_cents" BETWEEN 0 AND "positions"."cost_cents"),
	CONSTRAINT "positions_open_until_sold" CHECK(("positions"."status" = 'open') = ("positions"."open_shares_e4" > 0) AND ("positions"."open_shares_e4" > 0 OR "positions"."open_cost_cents" = 0))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `positions_user_idempotency_uq` ON `positions` (`user_id`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `positions_open_idx` ON `positions` (`user_id`,`symbol`,`opened_at`,`id`) WHERE status = 'open';--> statement-breakpoint
CREATE INDEX `positions_user_recent_idx` ON `positions` (`user_id`,`opened_at`,`id`);--> statement-breakpoint
CREATE TABLE `stock_sales` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`symbol` text NOT NULL,
	`shares_e4` integer NOT NULL,
	`price_e4` integer NOT NULL,
	`quote_at` integer NOT NULL,
	`proceeds_cents` integer NOT NULL,
	`cost_cents` integer DEFAULT 0 NOT NULL,
	`result_cents` integer DEFAULT 0 NOT NULL,
	`transaction_id` integer,
	`sold_by` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`sold_at` integer NOT NULL,
	`settled_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "stock_sales_sold" CHECK("stock_sales"."shares_e4" > 0 AND "stock_sales"."price_e4" > 0 AND "stock_sales"."proceeds_cents" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `stock_sales_user_idempotency_uq` ON `stock_sales` (`user_id`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `stock_sales_user_recent_idx` ON `stock_sales` (`user_id`,`sold_at`,`id`);--> statement-breakpoint
--> statement-breakpoint
-- What was bought, at what price and when, never changes; an ended position (sold out or cancelled) is final.
CREATE TRIGGER `positions_terms_are_final`
BEFORE UPDATE ON `positions`
WHEN NEW.id IS NOT OLD.id OR NEW.user_id IS NOT OLD.user_id OR NEW.symbol IS NOT OLD.symbol
  OR NEW.shares_e4 IS NOT OLD.shares_e4 OR NEW.price_e4 IS NOT OLD.price_e4 OR NEW.quote_at IS NOT OLD.quote_at
  OR NEW.cost_cents IS NOT OLD.cost_cents OR NEW.idempotency_key IS NOT OLD.idempotency_key
  OR NEW.opened_at IS NOT OLD.opened_at OR OLD.status <> 'open'
BEGIN
  SELECT RAISE(ABORT, 'a position''s terms are final, and so is an ended position');
END;
--> statement-breakpoint
-- Open shares only go down, and only a sale (a position_closes row) or the cancel takes them.
CREATE TRIGGER `positions_open_part_only_shrinks`
BEFORE UPDATE OF `open_shares_e4`, `open_cost_cents` ON `positions`
WHEN NEW.open_shares_e4 > OLD.open_shares_e4 OR NEW.open_cost_cents > OLD.open_cost_cents
BEGIN
  SELECT RAISE(ABORT, 'a position''s open part only shrinks');
END;
--> statement-breakpoint
-- The terms' promise is 3 seconds from placing (the code's window); the database allows 5, for the time between
-- the request's clock and the write, and only for a position nothing was sold from.
CREATE TRIGGER `positions_cancel_within_window`
BEFORE UPDATE OF `status` ON `positions`
WHEN NEW.status = 'cancelled' AND (
  OLD.open_shares_e4 <> OLD.shares_e4
  OR CAST(unixepoch('subsec') * 1000 AS INTEGER) - OLD.opened_at > 5000
)
BEGIN
  SELECT RAISE(ABORT, 'a position may be cancelled only within seconds of its order, before any sale');
END;
--> statement-breakpoint
CREATE TRIGGER `positions_no_delete`
BEFORE DELETE ON `positions`
BEGIN
  SELECT RAISE(ABORT, 'positions are kept');
END;
--> statement-breakpoint
-- A sale's terms never change; its cost, result and ledger row are written once, by the batch that writes it.
CREATE TRIGGER `stock_sales_settled_are_final`
BEFORE UPDATE ON `stock_sales`
WHEN OLD.settled_at IS NOT NULL
  OR NEW.id IS NOT OLD.id OR NEW.user_id IS NOT OLD.user_id OR NEW.symbol IS NOT OLD.symbol
  OR NEW.shares_e4 IS NOT OLD.shares_e4 OR NEW.price_e4 IS NOT OLD.price_e4 OR NEW.quote_at IS NOT OLD.quote_at
  OR NEW.proceeds_cents IS NOT OLD.proceeds_cents OR NEW.sold_by IS NOT OLD.sold_by
  OR NEW.idempotency_key IS NOT OLD.idempotency_key OR NEW.sold_at IS NOT OLD.sold_at
BEGIN
  SELECT RAISE(ABORT, 'a settled sale is final');
END;
--> statement-breakpoint
CREATE TRIGGER `stock_sales_no_delete`
BEFORE DELETE ON `stock_sales`
BEGIN
  SELECT RAISE(ABORT, 'sales are kept');
END;
--> statement-breakpoint
-- A sale closes lots of its own client's stock, only while it is being written.
CREATE TRIGGER `position_closes_own_lots_while_selling`
BEFORE INSERT ON `position_closes`
WHEN NOT EXISTS (
  SELECT 1 FROM stock_sales s JOIN positions p ON p.id = NEW.position_id
  WHERE s.id = NEW.sale_id AND s.settled_at IS NULL AND p.user_id = s.user_id AND p.symbol = s.symbol
    AND p.status = 'open' AND NEW.shares_e4 <= p.open_shares_e4
)
BEGIN
  SELECT RAISE(ABORT, 'a sale closes open lots of its own client''s stock, once');
END;
--> statement-breakpoint
CREATE TRIGGER `position_closes_are_final`
BEFORE UPDATE ON `position_closes`
BEGIN
  SELECT RAISE(ABORT, 'a close is final');
END;
--> statement-breakpoint
CREATE TRIGGER `position_closes_no_delete`
BEFORE DELETE ON `position_closes`
BEGIN
  SELECT RAISE(ABORT, 'closes are kept');
END;
