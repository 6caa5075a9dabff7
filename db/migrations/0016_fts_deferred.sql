-- New messages (and contacts, below) reach their full-text index once per transaction instead of row by row.
-- FTS5 writes its pending terms to disk at every savepoint or statement journal opened after it was written to,
-- and a row trigger opens one for each insert: indexing each inbound message as it was stored cost a small index
-- segment per message.
-- A new message's id waits in `messages_fts_pending` until the writer indexes the waiting ones just before its
-- commit (and a search indexes any left waiting before it reads). A message still waiting is not in the index yet,
-- so a change or delete of its body has nothing to take out of it.
CREATE TABLE `messages_fts_pending` (`id` integer PRIMARY KEY NOT NULL);
--> statement-breakpoint
DROP TRIGGER `messages_fts_insert`;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_pending_insert` AFTER INSERT ON `messages` BEGIN
  INSERT INTO `messages_fts_pending`(id) VALUES (new.id);
END;
--> statement-breakpoint
DROP TRIGGER `messages_fts_delete`;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_delete` AFTER DELETE ON `messages` BEGIN
  INSERT INTO `messages_fts`(`messages_fts`, rowid, body) SELECT 'delete', old.id, old.body
    WHERE NOT EXISTS (SELECT 1 FROM `messages_fts_pending` WHERE id = old.id);
  DELETE FROM `messages_fts_pending` WHERE id = old.id;
END;
--> statement-breakpoint
DROP TRIGGER `messages_fts_update`;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_update` AFTER UPDATE OF body ON `messages`
  WHEN NOT EXISTS (SELECT 1 FROM `messages_fts_pending` WHERE id = old.id) BEGIN
  INSERT INTO `messages_fts`(`messages_fts`, rowid, body) VALUES ('delete', old.id, old.body);
  INSERT INTO `messages_fts`(rowid, body) VALUES (new.id, new.body);
END;
--> statement-breakpoint
-- The same for contact names and numbers: a new contact waits in `contacts_fts_pending` for the writer's commit or
-- the next search.
CREATE TABLE `contacts_fts_pending` (`id` integer PRIMARY KEY NOT NULL);
--> statement-breakpoint
DROP TRIGGER `contacts_fts_insert`;
--> statement-breakpoint
CREATE TRIGGER `contacts_fts_pending_insert` AFTER INSERT ON `contacts` BEGIN
  INSERT INTO `contacts_fts_pending`(id) VALUES (new.id);
END;
--> statement-breakpoint
DROP TRIGGER `contacts_fts_delete`;
--> statement-breakpoint
CREATE TRIGGER `contacts_fts_delete` AFTER DELETE ON `contacts` BEGIN
  INSERT INTO `contacts_fts`(`contacts_fts`, rowid, name, number) SELECT 'delete', old.id, old.name, old.number
    WHERE NOT EXISTS (SELECT 1 FROM `contacts_fts_pending` WHERE id = old.id);
  DELETE FROM `contacts_fts_pending` WHERE id = old.id;
END;
--> statement-breakpoint
DROP TRIGGER `contacts_fts_update`;
--> statement-breakpoint
CREATE TRIGGER `contacts_fts_update` AFTER UPDATE OF name, number ON `contacts`
  WHEN NOT EXISTS (SELECT 1 FROM `contacts_fts_pending` WHERE id = old.id) BEGIN
  INSERT INTO `contacts_fts`(`contacts_fts`, rowid, name, number) VALUES ('delete', old.id, old.name, old.number);
  INSERT INTO `contacts_fts`(rowid, name, number) VALUES (new.id, new.name, new.number);
END;
