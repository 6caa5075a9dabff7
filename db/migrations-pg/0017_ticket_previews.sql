ALTER TABLE "tickets" ADD COLUMN "preview_kind" text;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "preview_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "preview_detail" text;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "preview_from_me" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "preview_ack" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "preview_message_id" integer;