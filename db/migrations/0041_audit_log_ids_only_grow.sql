-- An audit row's id is the database's own (AUTOINCREMENT), never one an insert chooses (docs/decisions/0077). The
-- delete guard reads an archive object's id range as a proof because a row written later gets a higher id; an insert
-- choosing an archived id of its month would pass that guard with no object holding it. And `INSERT OR REPLACE`
-- over an existing id removes that row without running the delete guard (SQLite fires no delete trigger for a
-- replace), so an audit row could be rewritten. Before the insert, an id the database will choose reads as -1, below
-- every id (hence `>= 1`); the app's inserts never give one.
CREATE TRIGGER `audit_log_ids_only_grow`
BEFORE INSERT ON `audit_log`
WHEN EXISTS (SELECT 1 FROM audit_log WHERE id = NEW.id)
  OR EXISTS (
    SELECT 1 FROM audit_archives a
    WHERE a.month = strftime('%Y-%m', NEW.created_at / 1000, 'unixepoch') AND NEW.id >= 1 AND NEW.id <= a.last_id
  )
BEGIN
  SELECT RAISE(ABORT, 'audit_log ids only grow: an insert never chooses its id');
END;
