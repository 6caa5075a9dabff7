CREATE TABLE `bulk_lanes` (
	`whatsapp_id` integer PRIMARY KEY NOT NULL,
	`last_at` integer NOT NULL,
	`jitter_ms` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `opt_outs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`whatsapp_id` integer NOT NULL,
	`number` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `opt_outs_whatsapp_number_idx` ON `opt_outs` (`whatsapp_id`,`number`);--> statement-breakpoint
ALTER TABLE `mass_messages` ADD `wid` text;--> statement-breakpoint
ALTER TABLE `mass_messages` ADD `sent_at` integer;--> statement-breakpoint
CREATE INDEX `mass_messages_sent_idx` ON `mass_messages` (`whatsapp_id`,`sent_at`);