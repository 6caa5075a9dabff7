DROP INDEX `tickets_status_updated_idx`;--> statement-breakpoint
DROP INDEX `tickets_user_status_idx`;--> statement-breakpoint
DROP INDEX `tickets_updated_idx`;--> statement-breakpoint
DROP INDEX `tickets_unread_idx`;--> statement-breakpoint
ALTER TABLE `tickets` ADD `snoozed_until` integer;--> statement-breakpoint
ALTER TABLE `tickets` ADD `csat_asked_at` integer;--> statement-breakpoint
ALTER TABLE `tickets` ADD `csat_rating` integer;--> statement-breakpoint
ALTER TABLE `tickets` ADD `csat_comment` text;--> statement-breakpoint
ALTER TABLE `tickets` ADD `csat_answered_at` integer;--> statement-breakpoint
CREATE INDEX `tickets_status_updated_idx` ON `tickets` (`status`,`updated_at`,`id`,`queue_id`,`user_id`,`unread_messages`,`snoozed_until`);--> statement-breakpoint
CREATE INDEX `tickets_user_status_idx` ON `tickets` (`user_id`,`status`,`updated_at`,`id`,`queue_id`,`unread_messages`,`snoozed_until`);--> statement-breakpoint
CREATE INDEX `tickets_updated_idx` ON `tickets` (`updated_at`,`id`,`status`,`queue_id`,`user_id`,`unread_messages`,`snoozed_until`);--> statement-breakpoint
CREATE INDEX `tickets_unread_idx` ON `tickets` (`updated_at`,`id`,`status`,`queue_id`,`user_id`,`unread_messages`,`snoozed_until`) WHERE unread_messages > 0;--> statement-breakpoint
ALTER TABLE `whatsapps` ADD `csat_enabled` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `whatsapps` ADD `csat_message` text DEFAULT '' NOT NULL;