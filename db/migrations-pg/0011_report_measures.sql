ALTER TABLE "ticket_events" ADD COLUMN "value" bigint;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "user_id" integer;