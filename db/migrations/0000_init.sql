CREATE TABLE `chatbots` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`greeting_message` text DEFAULT '' NOT NULL,
	`is_agent` integer DEFAULT false NOT NULL,
	`user_id` integer,
	`queue_id` integer,
	`parent_id` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`queue_id`) REFERENCES `queues`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`parent_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chatbots_queue_idx` ON `chatbots` (`queue_id`);--> statement-breakpoint
CREATE INDEX `chatbots_parent_idx` ON `chatbots` (`parent_id`);--> statement-breakpoint
CREATE TABLE `contact_extra_info` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`contact_id` integer NOT NULL,
	`name` text NOT NULL,
	`value` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contact_extra_info_contact_idx` ON `contact_extra_info` (`contact_id`);--> statement-breakpoint
CREATE TABLE `contacts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`number` text NOT NULL,
	`lid` text,
	`email` text DEFAULT '' NOT NULL,
	`profile_pic_url` text DEFAULT '' NOT NULL,
	`picture_checked_at` integer,
	`is_group` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contacts_number_unique` ON `contacts` (`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `contacts_lid_unique` ON `contacts` (`lid`);--> statement-breakpoint
CREATE INDEX `contacts_name_idx` ON `contacts` (`name`);--> statement-breakpoint
CREATE TABLE `mass_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`whatsapp_id` integer,
	`phone` text NOT NULL,
	`message` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `mass_messages_whatsapp_status_idx` ON `mass_messages` (`whatsapp_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `mass_messages_created_idx` ON `mass_messages` (`created_at`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`wid` text NOT NULL,
	`whatsapp_id` integer,
	`ticket_id` integer NOT NULL,
	`contact_id` integer,
	`body` text DEFAULT '' NOT NULL,
	`from_me` integer DEFAULT false NOT NULL,
	`read` integer DEFAULT false NOT NULL,
	`ack` integer DEFAULT 0 NOT NULL,
	`media_type` text DEFAULT 'chat' NOT NULL,
	`media_url` text,
	`media_mime` text,
	`file_name` text,
	`is_deleted` integer DEFAULT false NOT NULL,
	`quoted_msg_id` integer,
	`remote_jid` text,
	`participant` text,
	`sender_name` text,
	`data_json` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`quoted_msg_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `messages_whatsapp_wid_unique` ON `messages` (`whatsapp_id`,`wid`);--> statement-breakpoint
CREATE INDEX `messages_ticket_created_idx` ON `messages` (`ticket_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `messages_ticket_read_idx` ON `messages` (`ticket_id`,`read`);--> statement-breakpoint
CREATE TABLE `queues` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`color` text NOT NULL,
	`greeting_message` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `queues_name_unique` ON `queues` (`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `queues_color_unique` ON `queues` (`color`);--> statement-breakpoint
CREATE TABLE `quick_answers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`shortcut` text NOT NULL,
	`message` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `quick_answers_shortcut_unique` ON `quick_answers` (`shortcut`);--> statement-breakpoint
CREATE TABLE `sandbox_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`whatsapp_id` integer NOT NULL,
	`wid` text NOT NULL,
	`direction` text NOT NULL,
	`peer` text NOT NULL,
	`group_id` text,
	`body` text DEFAULT '' NOT NULL,
	`media_type` text,
	`file_name` text,
	`media_path` text,
	`quoted_id` text,
	`ack` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sandbox_messages_wid_unique` ON `sandbox_messages` (`wid`);--> statement-breakpoint
CREATE INDEX `sandbox_messages_peer_idx` ON `sandbox_messages` (`whatsapp_id`,`peer`,`id`);--> statement-breakpoint
CREATE TABLE `schedules` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`body` text NOT NULL,
	`contact_id` integer NOT NULL,
	`ticket_id` integer,
	`user_id` integer,
	`send_at` integer NOT NULL,
	`sent_at` integer,
	`status` text DEFAULT 'PENDENTE' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `schedules_status_send_idx` ON `schedules` (`status`,`send_at`);--> statement-breakpoint
CREATE INDEX `schedules_created_idx` ON `schedules` (`created_at`);--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `settings_message` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`whatsapp_id` integer NOT NULL,
	`limit` integer DEFAULT 10 NOT NULL,
	`minutes` integer DEFAULT 1 NOT NULL,
	`seconds` integer DEFAULT 0 NOT NULL,
	`contacts` integer DEFAULT false NOT NULL,
	`photo` integer DEFAULT false NOT NULL,
	`random` integer DEFAULT false NOT NULL,
	`opt_out` text DEFAULT '' NOT NULL,
	`send_today` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `settings_message_whatsapp_id_unique` ON `settings_message` (`whatsapp_id`);--> statement-breakpoint
CREATE TABLE `tags` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`color` text DEFAULT '#eee' NOT NULL,
	`user_id` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tags_name_unique` ON `tags` (`name`);--> statement-breakpoint
CREATE TABLE `ticket_dialogs` (
	`ticket_id` integer PRIMARY KEY NOT NULL,
	`chatbot_id` integer,
	`invalid_count` integer DEFAULT 0 NOT NULL,
	`menu_sent_at` integer,
	`out_of_work_sent_at` integer,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`chatbot_id`) REFERENCES `chatbots`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `ticket_tags` (
	`ticket_id` integer NOT NULL,
	`tag_id` integer NOT NULL,
	PRIMARY KEY(`ticket_id`, `tag_id`),
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tag_id`) REFERENCES `tags`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ticket_tags_tag_idx` ON `ticket_tags` (`tag_id`);--> statement-breakpoint
CREATE TABLE `tickets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`contact_id` integer NOT NULL,
	`user_id` integer,
	`queue_id` integer,
	`whatsapp_id` integer,
	`is_group` integer DEFAULT false NOT NULL,
	`is_bot` integer DEFAULT false NOT NULL,
	`unread_messages` integer DEFAULT 0 NOT NULL,
	`last_message` text DEFAULT '' NOT NULL,
	`channel` text DEFAULT 'whatsapp' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`queue_id`) REFERENCES `queues`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `tickets_status_updated_idx` ON `tickets` (`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `tickets_queue_status_updated_idx` ON `tickets` (`queue_id`,`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `tickets_user_status_idx` ON `tickets` (`user_id`,`status`);--> statement-breakpoint
CREATE INDEX `tickets_contact_whatsapp_status_idx` ON `tickets` (`contact_id`,`whatsapp_id`,`status`);--> statement-breakpoint
CREATE INDEX `tickets_created_idx` ON `tickets` (`created_at`);--> statement-breakpoint
CREATE INDEX `tickets_updated_idx` ON `tickets` (`updated_at`);--> statement-breakpoint
CREATE TABLE `user_queues` (
	`user_id` integer NOT NULL,
	`queue_id` integer NOT NULL,
	PRIMARY KEY(`user_id`, `queue_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`queue_id`) REFERENCES `queues`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `user_queues_queue_idx` ON `user_queues` (`queue_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`profile` text DEFAULT 'user' NOT NULL,
	`token_version` integer DEFAULT 0 NOT NULL,
	`whatsapp_id` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE TABLE `wa_auth_creds` (
	`whatsapp_id` integer PRIMARY KEY NOT NULL,
	`creds` text NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `wa_auth_keys` (
	`whatsapp_id` integer NOT NULL,
	`type` text NOT NULL,
	`key_id` text NOT NULL,
	`value` text NOT NULL,
	PRIMARY KEY(`whatsapp_id`, `type`, `key_id`),
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `whatsapp_phonebook` (
	`whatsapp_id` integer NOT NULL,
	`jid` text NOT NULL,
	`phone` text,
	`lid` text,
	`name` text,
	PRIMARY KEY(`whatsapp_id`, `jid`),
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `whatsapp_queues` (
	`whatsapp_id` integer NOT NULL,
	`queue_id` integer NOT NULL,
	PRIMARY KEY(`whatsapp_id`, `queue_id`),
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`queue_id`) REFERENCES `queues`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `whatsapp_queues_queue_idx` ON `whatsapp_queues` (`queue_id`);--> statement-breakpoint
CREATE TABLE `whatsapps` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`provider` text DEFAULT 'baileys' NOT NULL,
	`number` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'OPENING' NOT NULL,
	`qrcode` text DEFAULT '' NOT NULL,
	`retries` integer DEFAULT 0 NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	`is_multidevice` integer DEFAULT true NOT NULL,
	`greeting_message` text DEFAULT '' NOT NULL,
	`farewell_message` text DEFAULT '' NOT NULL,
	`transfer_ticket_message` text DEFAULT '' NOT NULL,
	`out_of_work_message` text DEFAULT '' NOT NULL,
	`wavoip` text DEFAULT '' NOT NULL,
	`define_work_hours` integer DEFAULT false NOT NULL,
	`start_work_hour` text DEFAULT '08:00' NOT NULL,
	`end_work_hour` text DEFAULT '17:30' NOT NULL,
	`start_work_hour_weekend` text DEFAULT '08:00' NOT NULL,
	`end_work_hour_weekend` text DEFAULT '17:30' NOT NULL,
	`monday` integer DEFAULT true NOT NULL,
	`tuesday` integer DEFAULT true NOT NULL,
	`wednesday` integer DEFAULT true NOT NULL,
	`thursday` integer DEFAULT true NOT NULL,
	`friday` integer DEFAULT true NOT NULL,
	`saturday` integer DEFAULT false NOT NULL,
	`sunday` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `whatsapps_name_unique` ON `whatsapps` (`name`);