-- How many messages each ticket holds, kept beside the ticket so a chat's page is counted from its tickets' rows
-- instead of from every message of the contact (a long chat counted thousands of index entries on each open).
-- Triggers keep it: each message stored adds one to its ticket, each deleted takes one off (a deleted ticket's
-- messages go with it). Messages change ticket only when tickets are folded into one, which adds the counts.
ALTER TABLE `tickets` ADD `message_count` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE `tickets` SET `message_count` = (SELECT count(*) FROM `messages` WHERE `messages`.`ticket_id` = `tickets`.`id`);
--> statement-breakpoint
CREATE TRIGGER `messages_counted_insert` AFTER INSERT ON `messages` BEGIN
  UPDATE `tickets` SET `message_count` = `message_count` + 1 WHERE `id` = new.`ticket_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `messages_counted_delete` AFTER DELETE ON `messages` BEGIN
  UPDATE `tickets` SET `message_count` = `message_count` - 1 WHERE `id` = old.`ticket_id`;
END;
