DROP INDEX "tickets_status_updated_idx";--> statement-breakpoint
DROP INDEX "tickets_user_status_idx";--> statement-breakpoint
DROP INDEX "tickets_updated_idx";--> statement-breakpoint
DROP INDEX "tickets_unread_idx";--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "csat_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "csat_message" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "snoozed_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "csat_asked_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "csat_rating" integer;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "csat_comment" text;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "csat_answered_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "tickets_status_updated_idx" ON "tickets" USING btree ("status","updated_at","id","queue_id","user_id","unread_messages","snoozed_until");--> statement-breakpoint
CREATE INDEX "tickets_user_status_idx" ON "tickets" USING btree ("user_id","status","updated_at","id","queue_id","unread_messages","snoozed_until");--> statement-breakpoint
CREATE INDEX "tickets_updated_idx" ON "tickets" USING btree ("updated_at","id","status","queue_id","user_id","unread_messages","snoozed_until");--> statement-breakpoint
CREATE INDEX "tickets_unread_idx" ON "tickets" USING btree ("updated_at","id","status","queue_id","user_id","unread_messages","snoozed_until") WHERE unread_messages > 0;