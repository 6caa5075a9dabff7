ALTER TABLE `tickets` ADD `from_history` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `whatsapps` ADD `import_history` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `whatsapps` ADD `import_history_days` integer DEFAULT 7 NOT NULL;