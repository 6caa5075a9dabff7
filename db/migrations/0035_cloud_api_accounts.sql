CREATE TABLE `whatsapp_cloud_accounts` (
	`whatsapp_id` integer PRIMARY KEY NOT NULL,
	`phone_number_id` text DEFAULT '' NOT NULL,
	`business_account_id` text DEFAULT '' NOT NULL,
	`access_token` text DEFAULT '' NOT NULL,
	`app_secret` text DEFAULT '' NOT NULL,
	`verify_token` text NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `wa_cloud_sent_messages` (
	`whatsapp_id` integer NOT NULL,
	`wid` text NOT NULL,
	`wamid` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`whatsapp_id`, `wid`),
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `wa_cloud_sent_messages_wamid_idx` ON `wa_cloud_sent_messages` (`whatsapp_id`,`wamid`);--> statement-breakpoint
ALTER TABLE `whatsapps` ADD `status_reason` text DEFAULT '' NOT NULL;