ALTER TABLE `users` ADD `availability` text DEFAULT 'offline' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `availability_choice` text DEFAULT 'online' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `availability_changed_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `last_seen_at` integer;