ALTER TABLE `tickets` ADD `preview_kind` text;--> statement-breakpoint
ALTER TABLE `tickets` ADD `preview_text` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `tickets` ADD `preview_detail` text;--> statement-breakpoint
ALTER TABLE `tickets` ADD `preview_from_me` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `tickets` ADD `preview_ack` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `tickets` ADD `preview_message_id` integer;