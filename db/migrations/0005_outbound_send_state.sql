ALTER TABLE `messages` ADD `send_state` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `send_error` text;--> statement-breakpoint
CREATE INDEX `messages_send_state_idx` ON `messages` (`send_state`,`whatsapp_id`);