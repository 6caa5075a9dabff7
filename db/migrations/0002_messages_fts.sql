-- Full-text index of message bodies for the ticket search: case- and accent-insensitive words, with prefix
-- indexes so "ped" finds "pedido" without scanning. External content: the text lives only in `messages`.
CREATE VIRTUAL TABLE `messages_fts` USING fts5(body, content='messages', content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='2 3');
--> statement-breakpoint
CREATE TRIGGER `messages_fts_insert` AFTER INSERT ON `messages` BEGIN
  INSERT INTO `messages_fts`(rowid, body) VALUES (new.id, new.body);
END;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_delete` AFTER DELETE ON `messages` BEGIN
  INSERT INTO `messages_fts`(`messages_fts`, rowid, body) VALUES ('delete', old.id, old.body);
END;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_update` AFTER UPDATE OF body ON `messages` BEGIN
  INSERT INTO `messages_fts`(`messages_fts`, rowid, body) VALUES ('delete', old.id, old.body);
  INSERT INTO `messages_fts`(rowid, body) VALUES (new.id, new.body);
END;
--> statement-breakpoint
INSERT INTO `messages_fts`(`messages_fts`) VALUES ('rebuild');
