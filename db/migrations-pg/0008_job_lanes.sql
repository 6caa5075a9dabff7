CREATE TABLE "job_lanes" (
	"lane" text PRIMARY KEY NOT NULL,
	"busy_until" bigint,
	"last_at" bigint,
	"jitter_ms" bigint DEFAULT 0 NOT NULL,
	"held_until" bigint
);
--> statement-breakpoint
INSERT INTO "job_lanes" ("lane", "last_at", "jitter_ms") SELECT 'wa:' || "whatsapp_id", "last_at", "jitter_ms" FROM "bulk_lanes";--> statement-breakpoint
ALTER TABLE "bulk_lanes" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "bulk_lanes" CASCADE;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "lane" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "counted_at" bigint;--> statement-breakpoint
CREATE INDEX "jobs_lane_idx" ON "jobs" USING btree ("lane","status","id");--> statement-breakpoint
CREATE INDEX "jobs_lane_counted_idx" ON "jobs" USING btree ("lane","counted_at");--> statement-breakpoint
DELETE FROM "jobs" WHERE "key" IN ('every:bulk-send', 'every:schedule-monitor');--> statement-breakpoint
INSERT INTO "job_lanes" ("lane") SELECT DISTINCT 'wa:' || "whatsapp_id" FROM "mass_messages" WHERE "whatsapp_id" IS NOT NULL AND ("status" IN ('pending', 'sending') OR "sent_at" IS NOT NULL) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "jobs" ("kind", "key", "payload", "lane", "run_at") SELECT 'bulk-recipient', 'bulk:' || "id", '{"recordId":' || "id" || '}', 'wa:' || "whatsapp_id", (extract(epoch from now()) * 1000)::bigint FROM "mass_messages" WHERE "status" IN ('pending', 'sending') AND "whatsapp_id" IS NOT NULL ORDER BY "id";--> statement-breakpoint
INSERT INTO "jobs" ("kind", "key", "payload", "lane", "status", "run_at", "counted_at") SELECT 'bulk-recipient', 'bulk:' || "id", '{"recordId":' || "id" || '}', 'wa:' || "whatsapp_id", 'done', "sent_at", "sent_at" FROM "mass_messages" WHERE "sent_at" >= (extract(epoch from now()) * 1000)::bigint - 86400000 AND "whatsapp_id" IS NOT NULL AND "status" NOT IN ('pending', 'sending');--> statement-breakpoint
UPDATE "jobs" SET "key" = 'schedule:' || ("payload"::json ->> 'scheduleId') WHERE "id" IN (SELECT max("id") FROM "jobs" WHERE "kind" = 'schedule-send' AND "key" IS NULL AND "status" IN ('pending', 'running') GROUP BY "payload"::json ->> 'scheduleId');