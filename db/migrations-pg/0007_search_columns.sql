-- Each message's words and each contact's folded name are stored beside the row, computed once when it is
-- written: a search that walks the newest messages, or rechecks what an index found, then compares stored
-- values instead of folding accents row by row (unaccent costs microseconds a call). The GIN indexes move onto
-- the stored values; the one over the words keeps a short pending list, so a burst of new messages never
-- leaves searches scanning megabytes of it before autovacuum merges it.
ALTER TABLE "messages" ADD COLUMN "body_words" tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, zapdesk_fold("body"))) STORED;--> statement-breakpoint
DROP INDEX "messages_body_fts_idx";--> statement-breakpoint
CREATE INDEX "messages_body_fts_idx" ON "messages" USING gin ("body_words") WITH (gin_pending_list_limit = 512);--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "name_folded" text GENERATED ALWAYS AS (zapdesk_fold("name")) STORED;--> statement-breakpoint
DROP INDEX "contacts_name_trgm_idx";--> statement-breakpoint
CREATE INDEX "contacts_name_trgm_idx" ON "contacts" USING gin ("name_folded" gin_trgm_ops);
