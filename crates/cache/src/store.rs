//! The layered store behind [`super::Cache`]: the write buffer, the disk database and the
//! in-memory maps, looked up in that order; batched writes (on a background writer thread when
//! there is one); and the fallbacks when the disk misbehaves.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU8, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, RwLock, RwLockReadGuard, RwLockWriteGuard, Weak};
use std::thread::JoinHandle;
use std::time::Duration;

use super::codec::{self, StoredOutline};
use super::disk::{Disk, DiskError, DiskState};
use mji_fs::stamp::Stamp;

/// New entries are written in transactions of this many rows...
pub const BATCH_ROWS: usize = 256;
/// ... or of this many bytes of JSON, whichever comes first.
const BATCH_BYTES: usize = 16 << 20;
/// A new entry is written at once (with whatever else is buffered) when nothing was written
/// for this long: lone lookups in a long-running server do not wait for a full batch.
const WRITE_INTERVAL: Duration = Duration::from_secs(1);
/// Batches queued for the writer thread before producers wait (bounds memory).
const QUEUE: usize = 4;

/// State of the disk store.
pub(crate) const DISK_OK: u8 = 0;
/// Writes failed: new entries go to memory; the database is still read.
pub(crate) const DISK_READ_ONLY: u8 = 1;
/// The database is corrupt: not used at all.
pub(crate) const DISK_OFF: u8 = 2;

/// A path's recorded stamp and content hash.
pub(crate) type FileRow = (Stamp, String);

/// Entries and `files` rows not yet written (or being written) to disk.
#[derive(Default)]
struct Batch {
    outlines: HashMap<String, StoredOutline>,
    /// `None` deletes the row.
    files: HashMap<PathBuf, Option<FileRow>>,
    bytes: usize,
}

impl Batch {
    fn rows(&self) -> usize {
        self.outlines.len() + self.files.len()
    }
}

#[derive(Default)]
struct Pending {
    current: Batch,
    /// Taken from `current`, not yet committed; lookups still see them.
    in_flight: Vec<Arc<Batch>>,
}

impl Pending {
    fn batches(&self) -> impl Iterator<Item = &Batch> {
        std::iter::once(&self.current).chain(self.in_flight.iter().map(|b| &**b))
    }

    /// Moves the current batch to `in_flight` (still visible to lookups) and returns it.
    fn take(&mut self) -> Arc<Batch> {
        let batch = Arc::new(std::mem::take(&mut self.current));
        self.in_flight.push(batch.clone());
        batch
    }
}

/// Work for the writer thread.
enum Msg {
    Write(Arc<Batch>),
    /// Answer once everything sent before is written.
    Sync(mpsc::Sender<()>),
    Stop,
}

/// The in-memory maps: the whole cache in memory mode, new entries once a disk cache has
/// degraded, and entries whose write was skipped because the database stayed locked.
#[derive(Default)]
struct Memory {
    outlines: RwLock<HashMap<String, StoredOutline>>,
    files: RwLock<HashMap<PathBuf, FileRow>>,
}

pub(crate) struct Store {
    disk: Option<Disk>,
    disk_state: AtomicU8,
    mem: Memory,
    pending: Mutex<Pending>,
    /// When the buffer was last handed to the disk ([`codec::now_ns`]).
    last_write_ns: AtomicI64,
    /// The writer thread's queue, made on the first write (`None`: no disk, or the thread
    /// could not be spawned): a command that only reads never starts it, nor its garbage
    /// collection on a connection of its own (issue 38).
    writer: OnceLock<Option<SyncSender<Msg>>>,
    writer_thread: Mutex<Option<JoinHandle<()>>>,
    /// This store, for the writer thread to hold.
    me: Weak<Store>,
    /// A batch reached the database since the last [`Store::checkpoint`].
    wrote: AtomicBool,
    warnings: Mutex<Vec<String>>,
    /// The first failed write (a full disk, a file-size limit): the CLI fails on it.
    write_error: Mutex<Option<String>>,
    /// Told the first failed write once (the server logs it); see [`Store::on_write_error`].
    write_error_hook: Mutex<Option<WriteErrorHook>>,
}

/// What to do with the first failed write of a cache.
pub type WriteErrorHook = std::sync::Arc<dyn Fn(&str) + Send + Sync>;

pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn read_lock<T>(m: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    m.read().unwrap_or_else(|e| e.into_inner())
}

fn write_lock<T>(m: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    m.write().unwrap_or_else(|e| e.into_inner())
}

/// The bytes of a path, as the `files` table keys it.
fn path_key(p: &Path) -> &[u8] {
    p.as_os_str().as_encoded_bytes()
}

impl Store {
    pub fn new(disk: Option<Disk>, warnings: Vec<String>) -> Arc<Store> {
        Arc::new_cyclic(|me| Store {
            disk,
            disk_state: AtomicU8::new(DISK_OK),
            mem: Memory::default(),
            pending: Mutex::new(Pending::default()),
            last_write_ns: AtomicI64::new(codec::now_ns()),
            writer: OnceLock::new(),
            writer_thread: Mutex::new(None),
            me: me.clone(),
            wrote: AtomicBool::new(false),
            warnings: Mutex::new(warnings),
            write_error: Mutex::new(None),
            write_error_hook: Mutex::new(None),
        })
    }

    /// The queue of the thread that writes batches, so lookups never wait on the disk; the
    /// thread is started by the first call. Without it (memory mode, or the thread could not
    /// be spawned) batches are written by the thread that fills them. The thread runs until
    /// [`Store::stop_writer`].
    fn writer(&self) -> Option<&SyncSender<Msg>> {
        self.writer
            .get_or_init(|| {
                self.disk.as_ref()?;
                let store = self.me.upgrade()?;
                let (tx, rx) = mpsc::sync_channel(QUEUE);
                let handle = std::thread::Builder::new()
                    .name("outline-cache-writer".to_owned())
                    .spawn(move || store.writer_loop(rx))
                    .ok()?;
                *lock(&self.writer_thread) = Some(handle);
                Some(tx)
            })
            .as_ref()
    }

    /// The writer's queue if the thread was started.
    fn started_writer(&self) -> Option<&SyncSender<Msg>> {
        self.writer.get().and_then(Option::as_ref)
    }

    fn writer_loop(&self, rx: Receiver<Msg>) {
        if let Some(d) = self.disk.as_ref() {
            // Off the lookup path; a failure (say, the database is locked) just skips it.
            let _ = d.collect_garbage();
        }
        while let Ok(msg) = rx.recv() {
            match msg {
                Msg::Write(batch) => self.write_batch(&batch),
                Msg::Sync(done) => {
                    let _ = done.send(());
                }
                Msg::Stop => return,
            }
        }
    }

    /// Writes what is buffered, ends the writer thread if it was started, and waits for it.
    pub(crate) fn stop_writer(&self) {
        self.flush();
        if let Some(tx) = self.started_writer() {
            let _ = tx.send(Msg::Stop);
        }
        if let Some(handle) = lock(&self.writer_thread).take() {
            let _ = handle.join();
        }
    }

    pub fn disk(&self) -> Option<&Disk> {
        self.disk.as_ref()
    }

    pub(crate) fn disk_state(&self) -> u8 {
        self.disk_state.load(Ordering::Relaxed)
    }

    /// The disk store, if it may be read.
    fn readable_disk(&self) -> Option<&Disk> {
        self.disk.as_ref().filter(|_| self.disk_state() != DISK_OFF)
    }

    pub fn warn(&self, message: String) {
        let mut w = lock(&self.warnings);
        if !w.contains(&message) {
            w.push(message);
        }
    }

    pub fn warnings(&self) -> Vec<String> {
        lock(&self.warnings).clone()
    }

    pub fn write_error(&self) -> Option<String> {
        lock(&self.write_error).clone()
    }

    /// Sets what is told the first failed write: at once if it already failed, else when it
    /// does (once: after a failure new entries stay in memory and nothing is written again).
    pub fn on_write_error(&self, hook: WriteErrorHook) {
        let error = lock(&self.write_error);
        *lock(&self.write_error_hook) = Some(hook.clone());
        if let Some(e) = error.clone() {
            drop(error);
            hook(&e);
        }
    }

    /// The entry recorded for a path whose stamp is unchanged, with its hash.
    pub(crate) fn find_by_path(&self, abs: &Path, stamp: Stamp, with_spans: bool) -> Option<(String, StoredOutline)> {
        if let Some(d) = self.readable_disk() {
            match d.find_by_path(path_key(abs), stamp, with_spans) {
                Ok(Some(found)) => return Some(found),
                Ok(None) => {}
                Err(e) => self.on_read_error(e),
            }
        }
        // Recorded but not yet written, or kept in memory.
        let (s, hash) = self.file_row_not_on_disk(abs)??;
        if s != stamp {
            return None;
        }
        let entry = self.find_by_hash(&hash, with_spans)?;
        Some((hash, entry))
    }

    /// The entry of a content hash: buffered, on disk, or in memory. `with_spans: false`
    /// may leave the spans of a disk entry empty.
    pub(crate) fn find_by_hash(&self, hash: &str, with_spans: bool) -> Option<StoredOutline> {
        {
            let p = lock(&self.pending);
            if let Some(e) = p.batches().find_map(|b| b.outlines.get(hash)) {
                return Some(e.clone());
            }
        }
        if let Some(d) = self.readable_disk() {
            match d.find_by_hash(hash, with_spans) {
                Ok(Some(e)) => return Some(e),
                Ok(None) => {}
                Err(e) => self.on_read_error(e),
            }
        }
        read_lock(&self.mem.outlines).get(hash).cloned()
    }

    /// The row of a path in the write buffer (`Some(None)`: to be deleted) or in memory.
    fn file_row_not_on_disk(&self, abs: &Path) -> Option<Option<FileRow>> {
        {
            let p = lock(&self.pending);
            if let Some(row) = p.batches().find_map(|b| b.files.get(abs)) {
                return Some(row.clone());
            }
        }
        read_lock(&self.mem.files).get(abs).cloned().map(Some)
    }

    /// The recorded stamp and hash of a path, buffered or stored.
    fn file_row(&self, abs: &Path) -> Option<FileRow> {
        if let Some(row) = self.file_row_not_on_disk(abs) {
            return row;
        }
        match self.readable_disk()?.file_row(path_key(abs)) {
            Ok(row) => row,
            Err(e) => {
                self.on_read_error(e);
                None
            }
        }
    }

    /// Records that `abs` with `stamp` has content `hash`, unless the stamp is too recent to
    /// be trusted (then any older record of the path is dropped).
    pub(crate) fn record_file(&self, abs: &Path, stamp: Stamp, hash: &str, racy_window_ns: i64) {
        let racy = stamp.is_racy_within(mji_fs::stamp::now_ns(), i128::from(racy_window_ns));
        let old = self.file_row(abs);
        let row = if racy {
            if old.is_none() {
                return;
            }
            None
        } else {
            if old.as_ref().is_some_and(|(s, h)| *s == stamp && h == hash) {
                return;
            }
            Some((stamp, hash.to_owned()))
        };
        self.put(None, Some((abs.to_path_buf(), row)));
    }

    /// Stores a freshly parsed entry.
    pub fn store(&self, hash: String, entry: StoredOutline) {
        self.put(Some((hash, entry)), None);
    }

    /// Buffers rows for the disk (handing the buffer over when full), or keeps them in memory.
    fn put(&self, outline: Option<(String, StoredOutline)>, file: Option<(PathBuf, Option<FileRow>)>) {
        if self.disk.is_none() || self.disk_state() != DISK_OK {
            self.put_in_memory(outline, file);
            return;
        }
        let full = {
            let mut p = lock(&self.pending);
            if let Some((hash, entry)) = outline {
                p.current.bytes += entry.bytes();
                p.current.outlines.insert(hash, entry);
            }
            if let Some((path, row)) = file {
                p.current.files.insert(path, row);
            }
            let idle = codec::now_ns() - self.last_write_ns.load(Ordering::Relaxed);
            if p.current.rows() >= BATCH_ROWS
                || p.current.bytes >= BATCH_BYTES
                || idle > WRITE_INTERVAL.as_nanos() as i64
            {
                Some(p.take())
            } else {
                None
            }
        };
        if let Some(batch) = full {
            self.dispatch(batch);
        }
    }

    fn put_in_memory(&self, outline: Option<(String, StoredOutline)>, file: Option<(PathBuf, Option<FileRow>)>) {
        if let Some((hash, entry)) = outline {
            write_lock(&self.mem.outlines).insert(hash, entry);
        }
        if let Some((path, row)) = file {
            let mut files = write_lock(&self.mem.files);
            match row {
                Some(row) => files.insert(path, row),
                None => files.remove(&path),
            };
        }
    }

    /// Hands a batch to the writer thread, or writes it here if there is none.
    fn dispatch(&self, batch: Arc<Batch>) {
        self.last_write_ns.store(codec::now_ns(), Ordering::Relaxed);
        if let Some(tx) = self.writer() {
            match tx.send(Msg::Write(batch)) {
                Ok(()) => return,
                Err(mpsc::SendError(Msg::Write(batch))) => return self.write_batch(&batch),
                Err(_) => return,
            }
        }
        self.write_batch(&batch);
    }

    /// Hands over what is buffered and waits until everything handed over is written.
    pub fn flush(&self) {
        let batch = {
            let mut p = lock(&self.pending);
            (p.current.rows() > 0).then(|| p.take())
        };
        if let Some(batch) = batch {
            self.dispatch(batch);
        }
        if let Some(tx) = self.started_writer() {
            let (done_tx, done_rx) = mpsc::channel();
            if tx.send(Msg::Sync(done_tx)).is_ok() {
                let _ = done_rx.recv();
            }
        }
    }

    /// Empties the database's write-ahead log into it if a batch was written since the last
    /// time and the log is past [`super::disk::CHECKPOINT_LOG_BYTES`] (after
    /// [`Store::flush`]). A process that opens the database while no other has it open reads
    /// the whole log to index it (SQLite's recovery): left to grow by the commands that wrote,
    /// to a thousand pages before SQLite's own checkpoint, every later command paid for it at
    /// its start (issue 38). Skipped when another connection is busy with the database: the
    /// log is then emptied by a later flush.
    pub fn checkpoint(&self) {
        if !self.wrote.swap(false, Ordering::Relaxed) {
            return;
        }
        if let Some(d) = self.disk.as_ref().filter(|_| self.disk_state() == DISK_OK) {
            let _ = d.checkpoint();
        }
    }

    /// Drops everything buffered and stored (after in-flight writes finish).
    pub fn clear(&self) -> Result<(), String> {
        lock(&self.pending).current = Batch::default();
        self.flush();
        write_lock(&self.mem.outlines).clear();
        write_lock(&self.mem.files).clear();
        match self.readable_disk() {
            Some(d) => d.clear().map_err(|e| format!("clearing cache {}: {e}", d.dir().display())),
            None => Ok(()),
        }
    }

    /// Entries, `files` rows and bytes of the memory maps.
    pub(crate) fn memory_counts(&self) -> (u64, u64, u64) {
        let outlines = read_lock(&self.mem.outlines);
        let bytes = outlines.values().map(|e| e.bytes() as u64).sum();
        let files = read_lock(&self.mem.files).len() as u64;
        (outlines.len() as u64, files, bytes)
    }

    /// Entries, `files` rows and bytes of the database, if it is in use.
    pub(crate) fn disk_counts(&self) -> Option<(u64, u64, u64)> {
        let d = self.disk.as_ref().filter(|_| self.disk_state() == DISK_OK)?;
        match d.counts() {
            Ok(c) => Some(c),
            Err(e) => {
                self.on_read_error(e);
                None
            }
        }
    }

    /// Writes a batch in one transaction, then drops it from `in_flight`. If the database
    /// stays locked, the batch is kept in memory; if the write fails, the cache keeps new
    /// entries in memory from then on, with a warning.
    fn write_batch(&self, batch: &Arc<Batch>) {
        match self.disk.as_ref() {
            Some(d) if self.disk_state() == DISK_OK => match self.write_to_disk(d, batch) {
                Ok(()) => self.wrote.store(true, Ordering::Relaxed),
                Err(DiskError::Busy) => self.spill(batch),
                Err(DiskError::Corrupt(why)) => {
                    self.turn_off_disk(d, &why);
                    self.spill(batch);
                }
                Err(DiskError::Other(why)) => {
                    let was_ok =
                        self.disk_state.compare_exchange(DISK_OK, DISK_READ_ONLY, Ordering::Relaxed, Ordering::Relaxed);
                    if was_ok.is_ok() {
                        let message = format!("writing cache {}: {why}", d.dir().display());
                        let hook = {
                            let mut error = lock(&self.write_error);
                            let first = error.is_none();
                            error.get_or_insert_with(|| message.clone());
                            if first { lock(&self.write_error_hook).clone() } else { None }
                        };
                        if let Some(hook) = hook {
                            hook(&message);
                        }
                        self.warn(format!(
                            "writing cache {}: {why}; new entries stay in memory for the rest \
                             of this run",
                            d.dir().display()
                        ));
                    }
                    self.spill(batch);
                }
            },
            _ => self.spill(batch),
        }
        lock(&self.pending).in_flight.retain(|b| !Arc::ptr_eq(b, batch));
    }

    fn write_to_disk(&self, d: &Disk, batch: &Batch) -> Result<(), DiskError> {
        self.ensure_db_file(d)?;
        let attempt = || d.write(batch.outlines.iter(), batch.files.iter().map(|(p, r)| (path_key(p), r)));
        match attempt() {
            Err(DiskError::Other(why)) => {
                // The directory may have been deleted since the check above.
                if d.check_file() == DiskState::Missing {
                    self.ensure_db_file(d)?;
                    attempt()
                } else {
                    Err(DiskError::Other(why))
                }
            }
            other => other,
        }
    }

    /// Before writing: the database file must still be the one open (writes to a deleted
    /// file would be lost). A deleted cache is created again, with a warning.
    fn ensure_db_file(&self, d: &Disk) -> Result<(), DiskError> {
        match d.check_file() {
            DiskState::Same | DiskState::Replaced => Ok(()),
            DiskState::Missing => {
                d.recreate().map_err(DiskError::Other)?;
                crate::provenance::remark(d.dir()).map_err(DiskError::Other)?;
                self.warn(format!("cache {} was deleted while in use; created it again", d.dir().display()));
                Ok(())
            }
        }
    }

    fn spill(&self, batch: &Batch) {
        {
            let mut outlines = write_lock(&self.mem.outlines);
            for (hash, e) in &batch.outlines {
                outlines.insert(hash.clone(), e.clone());
            }
        }
        let mut files = write_lock(&self.mem.files);
        for (path, row) in &batch.files {
            match row {
                Some(row) => files.insert(path.clone(), row.clone()),
                None => files.remove(path),
            };
        }
    }

    /// A read failed: busy or odd errors are misses; corruption turns the disk off.
    fn on_read_error(&self, e: DiskError) {
        if let (DiskError::Corrupt(why), Some(d)) = (&e, &self.disk) {
            self.turn_off_disk(d, why);
        }
    }

    fn turn_off_disk(&self, d: &Disk, why: &str) {
        if self.disk_state.swap(DISK_OFF, Ordering::Relaxed) == DISK_OFF {
            return;
        }
        let aside = match d.quarantine() {
            Some(p) => format!("moved it to {}", p.display()),
            None => "left it in place".to_owned(),
        };
        self.warn(format!(
            "cache database {} is corrupt ({why}); {aside}; caching in memory for the rest of \
             this run",
            d.db_path().display()
        ));
    }
}
