-- Contact names and numbers for the ticket search, kept in step with `contacts` by triggers. Trigram tokens, unlike
-- the word tokens of the message bodies: people type any run of a phone number's digits ("97777") and parts of
-- names, and the table is small enough (one row per contact) for the larger index. Case and accents are ignored
-- both ways ("joao" finds "João", "conceição" finds "Conceicao").
CREATE VIRTUAL TABLE `contacts_fts` USING fts5(name, number, content='contacts', content_rowid='id', tokenize='trigram remove_diacritics 1');
--> statement-breakpoint
CREATE TRIGGER `contacts_fts_insert` AFTER INSERT ON `contacts` BEGIN
  INSERT INTO `contacts_fts`(rowid, name, number) VALUES (new.id, new.name, new.number);
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_fts_delete` AFTER DELETE ON `contacts` BEGIN
  INSERT INTO `contacts_fts`(`contacts_fts`, rowid, name, number) VALUES ('delete', old.id, old.name, old.number);
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_fts_update` AFTER UPDATE OF name, number ON `contacts` BEGIN
  INSERT INTO `contacts_fts`(`contacts_fts`, rowid, name, number) VALUES ('delete', old.id, old.name, old.number);
  INSERT INTO `contacts_fts`(rowid, name, number) VALUES (new.id, new.name, new.number);
END;
--> statement-breakpoint
INSERT INTO `contacts_fts`(`contacts_fts`) VALUES ('rebuild');
