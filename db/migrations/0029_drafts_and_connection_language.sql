CREATE TABLE `ticket_drafts` (
	`ticket_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`body` text NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`ticket_id`, `user_id`),
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ticket_drafts_user_idx` ON `ticket_drafts` (`user_id`);--> statement-breakpoint
ALTER TABLE `whatsapps` ADD `language` text DEFAULT 'pt' NOT NULL;