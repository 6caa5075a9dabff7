CREATE TABLE `wa_sent_messages` (
	`whatsapp_id` integer NOT NULL,
	`wid` text NOT NULL,
	`content` blob NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`whatsapp_id`, `wid`),
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `wa_sent_messages_created_idx` ON `wa_sent_messages` (`created_at`);