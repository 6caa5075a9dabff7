ALTER TABLE `tickets` ADD `preview_kind` text;--> statement-breakpoint
ALTER TABLE `tickets` ADD `preview_text` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `tickets` ADD `preview_detail` text;--> statement-breakpoint
ALTER TABLE `tickets` ADD `preview_from_me` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `tickets` ADD `preview_ack` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `tickets` ADD `preview_message_id` integer;--> statement-breakpoint
UPDATE `tickets` SET `preview_message_id` = (
  SELECT m.`id` FROM `messages` m
  WHERE m.`ticket_id` = `tickets`.`id` AND m.`is_deleted` = 0 AND m.`is_private` = 0
    AND NOT (m.`from_me` = 1 AND substr(m.`body`, 1, 1) = char(8206))
  ORDER BY m.`created_at` DESC, m.`id` DESC LIMIT 1
);--> statement-breakpoint
UPDATE `tickets` SET (`preview_kind`, `preview_text`, `preview_detail`, `preview_from_me`, `preview_ack`) = (
  SELECT
    CASE WHEN m.`media_type` IN ('image', 'video', 'audio', 'document', 'vcard', 'location', 'sticker', 'call_log')
      THEN m.`media_type` ELSE 'chat' END,
    CASE
      WHEN m.`media_type` IN ('audio', 'vcard', 'location', 'sticker', 'call_log') THEN ''
      WHEN m.`media_type` IN ('image', 'video') AND m.`body` = m.`file_name` THEN ''
      WHEN m.`media_type` = 'document' AND (m.`file_name` IS NULL OR m.`body` = m.`file_name`) THEN ''
      ELSE m.`body` END,
    CASE WHEN m.`media_type` = 'document' THEN coalesce(m.`file_name`, m.`body`) END,
    m.`from_me`,
    m.`ack`
  FROM `messages` m WHERE m.`id` = `tickets`.`preview_message_id`
) WHERE `preview_message_id` IS NOT NULL;
