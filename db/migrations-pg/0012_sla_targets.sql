ALTER TABLE "queues" ADD COLUMN "first_response_minutes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "resolution_minutes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "episode_started_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "waiting_since" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "first_response_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "first_response_breached" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "resolution_breached" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "tickets_sla_first_response_idx" ON "tickets" USING btree ("queue_id","waiting_since") WHERE first_response_at IS NULL AND first_response_breached = false AND status <> 'closed';--> statement-breakpoint
CREATE INDEX "tickets_sla_resolution_idx" ON "tickets" USING btree ("queue_id","episode_started_at","created_at") WHERE resolution_breached = false AND status <> 'closed';--> statement-breakpoint
-- Active tickets reopened before episodes were kept: their episode began at their last reopening.
UPDATE "tickets" SET "episode_started_at" = (SELECT max(e."at") FROM "ticket_events" e WHERE e."ticket_id" = "tickets"."id" AND e."kind" = 'reopened') WHERE "status" <> 'closed';