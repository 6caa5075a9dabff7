-- How many messages each ticket holds, kept beside the ticket so a chat's page is counted from its tickets' rows
-- instead of from every message of the contact (a long chat counted thousands of index entries on each open).
-- Triggers keep it, once per statement: the messages a statement stored are added to their tickets, those it
-- deleted taken off (a deleted ticket's messages go with it). Messages change ticket only when tickets are folded
-- into one, which adds the counts.
ALTER TABLE "tickets" ADD COLUMN "message_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "tickets" SET "message_count" = counted.n
  FROM (SELECT "ticket_id", count(*) AS n FROM "messages" GROUP BY "ticket_id") AS counted
  WHERE "tickets"."id" = counted."ticket_id";--> statement-breakpoint
CREATE FUNCTION zapdesk_count_added_messages() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets SET message_count = tickets.message_count + counted.n
    FROM (SELECT ticket_id, count(*) AS n FROM added GROUP BY ticket_id) AS counted
    WHERE tickets.id = counted.ticket_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER messages_counted_insert AFTER INSERT ON messages
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION zapdesk_count_added_messages();--> statement-breakpoint
CREATE FUNCTION zapdesk_count_removed_messages() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets SET message_count = tickets.message_count - counted.n
    FROM (SELECT ticket_id, count(*) AS n FROM removed GROUP BY ticket_id) AS counted
    WHERE tickets.id = counted.ticket_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER messages_counted_delete AFTER DELETE ON messages
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION zapdesk_count_removed_messages();
