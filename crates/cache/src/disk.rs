//! The on-disk store of the cache: one SQLite database in WAL mode in the cache directory,
//! a small pool of connections (one per concurrently working thread), schema setup, batched
//! transactional writes, and recovery from a corrupt or deleted database.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::config::DbConfig;
use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, TransactionBehavior, params};

use super::codec::StoredOutline;
use mji_fs::stamp::Stamp;

/// The database file inside the cache directory.
pub const DB_FILE: &str = "outlines.sqlite3";
/// Bumped when the tables change; a database with another schema is emptied and rebuilt.
const SCHEMA_VERSION: &str = "3";
/// How long a statement waits for another connection's lock before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// The write-ahead log a flush leaves as it is (64 pages): what a command reads at its start
/// to index a log that size is a tenth of a millisecond.
pub const CHECKPOINT_LOG_BYTES: u64 = 64 * 4096;
/// How long a checkpoint waits for other connections before it is left for later.
const CHECKPOINT_WAIT: Duration = Duration::from_millis(100);
/// Idle connections kept; more threads than this open (and close) their own.
const MAX_IDLE: usize = 16;
/// Unreferenced entries are collected when entries exceed twice the recorded paths plus this.
const GC_SLACK: i64 = 1000;
/// ... and only those written at least this long ago.
const GC_MIN_AGE_SECS: i64 = 3600;

const TABLES: &str = "
CREATE TABLE outlines (
    hash TEXT NOT NULL,
    format INTEGER NOT NULL,
    model TEXT NOT NULL,
    json TEXT NOT NULL,
    spans BLOB NOT NULL,
    created INTEGER NOT NULL,
    PRIMARY KEY (hash, format, model)
);
CREATE TABLE files (
    path BLOB PRIMARY KEY,
    size INTEGER NOT NULL,
    stamp_lo INTEGER NOT NULL,
    stamp_hi INTEGER NOT NULL,
    hash TEXT NOT NULL
) WITHOUT ROWID;
";

/// Why a database operation failed, as far as the cache cares.
#[derive(Debug)]
pub(crate) enum DiskError {
    /// Another connection held the lock past the busy timeout: skip, don't fail.
    Busy,
    /// The file is not a database or is malformed.
    Corrupt(String),
    /// Anything else (read-only, disk full, I/O error, directory gone).
    Other(String),
}

impl std::fmt::Display for DiskError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DiskError::Busy => f.write_str("the database stayed locked by another process"),
            DiskError::Corrupt(m) | DiskError::Other(m) => f.write_str(m),
        }
    }
}

impl From<rusqlite::Error> for DiskError {
    fn from(e: rusqlite::Error) -> Self {
        match e.sqlite_error_code() {
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => DiskError::Busy,
            Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => DiskError::Corrupt(e.to_string()),
            _ => DiskError::Other(e.to_string()),
        }
    }
}

/// Which file a path names (device and inode), to notice a database deleted or replaced under
/// open connections.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileId(u64, u64);

fn file_id(path: &Path) -> io::Result<FileId> {
    let meta = fs::metadata(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Ok(FileId(meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        let created = meta.created().map(super::codec::system_time_ns).unwrap_or(0);
        Ok(FileId(created as u64, 0))
    }
}

/// What [`Disk::check_file`] found at the database path.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum DiskState {
    Same,
    /// Another file is there now (another process rebuilt the cache): connections were reset.
    Replaced,
    Missing,
}

struct Pool {
    /// Bumped when the database file changes; connections of older generations are dropped.
    generation: u64,
    idle: Vec<Connection>,
    id: Option<FileId>,
}

pub(crate) struct Disk {
    dir: PathBuf,
    db: PathBuf,
    format: i64,
    model: String,
    pool: Mutex<Pool>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Disk {
    /// Creates `dir` if needed and opens (or creates) the database in it. A corrupt database
    /// is moved aside and replaced, with a warning. Errors say why the directory is unusable.
    pub fn open(dir: &Path, format: u32, model: &str) -> Result<(Disk, Vec<String>), String> {
        let db = dir.join(DB_FILE);
        let mut warnings = Vec::new();
        let conn = prepare_dir(dir).and_then(|()| match init(&db, format, model) {
            Ok(c) => Ok(c),
            Err(DiskError::Corrupt(why)) => {
                let aside = move_aside(&db).map_err(|e| format!("moving corrupt cache {} aside: {e}", db.display()))?;
                warnings.push(format!(
                    "cache database {} was corrupt ({why}); moved it to {} and started a new one",
                    db.display(),
                    aside.display()
                ));
                init(&db, format, model).map_err(|e| format!("opening cache {}: {e}", db.display()))
            }
            Err(e) => Err(format!("opening cache {}: {e}", db.display())),
        })?;
        let id = file_id(&db).ok();
        let disk = Disk {
            dir: dir.to_path_buf(),
            db,
            format: i64::from(format),
            model: model.to_owned(),
            pool: Mutex::new(Pool { generation: 0, idle: vec![conn], id }),
        };
        Ok((disk, warnings))
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub(crate) fn db_path(&self) -> &Path {
        &self.db
    }

    /// Runs `f` on a pooled connection (opening one if none is idle).
    fn with_conn<T>(&self, f: impl FnOnce(&mut Connection) -> rusqlite::Result<T>) -> Result<T, DiskError> {
        let (generation, idle) = {
            let mut p = lock(&self.pool);
            (p.generation, p.idle.pop())
        };
        let mut conn = match idle {
            Some(c) => c,
            None => connect(&self.db, OpenFlags::SQLITE_OPEN_READ_WRITE)?,
        };
        let result = f(&mut conn);
        let mut p = lock(&self.pool);
        if p.generation == generation && p.idle.len() < MAX_IDLE {
            p.idle.push(conn);
        }
        Ok(result?)
    }

    /// The entry recorded for `path` if its stamp is still `stamp`, with the recorded hash.
    /// `with_spans: false` leaves the spans empty (for JSON output, which does not need them).
    pub(crate) fn find_by_path(
        &self,
        path: &[u8],
        stamp: Stamp,
        with_spans: bool,
    ) -> Result<Option<(String, StoredOutline)>, DiskError> {
        let sql = if with_spans {
            "SELECT f.hash, o.json, o.spans FROM files f JOIN outlines o
             ON o.hash = f.hash AND o.format = ?2 AND o.model = ?3
             WHERE f.path = ?1 AND f.size = ?4 AND f.stamp_lo = ?5 AND f.stamp_hi = ?6"
        } else {
            "SELECT f.hash, o.json FROM files f JOIN outlines o
             ON o.hash = f.hash AND o.format = ?2 AND o.model = ?3
             WHERE f.path = ?1 AND f.size = ?4 AND f.stamp_lo = ?5 AND f.stamp_hi = ?6"
        };
        let (lo, hi) = stamp.halves();
        self.with_conn(|c| {
            c.prepare_cached(sql)?
                .query_row(params![path, self.format, self.model, stamp.size as i64, lo, hi], |r| {
                    let hash: String = r.get(0)?;
                    let entry = entry_from_row(r, 1, with_spans)?;
                    Ok((hash, entry))
                })
                .optional()
        })
    }

    /// The entry of a content hash, if stored.
    pub(crate) fn find_by_hash(&self, hash: &str, with_spans: bool) -> Result<Option<StoredOutline>, DiskError> {
        let sql = if with_spans {
            "SELECT json, spans FROM outlines WHERE hash = ?1 AND format = ?2 AND model = ?3"
        } else {
            "SELECT json FROM outlines WHERE hash = ?1 AND format = ?2 AND model = ?3"
        };
        self.with_conn(|c| {
            c.prepare_cached(sql)?
                .query_row(params![hash, self.format, self.model], |r| entry_from_row(r, 0, with_spans))
                .optional()
        })
    }

    /// The `files` row of a path: its recorded stamp and hash.
    pub(crate) fn file_row(&self, path: &[u8]) -> Result<Option<(Stamp, String)>, DiskError> {
        self.with_conn(|c| {
            c.prepare_cached("SELECT size, stamp_lo, stamp_hi, hash FROM files WHERE path = ?1")?
                .query_row(params![path], |r| {
                    Ok((Stamp::from_halves(r.get::<_, i64>(0)? as u64, r.get(1)?, r.get(2)?), r.get(3)?))
                })
                .optional()
        })
    }

    /// Writes outlines and `files` rows (`None`: delete the row) in one transaction.
    pub fn write<'a>(
        &self,
        outlines: impl Iterator<Item = (&'a String, &'a StoredOutline)>,
        files: impl Iterator<Item = (&'a [u8], &'a Option<(Stamp, String)>)>,
    ) -> Result<(), DiskError> {
        self.with_conn(|c| {
            let now = super::codec::now_ns() / 1_000_000_000;
            let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
            {
                let mut put = tx.prepare_cached(
                    "INSERT OR REPLACE INTO outlines (hash, format, model, json, spans, created)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )?;
                for (hash, e) in outlines {
                    put.execute(params![hash, self.format, self.model, &*e.json, &*e.spans, now])?;
                }
                let mut put_file = tx.prepare_cached(
                    "INSERT OR REPLACE INTO files (path, size, stamp_lo, stamp_hi, hash)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                )?;
                let mut del_file = tx.prepare_cached("DELETE FROM files WHERE path = ?1")?;
                for (path, row) in files {
                    match row {
                        Some((s, hash)) => {
                            let (lo, hi) = s.halves();
                            put_file.execute(params![path, s.size as i64, lo, hi, hash])?;
                        }
                        None => {
                            del_file.execute(params![path])?;
                        }
                    }
                }
            }
            tx.commit()
        })
    }

    /// Entries of this format, `files` rows, and bytes on disk (database and its WAL).
    pub fn counts(&self) -> Result<(u64, u64, u64), DiskError> {
        let (entries, files) = self.with_conn(|c| {
            let entries: i64 = c.query_row(
                "SELECT count(*) FROM outlines WHERE format = ?1 AND model = ?2",
                params![self.format, self.model],
                |r| r.get(0),
            )?;
            let files: i64 = c.query_row("SELECT count(*) FROM files", [], |r| r.get(0))?;
            Ok((entries, files))
        })?;
        let size = |p: &Path| fs::metadata(p).map(|m| m.len()).unwrap_or(0);
        let bytes = size(&self.db) + size(&sibling(&self.db, "-wal"));
        Ok((entries as u64, files as u64, bytes))
    }

    /// Deletes every entry and `files` row (all formats).
    pub fn clear(&self) -> Result<(), DiskError> {
        self.with_conn(|c| {
            let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
            tx.execute_batch("DELETE FROM outlines; DELETE FROM files;")?;
            tx.commit()
        })
    }

    /// Deletes the entries no recorded path refers to (old versions of files, deleted files)
    /// and older than [`GC_MIN_AGE_SECS`], once all entries outnumber twice the recorded paths
    /// by [`GC_SLACK`]. Returns how many went. (Recent entries are spared: files written less
    /// than [`super::RACY_WINDOW`] ago have no recorded path yet.)
    pub(crate) fn collect_garbage(&self) -> Result<u64, DiskError> {
        self.with_conn(|c| {
            let entries: i64 = c.query_row("SELECT count(*) FROM outlines", [], |r| r.get(0))?;
            let files: i64 = c.query_row("SELECT count(*) FROM files", [], |r| r.get(0))?;
            if entries <= files.saturating_mul(2).saturating_add(GC_SLACK) {
                return Ok(0);
            }
            let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let n = tx.execute(
                "DELETE FROM outlines
                 WHERE created < ?1 AND hash NOT IN (SELECT hash FROM files)",
                [super::codec::now_ns() / 1_000_000_000 - GC_MIN_AGE_SECS],
            )?;
            tx.commit()?;
            Ok(n as u64)
        })
    }

    /// Copies the write-ahead log into the database and empties it (`wal_checkpoint(TRUNCATE)`)
    /// once it holds more than [`CHECKPOINT_LOG_BYTES`], waiting at most [`CHECKPOINT_WAIT`]
    /// for other connections. A smaller log is left: emptying it syncs the database, a few
    /// milliseconds, which would be paid by every command that writes one outline.
    pub(crate) fn checkpoint(&self) -> Result<(), DiskError> {
        let log = self.db.with_file_name(format!("{DB_FILE}-wal"));
        if fs::metadata(&log).map_or(0, |m| m.len()) <= CHECKPOINT_LOG_BYTES {
            return Ok(());
        }
        self.with_conn(|c| {
            c.busy_timeout(CHECKPOINT_WAIT)?;
            let done = c.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get::<_, i64>(0));
            c.busy_timeout(BUSY_TIMEOUT)?;
            done.map(|_| ())
        })
    }

    /// Checks that the database file is still the one the connections have open; if another
    /// file replaced it, drops the pooled connections so new ones open the new file.
    pub fn check_file(&self) -> DiskState {
        let now = match file_id(&self.db) {
            Ok(id) => id,
            Err(_) => return DiskState::Missing,
        };
        let mut p = lock(&self.pool);
        if p.id == Some(now) {
            return DiskState::Same;
        }
        p.generation += 1;
        p.idle.clear();
        p.id = Some(now);
        DiskState::Replaced
    }

    /// Creates the directory and database again after they were deleted.
    pub(crate) fn recreate(&self) -> Result<(), String> {
        prepare_dir(&self.dir)?;
        let conn = init(&self.db, u32::try_from(self.format).unwrap_or(0), &self.model)
            .map_err(|e| format!("recreating cache {}: {e}", self.db.display()))?;
        let id = file_id(&self.db).ok();
        let mut p = lock(&self.pool);
        p.generation += 1;
        p.idle.clear();
        p.idle.push(conn);
        p.id = id;
        Ok(())
    }

    /// Moves a database found corrupt while in use aside (if it is still the file the
    /// connections opened) and closes the connections. Returns where it went.
    pub(crate) fn quarantine(&self) -> Option<PathBuf> {
        let mut p = lock(&self.pool);
        p.generation += 1;
        p.idle.clear();
        if p.id.is_some() && file_id(&self.db).ok() == p.id {
            p.id = None;
            return move_aside(&self.db).ok();
        }
        None
    }
}

fn entry_from_row(r: &rusqlite::Row<'_>, first: usize, with_spans: bool) -> rusqlite::Result<StoredOutline> {
    let json: Arc<str> = Arc::from(r.get_ref(first)?.as_str()?);
    let spans: Arc<[u8]> = if with_spans { Arc::from(r.get_ref(first + 1)?.as_blob()?) } else { Arc::from(&[][..]) };
    Ok(StoredOutline { json, spans })
}

/// Creates the directory (with a `.gitignore` of `*` when missing).
fn prepare_dir(dir: &Path) -> Result<(), String> {
    fs::create_dir_all(dir).map_err(|e| format!("creating cache dir {}: {e}", dir.display()))?;
    let ignore = dir.join(".gitignore");
    // A new file only, never through a link (a dangling one a repository left there included).
    let opts = mji_fs::write::Options { create_dirs: false, ..Default::default() }.new_only();
    match mji_fs::write::write_user(&ignore, b"*\n", opts) {
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists && e.kind() != std::io::ErrorKind::PermissionDenied => {
            Err(format!("writing {}: {e}", ignore.display()))
        }
        _ => Ok(()),
    }
}

/// `db` with a suffix appended to its file name (`-wal`, `-shm`, `.corrupt`).
fn sibling(db: &Path, suffix: &str) -> PathBuf {
    let mut s = db.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// Renames a corrupt database to `<name>.corrupt` (its WAL with it, so that it is not replayed
/// into the new database) and removes its shared-memory file. Returns the new name.
fn move_aside(db: &Path) -> io::Result<PathBuf> {
    let aside = sibling(db, ".corrupt");
    fs::rename(db, &aside)?;
    let wal = sibling(db, "-wal");
    if wal.exists() {
        fs::rename(&wal, sibling(&aside, "-wal"))?;
    }
    let shm = sibling(db, "-shm");
    if shm.exists() {
        fs::remove_file(&shm)?;
    }
    Ok(aside)
}

/// Opens a connection with the per-connection settings.
fn connect(db: &Path, flags: OpenFlags) -> Result<Connection, DiskError> {
    let conn = Connection::open_with_flags(db, flags | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    // Plans that do not depend on bound values: without this, SQLite (built with STAT4)
    // re-prepares the lookup statements on every new binding.
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)?;
    conn.set_prepared_statement_cache_capacity(16);
    Ok(conn)
}

/// Opens or creates the database: WAL mode, tables of this schema, stale formats pruned.
/// [`init_once`], again while another process holds the lock it needs: SQLite answers a lock
/// upgrade that could deadlock (switching a new database to WAL, or two set-ups at once) with
/// `SQLITE_BUSY` at once, without waiting, so processes starting together on a new cache
/// would otherwise fall back to memory.
fn init(db: &Path, format: u32, model: &str) -> Result<Connection, DiskError> {
    let deadline = std::time::Instant::now() + BUSY_TIMEOUT;
    loop {
        match init_once(db, format, model) {
            Err(DiskError::Busy) if std::time::Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(20));
            }
            other => return other,
        }
    }
}

fn init_once(db: &Path, format: u32, model: &str) -> Result<Connection, DiskError> {
    let mut conn = connect(db, OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE)?;
    // Reads the header: a file that is not a database fails here.
    let _mode: String = conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))?;
    if conn.is_readonly(rusqlite::MAIN_DB)? {
        return Err(DiskError::Other("the database can only be opened read-only".to_owned()));
    }
    let writer = format!("{format}/{model}");
    // The usual case, a database this build set up, in one statement; any error (no `meta`
    // table yet, say) leaves the answer to the checks below.
    let ready: Option<(Option<String>, Option<String>)> = conn
        .query_row(
            "SELECT (SELECT value FROM meta WHERE key = 'schema'), (SELECT value FROM meta WHERE key = 'writer')",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .ok();
    if let Some((Some(schema), Some(w))) = ready
        && schema == SCHEMA_VERSION
        && w == writer
    {
        return Ok(conn);
    }
    let meta_value = |c: &Connection, key: &str| -> rusqlite::Result<Option<String>> {
        let has_meta: i64 =
            c.query_row("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'", [], |r| r.get(0))?;
        if has_meta == 0 {
            return Ok(None);
        }
        c.query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0)).optional()
    };
    let ready = meta_value(&conn, "schema")?.as_deref() == Some(SCHEMA_VERSION)
        && meta_value(&conn, "writer")?.as_deref() == Some(writer.as_str());
    if !ready {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute_batch("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")?;
        if meta_value(&tx, "schema")?.as_deref() != Some(SCHEMA_VERSION) {
            tx.execute_batch("DROP TABLE IF EXISTS outlines; DROP TABLE IF EXISTS files;")?;
            tx.execute_batch(TABLES)?;
            tx.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema', ?1)", [SCHEMA_VERSION])?;
        }
        if meta_value(&tx, "writer")?.as_deref() != Some(writer.as_str()) {
            // Entries of older formats, or of another build of this format, will not be read
            // again by this binary; newer formats are left to the binary that wrote them.
            tx.execute(
                "DELETE FROM outlines WHERE format < ?1 OR (format = ?1 AND model <> ?2)",
                params![i64::from(format), model],
            )?;
            tx.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('writer', ?1)", [&writer])?;
        }
        tx.commit()?;
    }
    Ok(conn)
}
