CREATE TABLE "connection_leases" (
	"whatsapp_id" integer PRIMARY KEY NOT NULL,
	"node_id" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "connection_leases" ADD CONSTRAINT "connection_leases_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;