ALTER TABLE `queues` ADD `assignment` text DEFAULT 'manual' NOT NULL;--> statement-breakpoint
ALTER TABLE `queues` ADD `max_open_per_agent` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `user_queues` ADD `last_turn` integer DEFAULT 0 NOT NULL;