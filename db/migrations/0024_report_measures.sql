ALTER TABLE `ticket_events` ADD `value` integer;--> statement-breakpoint
ALTER TABLE `messages` ADD `user_id` integer;