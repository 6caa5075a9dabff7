CREATE TABLE "whatsapp_cloud_accounts" (
	"whatsapp_id" integer PRIMARY KEY NOT NULL,
	"phone_number_id" text DEFAULT '' NOT NULL,
	"business_account_id" text DEFAULT '' NOT NULL,
	"access_token" text DEFAULT '' NOT NULL,
	"app_secret" text DEFAULT '' NOT NULL,
	"verify_token" text NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wa_cloud_sent_messages" (
	"whatsapp_id" integer NOT NULL,
	"wid" text NOT NULL,
	"wamid" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wa_cloud_sent_messages_whatsapp_id_wid_pk" PRIMARY KEY("whatsapp_id","wid")
);
--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "status_reason" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapp_cloud_accounts" ADD CONSTRAINT "whatsapp_cloud_accounts_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wa_cloud_sent_messages" ADD CONSTRAINT "wa_cloud_sent_messages_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wa_cloud_sent_messages_wamid_idx" ON "wa_cloud_sent_messages" USING btree ("whatsapp_id","wamid");