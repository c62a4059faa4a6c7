//! The real storage: one SQLite file with one row, the resource every worker writes.
//!
//! The fenced write is one conditional `UPDATE`; its affected-row count says accepted or rejected. The
//! core's rule (src/sim/engine.rs, `store`) accepts a token equal to the highest seen, so the condition is
//! `token >= highest`, and a write without a token is refused. `highest` is the largest token the storage
//! has seen (accepted writes and registrations, `register-token`), `written` the largest of an accepted
//! write; `token` and `holder` are the last write's.

use std::path::Path;
use std::time::Duration;

use rusqlite::{params, Connection, TransactionBehavior};

const SCHEMA: &str = "
    CREATE TABLE resource (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        holder TEXT,
        token INTEGER,
        highest INTEGER,
        written INTEGER,
        writes INTEGER NOT NULL DEFAULT 0
    );
    INSERT INTO resource (id) VALUES (1);
";

/// Fencing on: only a token at or above the highest accepted so far gets in.
const FENCED: &str = "
    UPDATE resource SET holder = ?2, token = ?1, highest = max(coalesce(highest, ?1), ?1),
        written = max(coalesce(written, ?1), ?1), writes = writes + 1
    WHERE id = 1 AND ?1 IS NOT NULL AND (highest IS NULL OR ?1 >= highest)";

/// Fencing on for a reader's client (`locksim check`): a write that carries a token gets in only at or above
/// the highest; one that carries none cannot be compared and gets in, as at a resource whose check is
/// opt-in (the mistake of a client that sends no token).
const FENCED_OPEN: &str = "
    UPDATE resource SET holder = ?2, token = ?1,
        highest = max(coalesce(highest, ?1), coalesce(?1, highest)),
        written = max(coalesce(written, ?1), coalesce(?1, written)), writes = writes + 1
    WHERE id = 1 AND (?1 IS NULL OR highest IS NULL OR ?1 >= highest)";

/// Fencing off: every write gets in; the highest token is still kept, for the record.
const UNFENCED: &str = "
    UPDATE resource SET holder = ?2, token = ?1,
        highest = max(coalesce(highest, ?1), coalesce(?1, highest)),
        written = max(coalesce(written, ?1), coalesce(?1, written)), writes = writes + 1
    WHERE id = 1";

/// A registration: the new holder's token raises the highest seen, before the holder writes anything.
const REGISTER: &str = "UPDATE resource SET highest = max(coalesce(highest, ?1), ?1) WHERE id = 1";

/// The resource every worker writes: the SQLite file, or (`network-delay`) a PostgreSQL server.
pub trait Resource {
    /// One write by `holder` with `token`: accepted or rejected by the database itself.
    fn write(&mut self, holder: &str, token: Option<u64>, fencing: bool) -> std::io::Result<Stored>;
    /// Registers a new holder's `token` (`register-token`): the highest token seen rises to it.
    fn register(&mut self, token: u64) -> std::io::Result<()>;
}

impl Resource for Storage {
    fn write(&mut self, holder: &str, token: Option<u64>, fencing: bool) -> std::io::Result<Stored> {
        Storage::write(self, holder, token, fencing).map_err(std::io::Error::other)
    }

    fn register(&mut self, token: u64) -> std::io::Result<()> {
        Storage::register(self, token).map_err(std::io::Error::other)
    }
}

/// What the storage did with one write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stored {
    /// Whether the row changed.
    pub accepted: bool,
    /// The highest token seen before this write (accepted writes and registrations).
    pub highest_before: Option<u64>,
    /// The highest token of a write accepted before this one.
    pub written_before: Option<u64>,
}

/// A connection to the storage file.
pub struct Storage {
    conn: Connection,
}

impl Storage {
    /// Creates the file with its one row.
    pub fn create(path: &Path) -> rusqlite::Result<()> {
        let conn = Connection::open(path)?;
        // WAL (kept by the file): a commit appends to the log without waiting for an fsync of the database,
        // so a write takes well under a millisecond, not the few ms that show up as jitter. Durability
        // across a power cut is not what these runs are about.
        conn.pragma_update(None, "journal_mode", "wal")?;
        conn.execute_batch(SCHEMA)
    }

    /// Opens the file made by [`Storage::create`].
    pub fn open(path: &Path) -> rusqlite::Result<Storage> {
        let conn = Connection::open(path)?;
        conn.busy_timeout(Duration::from_secs(2))?;
        conn.pragma_update(None, "synchronous", "normal")?;
        Ok(Storage { conn })
    }

    /// Commits without waiting for the disk at all (`synchronous = off`): `locksim check`'s storage, whose
    /// writes must not wait behind other programs' disk traffic on a shared machine; the file is thrown away
    /// with the run.
    pub fn unsynced(self) -> rusqlite::Result<Storage> {
        self.conn.pragma_update(None, "synchronous", "off")?;
        Ok(self)
    }

    /// One write by `holder` with `token`: accepted or rejected by the database itself.
    pub fn write(&mut self, holder: &str, token: Option<u64>, fencing: bool) -> rusqlite::Result<Stored> {
        self.write_as(holder, token, fencing, false)
    }

    /// [`Storage::write`], where with `tokenless` a write without a token passes the fence (`locksim check`:
    /// the storage can only check the token it is given).
    pub fn write_as(
        &mut self,
        holder: &str,
        token: Option<u64>,
        fencing: bool,
        tokenless: bool,
    ) -> rusqlite::Result<Stored> {
        // IMMEDIATE takes the write lock first, so the highest read here is the one the UPDATE compares.
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let (highest, written): (Option<i64>, Option<i64>) =
            tx.query_row("SELECT highest, written FROM resource WHERE id = 1", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })?;
        let token = token.map(|t| i64::try_from(t).unwrap_or(i64::MAX));
        let sql = match (fencing, tokenless) {
            (false, _) => UNFENCED,
            (true, false) => FENCED,
            (true, true) => FENCED_OPEN,
        };
        let changed = tx.execute(sql, params![token, holder])?;
        tx.commit()?;
        let token = |t: Option<i64>| t.and_then(|t| u64::try_from(t).ok());
        Ok(Stored { accepted: changed == 1, highest_before: token(highest), written_before: token(written) })
    }

    /// Registers a new holder's `token` (`register-token`): the highest token seen rises to it.
    pub fn register(&mut self, token: u64) -> rusqlite::Result<()> {
        self.conn.execute(REGISTER, params![i64::try_from(token).unwrap_or(i64::MAX)])?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tempfile::TempDir;

    /// A fresh storage in its own directory (WAL mode adds files beside the database).
    fn fresh() -> (TempDir, Storage) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("storage.db");
        Storage::create(&path).unwrap();
        let s = Storage::open(&path).unwrap();
        (dir, s)
    }

    #[test]
    fn fencing_accepts_equal_and_higher_tokens_and_rejects_lower_ones() {
        let (_dir, mut s) = fresh();
        assert_eq!(
            s.write("B", Some(34), true).unwrap(),
            Stored { accepted: true, highest_before: None, written_before: None }
        );
        assert_eq!(
            s.write("B", Some(34), true).unwrap(),
            Stored { accepted: true, highest_before: Some(34), written_before: Some(34) }
        );
        assert_eq!(
            s.write("A", Some(33), true).unwrap(),
            Stored { accepted: false, highest_before: Some(34), written_before: Some(34) }
        );
        assert_eq!(
            s.write("A", None, true).unwrap(),
            Stored { accepted: false, highest_before: Some(34), written_before: Some(34) }
        );
        assert_eq!(
            s.write("C", Some(35), true).unwrap(),
            Stored { accepted: true, highest_before: Some(34), written_before: Some(34) }
        );
    }

    #[test]
    fn without_fencing_everything_lands_and_the_highest_is_kept() {
        let (_dir, mut s) = fresh();
        s.write("B", Some(34), false).unwrap();
        assert_eq!(
            s.write("A", Some(33), false).unwrap(),
            Stored { accepted: true, highest_before: Some(34), written_before: Some(34) }
        );
        assert_eq!(
            s.write("A", None, false).unwrap(),
            Stored { accepted: true, highest_before: Some(34), written_before: Some(34) }
        );
        let holder: String = s.conn.query_row("SELECT holder FROM resource", [], |r| r.get(0)).unwrap();
        assert_eq!(holder, "A");
    }

    #[test]
    fn for_a_reader_s_client_a_write_without_a_token_passes_the_fence() {
        let (_dir, mut s) = fresh();
        s.write_as("B", Some(34), true, true).unwrap();
        assert!(!s.write_as("A", Some(33), true, true).unwrap().accepted);
        let late = s.write_as("A", None, true, true).unwrap();
        assert_eq!(late, Stored { accepted: true, highest_before: Some(34), written_before: Some(34) });
    }

    #[test]
    fn a_registration_raises_the_highest_seen_but_not_the_highest_written() {
        let (_dir, mut s) = fresh();
        s.write("A", Some(33), true).unwrap();
        s.register(34).unwrap();
        let late = s.write("A", Some(33), true).unwrap();
        assert_eq!(late, Stored { accepted: false, highest_before: Some(34), written_before: Some(33) });
        let b = s.write("B", Some(34), true).unwrap();
        assert_eq!(b, Stored { accepted: true, highest_before: Some(34), written_before: Some(33) });
    }
}
