CREATE TABLE `app_versions` (
	`version` text PRIMARY KEY NOT NULL,
	`schema` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
