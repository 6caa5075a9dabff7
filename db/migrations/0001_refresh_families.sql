CREATE TABLE `refresh_families` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`generation` integer DEFAULT 0 NOT NULL,
	`rotated_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `refresh_families_user_idx` ON `refresh_families` (`user_id`);--> statement-breakpoint
CREATE INDEX `refresh_families_rotated_idx` ON `refresh_families` (`rotated_at`);