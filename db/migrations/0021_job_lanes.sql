CREATE TABLE `job_lanes` (
	`lane` text PRIMARY KEY NOT NULL,
	`busy_until` integer,
	`last_at` integer,
	`jitter_ms` integer DEFAULT 0 NOT NULL,
	`held_until` integer
);
--> statement-breakpoint
INSERT INTO `job_lanes` (`lane`, `last_at`, `jitter_ms`) SELECT 'wa:' || `whatsapp_id`, `last_at`, `jitter_ms` FROM `bulk_lanes`;--> statement-breakpoint
DROP TABLE `bulk_lanes`;--> statement-breakpoint
ALTER TABLE `jobs` ADD `lane` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `counted_at` integer;--> statement-breakpoint
CREATE INDEX `jobs_lane_idx` ON `jobs` (`lane`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `jobs_lane_counted_idx` ON `jobs` (`lane`,`counted_at`);--> statement-breakpoint
DELETE FROM `jobs` WHERE `key` IN ('every:bulk-send', 'every:schedule-monitor');--> statement-breakpoint
INSERT OR IGNORE INTO `job_lanes` (`lane`) SELECT DISTINCT 'wa:' || `whatsapp_id` FROM `mass_messages` WHERE `whatsapp_id` IS NOT NULL AND (`status` IN ('pending', 'sending') OR `sent_at` IS NOT NULL);--> statement-breakpoint
INSERT INTO `jobs` (`kind`, `key`, `payload`, `lane`, `run_at`) SELECT 'bulk-recipient', 'bulk:' || `id`, '{"recordId":' || `id` || '}', 'wa:' || `whatsapp_id`, cast(unixepoch('subsec') * 1000 as integer) FROM `mass_messages` WHERE `status` IN ('pending', 'sending') AND `whatsapp_id` IS NOT NULL ORDER BY `id`;--> statement-breakpoint
INSERT INTO `jobs` (`kind`, `key`, `payload`, `lane`, `status`, `run_at`, `counted_at`) SELECT 'bulk-recipient', 'bulk:' || `id`, '{"recordId":' || `id` || '}', 'wa:' || `whatsapp_id`, 'done', `sent_at`, `sent_at` FROM `mass_messages` WHERE `sent_at` >= cast(unixepoch('subsec') * 1000 as integer) - 86400000 AND `whatsapp_id` IS NOT NULL AND `status` NOT IN ('pending', 'sending');--> statement-breakpoint
UPDATE `jobs` SET `key` = 'schedule:' || json_extract(`payload`, '$.scheduleId') WHERE `id` IN (SELECT max(`id`) FROM `jobs` WHERE `kind` = 'schedule-send' AND `key` IS NULL AND `status` IN ('pending', 'running') GROUP BY json_extract(`payload`, '$.scheduleId'));