ALTER TABLE `queues` ADD `first_response_minutes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `queues` ADD `resolution_minutes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `tickets` ADD `episode_started_at` integer;--> statement-breakpoint
ALTER TABLE `tickets` ADD `waiting_since` integer;--> statement-breakpoint
ALTER TABLE `tickets` ADD `first_response_at` integer;--> statement-breakpoint
ALTER TABLE `tickets` ADD `first_response_breached` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `tickets` ADD `resolution_breached` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `tickets_sla_first_response_idx` ON `tickets` (`queue_id`,`waiting_since`) WHERE first_response_at IS NULL AND first_response_breached = false AND status <> 'closed';--> statement-breakpoint
CREATE INDEX `tickets_sla_resolution_idx` ON `tickets` (`queue_id`,`episode_started_at`,`created_at`) WHERE resolution_breached = false AND status <> 'closed';--> statement-breakpoint
-- Active tickets reopened before episodes were kept: their episode began at their last reopening.
UPDATE `tickets` SET `episode_started_at` = (SELECT max(e.`at`) FROM `ticket_events` e WHERE e.`ticket_id` = `tickets`.`id` AND e.`kind` = 'reopened') WHERE `status` <> 'closed';