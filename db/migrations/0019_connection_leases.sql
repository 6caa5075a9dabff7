CREATE TABLE `connection_leases` (
	`whatsapp_id` integer PRIMARY KEY NOT NULL,
	`node_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE cascade
);
