DROP INDEX "ticket_tags_tag_idx";--> statement-breakpoint
DROP INDEX "tickets_status_updated_idx";--> statement-breakpoint
DROP INDEX "tickets_user_status_idx";--> statement-breakpoint
DROP INDEX "tickets_updated_idx";--> statement-breakpoint
CREATE INDEX "tickets_unread_idx" ON "tickets" USING btree ("updated_at","id","status","queue_id","user_id","unread_messages") WHERE unread_messages > 0;--> statement-breakpoint
CREATE INDEX "ticket_tags_tag_idx" ON "ticket_tags" USING btree ("tag_id","ticket_id");--> statement-breakpoint
CREATE INDEX "tickets_status_updated_idx" ON "tickets" USING btree ("status","updated_at","id","queue_id","user_id","unread_messages");--> statement-breakpoint
CREATE INDEX "tickets_user_status_idx" ON "tickets" USING btree ("user_id","status","updated_at","id","queue_id","unread_messages");--> statement-breakpoint
CREATE INDEX "tickets_updated_idx" ON "tickets" USING btree ("updated_at","id","status","queue_id","user_id","unread_messages");