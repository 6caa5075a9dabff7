ALTER TABLE "queues" ADD COLUMN "assignment" text DEFAULT 'manual' NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "max_open_per_agent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "user_queues" ADD COLUMN "last_turn" integer DEFAULT 0 NOT NULL;