PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_contacts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`number` text,
	`lid` text,
	`email` text DEFAULT '' NOT NULL,
	`profile_pic_url` text DEFAULT '' NOT NULL,
	`picture_checked_at` integer,
	`is_group` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "contacts_number_or_lid" CHECK(number IS NOT NULL OR lid IS NOT NULL)
);
--> statement-breakpoint
INSERT INTO `__new_contacts`("id", "name", "number", "lid", "email", "profile_pic_url", "picture_checked_at", "is_group", "created_at", "updated_at") SELECT "id", "name", "number", "lid", "email", "profile_pic_url", "picture_checked_at", "is_group", "created_at", "updated_at" FROM `contacts`;--> statement-breakpoint
DROP TABLE `contacts`;--> statement-breakpoint
ALTER TABLE `__new_contacts` RENAME TO `contacts`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `contacts_number_unique` ON `contacts` (`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `contacts_lid_unique` ON `contacts` (`lid`);--> statement-breakpoint
CREATE INDEX `contacts_name_idx` ON `contacts` (`name`);--> statement-breakpoint
ALTER TABLE `tickets` ADD `from_history` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `whatsapps` ADD `import_history` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `whatsapps` ADD `import_history_days` integer DEFAULT 7 NOT NULL;