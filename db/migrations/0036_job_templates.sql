ALTER TABLE `schedules` ADD `template` text;--> statement-breakpoint
ALTER TABLE `mass_messages` ADD `template` text;