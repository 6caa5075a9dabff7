-- Search with PostgreSQL's own tools, as FTS5 does on SQLite: message bodies by word prefix (a tsvector per
-- body, GIN-indexed), contact names and numbers by any run of three characters (trigrams), both ignoring case
-- and accents. unaccent() is not immutable (its dictionary could change), so an index goes through a wrapper
-- that pins the dictionary.
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE OR REPLACE FUNCTION zapdesk_fold(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$;--> statement-breakpoint
CREATE INDEX "messages_body_fts_idx" ON "messages" USING gin (to_tsvector('simple'::regconfig, zapdesk_fold("body")));--> statement-breakpoint
CREATE INDEX "contacts_name_trgm_idx" ON "contacts" USING gin (zapdesk_fold("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "contacts_number_trgm_idx" ON "contacts" USING gin ("number" gin_trgm_ops);
