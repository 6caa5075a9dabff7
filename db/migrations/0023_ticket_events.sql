CREATE TABLE `ticket_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ticket_id` integer NOT NULL,
	`kind` text NOT NULL,
	`cause` text NOT NULL,
	`at` integer NOT NULL,
	`actor_user_id` integer,
	`from_status` text,
	`to_status` text,
	`from_user_id` integer,
	`to_user_id` integer,
	`from_queue_id` integer,
	`to_queue_id` integer,
	`from_whatsapp_id` integer,
	`to_whatsapp_id` integer,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ticket_events_ticket_at_idx` ON `ticket_events` (`ticket_id`,`at`,`id`);--> statement-breakpoint
CREATE INDEX `ticket_events_kind_at_idx` ON `ticket_events` (`kind`,`at`,`to_user_id`,`to_queue_id`);