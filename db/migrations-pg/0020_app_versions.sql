CREATE TABLE "app_versions" (
	"version" text PRIMARY KEY NOT NULL,
	"schema" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
