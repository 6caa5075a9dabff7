CREATE TABLE `imported_rows` (
	`source` text NOT NULL,
	`source_id` text NOT NULL,
	`target_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`source`, `source_id`)
);
