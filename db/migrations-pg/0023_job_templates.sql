ALTER TABLE "schedules" ADD COLUMN "template" text;--> statement-breakpoint
ALTER TABLE "mass_messages" ADD COLUMN "template" text;