//! States on disk: when a step's states would pass the memory budget, its
//! tables are written out as sorted *runs* and emptied, and at the end of
//! the step the runs are merged — equal states added — into the next
//! step's states, kept in memory if they fit in half the budget, else in a
//! file the next step reads a block at a time.
//!
//! Runs and merged states live in a folder of their own under the spill
//! folder (`engine-spill-…`), removed when the count ends however it ends
//! — finished, stopped, refused or failed — except when the process is
//! killed outright. Records are in the order of the states' classes and
//! then their keys (the order the look-ahead replays best in), each key
//! written as the bytes in which it differs from the key before (their
//! number, then the low bytes of the two keys' exclusive or, little-endian)
//! and each count in seven-bit groups, low first: sorted keys share their
//! high bytes and most counts are small, so a state takes a third to a
//! half of its bytes in memory.
//!
//! A merge (or a filter) gives the disk back as it reads: where the file
//! system can free a file's blocks in place (Linux's hole punching), each
//! run's blocks are freed once read, so the runs and the file they become
//! take little more room together than the runs alone. The states a step
//! reads are left whole: a checkpoint may hold them, and a step stopped part
//! way leaves them to be saved.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use super::key::{Key, Tally};
use crate::halt::{Halt, Stop};

/// Bytes of the buffer of each file read or written.
const BUFFER: usize = 1 << 20;

/// Records a merge or a filter writes between two looks at the limits:
/// some milliseconds of disk.
const LOOK_EVERY: u64 = 1 << 16;

/// The most bytes of a run a merge reads between two frees of what it has
/// read.
const FREE_EVERY: u64 = 1 << 26;

/// Bytes of a run of `bytes` that a merge reads between two frees: a
/// sixteenth of it, from 64 KiB to [`FREE_EVERY`] (runs written under a
/// small memory budget are small).
fn free_every(bytes: u64) -> u64 {
    (bytes / 16).clamp(1 << 16, FREE_EVERY)
}

/// The spill folder of one count.
#[derive(Debug)]
pub struct Spill {
    dir: tempfile::TempDir,
    next: u64,
    /// Bytes written in all, and on disk now.
    pub written: u64,
    /// States on disk now (in runs and merged files).
    pub states: u64,
    /// The folder's file system frees the blocks of a file read by a
    /// merge as it goes.
    pub frees: bool,
}

/// A sorted file of states.
#[derive(Debug)]
pub struct Run {
    path: PathBuf,
    /// States in it.
    pub len: u64,
    bytes: u64,
}

/// Why a spilled step failed.
#[derive(Debug)]
pub enum SpillError {
    /// Reading or writing the folder failed.
    Io(io::Error),
    /// A count outgrew its type while runs were merged.
    Overflow,
    /// A limit or an interruption stopped the merge or the filter (its
    /// part-written file removed).
    Stopped(Stop),
}

impl From<io::Error> for SpillError {
    fn from(e: io::Error) -> SpillError {
        SpillError::Io(e)
    }
}

/// The bytes free for an unprivileged user on the file system of `path`,
/// if the system says.
pub fn free_bytes(path: &Path) -> Option<u64> {
    #[cfg(unix)]
    {
        let s = rustix::fs::statvfs(path).ok()?;
        Some(s.f_bavail.saturating_mul(s.f_frsize))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// The bytes of one state of keys `K` and counts `C` as held in memory
/// (but for padding): the estimates' figure for a record on disk, which
/// takes about half of it written (a count of 2^56 or more takes up to
/// three bytes more than this).
pub fn record_bytes<K: Key, C: Tally>() -> usize {
    K::BYTES + C::BYTES
}

/// The most bytes of a key.
const MAX_KEY: usize = 32;

/// The most bytes of a record: the key's length, the key, the count.
const MAX_RECORD: usize = 1 + MAX_KEY + 19;

impl Spill {
    /// A new folder of its own under `parent`.
    pub fn new(parent: &Path) -> io::Result<Spill> {
        let dir = tempfile::Builder::new()
            .prefix("engine-spill-")
            .tempdir_in(parent)?;
        let frees = frees_blocks(dir.path());
        Ok(Spill {
            dir,
            next: 0,
            written: 0,
            states: 0,
            frees,
        })
    }

    /// The room on disk a merge of runs of `bytes` in all needs beyond
    /// them: none but what each run has read and not yet freed where the
    /// runs are freed as they are read (the merged file takes at most the
    /// bytes read into it, give or take its counts' bytes), else as much
    /// again.
    pub fn merge_room(&self, runs: usize, bytes: u64) -> u64 {
        if self.frees {
            bytes.min((runs as u64 + 1) * (FREE_EVERY + BUFFER as u64))
        } else {
            bytes
        }
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    fn new_path(&mut self) -> PathBuf {
        self.next += 1;
        self.dir.path().join(format!("run-{}.bin", self.next))
    }

    /// Writes `entries`, sorted, as a run.
    pub fn write_run<K: Key, C: Tally>(&mut self, entries: &[(K, C)]) -> io::Result<Run> {
        let path = self.new_path();
        let bytes = write_records(&path, entries)?;
        self.written += bytes;
        self.states += entries.len() as u64;
        Ok(Run {
            path,
            len: entries.len() as u64,
            bytes,
        })
    }

    /// A run of the `len` states of the file `from` (records as a run's),
    /// linked into the folder where the file system allows, else copied.
    pub fn adopt(&mut self, from: &Path, len: u64) -> io::Result<Run> {
        let path = self.new_path();
        if std::fs::hard_link(from, &path).is_err() {
            std::fs::copy(from, &path)?;
        }
        let bytes = std::fs::metadata(&path)?.len();
        self.states += len;
        Ok(Run { path, len, bytes })
    }

    /// Removes `run`.
    pub fn remove(&mut self, run: Run) {
        self.states = self.states.saturating_sub(run.len);
        let _ = std::fs::remove_file(&run.path);
    }

    /// Merges `runs` into one, equal states added, and removes them;
    /// `halt` is looked at every few thousand records.
    pub fn merge<K: Key, C: Tally>(
        &mut self,
        runs: Vec<Run>,
        halt: &impl Halt<Stop = Stop>,
    ) -> Result<Run, SpillError> {
        self.replace(runs, |path, runs| merge_into::<K, C>(path, runs, halt))
    }

    /// A new run, written by `write` (which says how many states it
    /// wrote), in place of `inputs`, which are removed once it is whole; a
    /// run that fails part-written is removed instead.
    fn replace(
        &mut self,
        inputs: Vec<Run>,
        write: impl FnOnce(&Path, &[Run]) -> Result<(u64, u64), SpillError>,
    ) -> Result<Run, SpillError> {
        let path = self.new_path();
        let (len, bytes) = match write(&path, &inputs) {
            Ok(written) => written,
            Err(e) => {
                let _ = std::fs::remove_file(&path);
                return Err(e);
            }
        };
        for r in inputs {
            self.remove(r);
        }
        self.written += bytes;
        self.states += len;
        Ok(Run { path, len, bytes })
    }
}

/// Writes `entries` as records to a new file at `path`: the bytes written.
pub fn write_records<K: Key, C: Tally>(path: &Path, entries: &[(K, C)]) -> io::Result<u64> {
    let mut w = Writer::<K, C>::create(path)?;
    for &(k, c) in entries {
        w.put(k, c)?;
    }
    w.finish()
}

/// A file of records being written (see the module's words on them).
struct Writer<K, C> {
    w: BufWriter<File>,
    /// The key before, little-endian.
    prev: [u8; MAX_KEY],
    bytes: u64,
    _kc: PhantomData<(K, C)>,
}

impl<K: Key, C: Tally> Writer<K, C> {
    fn create(path: &Path) -> io::Result<Writer<K, C>> {
        Ok(Writer {
            w: BufWriter::with_capacity(BUFFER, File::create(path)?),
            prev: [0; MAX_KEY],
            bytes: 0,
            _kc: PhantomData,
        })
    }

    /// Writes the record of key `k` and count `c`.
    fn put(&mut self, k: K, c: C) -> io::Result<()> {
        let mut key = [0u8; MAX_KEY];
        k.write_le(&mut key[..K::BYTES]);
        let mut rec = [0u8; MAX_RECORD];
        let mut n = 0;
        for i in 0..K::BYTES {
            let x = key[i] ^ self.prev[i];
            rec[1 + i] = x;
            if x != 0 {
                n = i + 1;
            }
        }
        rec[0] = n as u8;
        self.prev = key;
        let mut at = 1 + n;
        let mut v = c.wide();
        loop {
            let low = (v & 0x7F) as u8;
            v >>= 7;
            if v == 0 {
                rec[at] = low;
                at += 1;
                break;
            }
            rec[at] = low | 0x80;
            at += 1;
        }
        self.bytes += at as u64;
        self.w.write_all(&rec[..at])
    }

    /// Flushes the file: the bytes written.
    fn finish(mut self) -> io::Result<u64> {
        self.w.flush()?;
        Ok(self.bytes)
    }
}

/// [`Spill::merge`]'s writing of `path`: the states and bytes written.
fn merge_into<K: Key, C: Tally>(
    path: &Path,
    runs: &[Run],
    halt: &impl Halt<Stop = Stop>,
) -> Result<(u64, u64), SpillError> {
    let mut w = Writer::<K, C>::create(path)?;
    let mut readers = runs
        .iter()
        .map(Reader::<K, C>::freeing)
        .collect::<io::Result<Vec<_>>>()?;
    // Each reader's next record, in a heap by (classes, key).
    let mut heap = std::collections::BinaryHeap::new();
    for (i, r) in readers.iter_mut().enumerate() {
        if let Some((k, c)) = r.next_record()? {
            heap.push(std::cmp::Reverse(((k.classes(), k), i, Wrap(c))));
        }
    }
    let mut len = 0u64;
    let mut popped = 0u64;
    let mut current: Option<(K, C)> = None;
    while let Some(std::cmp::Reverse(((_, k), i, Wrap(c)))) = heap.pop() {
        popped += 1;
        if popped.is_multiple_of(LOOK_EVERY) {
            halt.check().map_err(SpillError::Stopped)?;
        }
        current = match current {
            Some((ck, cc)) if ck == k => Some((k, cc.add(c).ok_or(SpillError::Overflow)?)),
            Some((ck, cc)) => {
                w.put(ck, cc)?;
                len += 1;
                Some((k, c))
            }
            None => Some((k, c)),
        };
        if let Some((k, c)) = readers[i].next_record()? {
            heap.push(std::cmp::Reverse(((k.classes(), k), i, Wrap(c))));
        }
    }
    if let Some((ck, cc)) = current {
        w.put(ck, cc)?;
        len += 1;
    }
    Ok((len, w.finish()?))
}

impl Spill {
    /// The states of `run` that `keep` keeps, as a new run (in the same
    /// order); `run` is removed. `halt` is looked at every few thousand
    /// records.
    pub fn filter<K: Key, C: Tally>(
        &mut self,
        run: Run,
        keep: impl Fn(K) -> bool,
        halt: &impl Halt<Stop = Stop>,
    ) -> Result<Run, SpillError> {
        self.replace(vec![run], |path, runs| {
            filter_into::<K, C>(path, &runs[0], keep, halt)
        })
    }
}

/// [`Spill::filter`]'s writing of `path`: the states and bytes written.
fn filter_into<K: Key, C: Tally>(
    path: &Path,
    run: &Run,
    keep: impl Fn(K) -> bool,
    halt: &impl Halt<Stop = Stop>,
) -> Result<(u64, u64), SpillError> {
    let mut w = Writer::<K, C>::create(path)?;
    let mut r = Reader::<K, C>::freeing(run)?;
    let (mut len, mut read) = (0u64, 0u64);
    while let Some((k, c)) = r.next_record()? {
        read += 1;
        if read.is_multiple_of(LOOK_EVERY) {
            halt.check().map_err(SpillError::Stopped)?;
        }
        if keep(k) {
            w.put(k, c)?;
            len += 1;
        }
    }
    Ok((len, w.finish()?))
}

impl Run {
    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Bytes on disk.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
}

/// A count in the heap, which orders only by key and run.
#[derive(Clone, Copy, Debug)]
struct Wrap<C>(C);

impl<C> PartialEq for Wrap<C> {
    fn eq(&self, _: &Wrap<C>) -> bool {
        true
    }
}
impl<C> Eq for Wrap<C> {}
impl<C> PartialOrd for Wrap<C> {
    fn partial_cmp(&self, other: &Wrap<C>) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<C> Ord for Wrap<C> {
    fn cmp(&self, _: &Wrap<C>) -> std::cmp::Ordering {
        std::cmp::Ordering::Equal
    }
}

/// Reads a run's records in order.
pub struct Reader<K, C> {
    r: BufReader<File>,
    left: u64,
    /// The key before, little-endian.
    prev: [u8; MAX_KEY],
    /// Bytes read so far, and the bytes at the start of the file whose
    /// blocks are freed (`u64::MAX`: none are to be), and the bytes read
    /// between two frees.
    read: u64,
    freed: u64,
    every: u64,
    _kc: PhantomData<(K, C)>,
}

/// Whether the file system of `dir` frees a file's blocks in place: tried
/// on a file of its own.
fn frees_blocks(dir: &Path) -> bool {
    #[cfg(target_os = "linux")]
    {
        let path = dir.join("probe.bin");
        let freed = File::create(&path)
            .and_then(|mut f| {
                f.write_all(&[1u8; 8192])?;
                f.sync_all()?;
                free_start(&f, 4096)
            })
            .is_ok();
        let _ = std::fs::remove_file(&path);
        freed
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = dir;
        false
    }
}

/// Frees the blocks of the first `bytes` of `f` in place (its length
/// stays).
fn free_start(f: &File, bytes: u64) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{FallocateFlags, fallocate};
        let how = FallocateFlags::PUNCH_HOLE | FallocateFlags::KEEP_SIZE;
        fallocate(f, how, 0, bytes).map_err(io::Error::from)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (f, bytes);
        Err(io::ErrorKind::Unsupported.into())
    }
}

impl<K: Key, C: Tally> Reader<K, C> {
    /// Opens `run` at its first record.
    pub fn open(run: &Run) -> io::Result<Reader<K, C>> {
        Reader::at(&run.path, run.len)
    }

    /// Opens the file at `path`, of `len` records, at its first.
    pub fn at(path: &Path, len: u64) -> io::Result<Reader<K, C>> {
        Ok(Reader::of(File::open(path)?, len, u64::MAX))
    }

    /// A reader of `file`, of `len` records, that frees its blocks from
    /// `freed` on (`u64::MAX`: never).
    fn of(file: File, len: u64, freed: u64) -> Reader<K, C> {
        Reader {
            r: BufReader::with_capacity(BUFFER, file),
            left: len,
            prev: [0; MAX_KEY],
            read: 0,
            freed,
            every: u64::MAX,
            _kc: PhantomData,
        }
    }

    /// Opens `run` to be read once and for all: the blocks read are freed
    /// as it goes, where the file system allows (the file is useless
    /// after).
    fn freeing(run: &Run) -> io::Result<Reader<K, C>> {
        // Blocks are freed through a file open for writing.
        let file = File::options().read(true).write(true).open(&run.path)?;
        let mut r = Reader::of(file, run.len, 0);
        r.every = free_every(run.bytes);
        Ok(r)
    }

    /// The next byte.
    fn byte(&mut self) -> io::Result<u8> {
        let mut b = [0u8; 1];
        self.r.read_exact(&mut b)?;
        self.read += 1;
        Ok(b[0])
    }

    /// Frees what was read since the last free, once it is much (a file
    /// system that cannot is not asked again).
    fn free_read(&mut self) {
        if self.freed != u64::MAX && self.read - self.freed >= self.every {
            self.freed = match free_start(self.r.get_ref(), self.read) {
                Ok(()) => self.read,
                Err(_) => u64::MAX,
            };
        }
    }

    /// The next record, or None at the end.
    pub fn next_record(&mut self) -> io::Result<Option<(K, C)>> {
        if self.left == 0 {
            return Ok(None);
        }
        let damaged = || io::Error::new(io::ErrorKind::InvalidData, "a damaged record");
        let n = usize::from(self.byte()?);
        if n > K::BYTES {
            return Err(damaged());
        }
        let mut x = [0u8; MAX_KEY];
        self.r.read_exact(&mut x[..n])?;
        self.read += n as u64;
        for (p, x) in self.prev.iter_mut().zip(&x[..n]) {
            *p ^= x;
        }
        let (mut v, mut shift) = (0u128, 0);
        loop {
            let b = self.byte()?;
            if shift > 126 || (shift == 126 && b & 0x7C != 0) {
                return Err(damaged());
            }
            v |= u128::from(b & 0x7F) << shift;
            if b & 0x80 == 0 {
                break;
            }
            shift += 7;
        }
        if C::BYTES < 16 && v >> (8 * C::BYTES) != 0 {
            return Err(damaged());
        }
        self.left -= 1;
        self.free_read();
        Ok(Some((
            K::read_le(&self.prev[..K::BYTES]),
            C::read_le(&v.to_le_bytes()[..C::BYTES]),
        )))
    }

    /// Up to `most` records more into `out` (emptied first).
    pub fn fill(&mut self, out: &mut Vec<(K, C)>, most: usize) -> io::Result<()> {
        out.clear();
        while out.len() < most {
            match self.next_record()? {
                Some(e) => out.push(e),
                None => break,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records come back as written, for every key and count width, in
    /// any order, counts up to the widest; sorted keys take fewer bytes
    /// than they do in memory; a record cut short or damaged is an error.
    #[test]
    fn records_come_back_as_written_for_every_key_and_count() {
        use super::super::key::{Mates, Wide};
        use rand::{RngExt, SeedableRng};
        fn both<K: Key, C: Tally>(dir: &Path, rng: &mut rand_chacha::ChaCha8Rng) {
            let mut entries: Vec<(K, C)> = (0..5000)
                .map(|i| {
                    let mut kb = [0u8; MAX_KEY];
                    // Keys alike in their high bytes, as sorted states are.
                    for b in kb.iter_mut().take(K::BYTES.min(3)) {
                        *b = rng.random();
                    }
                    let wide: u128 = match i % 4 {
                        0 => 1,
                        1 => rng.random_range(1..1000),
                        2 => u128::MAX >> (128 - 8 * C::BYTES),
                        _ => rng.random::<u128>() >> (128 - 8 * C::BYTES),
                    };
                    let c = C::read_le(&wide.to_le_bytes()[..C::BYTES]);
                    (K::read_le(&kb[..K::BYTES]), c)
                })
                .collect();
            entries.push((K::ZERO, C::ONE));
            let path = dir.join("records.bin");
            let Ok(bytes) = write_records(&path, &entries) else {
                panic!("not written");
            };
            assert_eq!(std::fs::metadata(&path).map(|m| m.len()).ok(), Some(bytes));
            let Ok(mut r) = Reader::<K, C>::at(&path, entries.len() as u64) else {
                panic!("not opened");
            };
            let mut back = Vec::new();
            assert!(r.fill(&mut back, usize::MAX).is_ok());
            assert_eq!(back, entries);
            // Sorted, small keys and counts take a few bytes each.
            let sorted: Vec<(K, C)> = (0..5000u64)
                .map(|i| {
                    let mut kb = [0u8; MAX_KEY];
                    kb[..8].copy_from_slice(&(i * 7).to_le_bytes());
                    (K::read_le(&kb[..K::BYTES]), C::ONE)
                })
                .collect();
            let Ok(small) = write_records(&path, &sorted) else {
                panic!("not written");
            };
            assert!(small < 4 * 5000, "{small} bytes");
            // Cut short: an error, not a record made up.
            let Ok(all) = std::fs::read(&path) else {
                panic!("not read");
            };
            assert!(std::fs::write(&path, &all[..all.len() - 1]).is_ok());
            let Ok(mut r) = Reader::<K, C>::at(&path, sorted.len() as u64) else {
                panic!("not opened");
            };
            assert!(r.fill(&mut back, usize::MAX).is_err());
            // A key longer than a key: damaged.
            assert!(std::fs::write(&path, [K::BYTES as u8 + 1]).is_ok());
            let Ok(mut r) = Reader::<K, C>::at(&path, 1) else {
                panic!("not opened");
            };
            assert!(r.next_record().is_err());
        }
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        both::<Mates, u64>(dir.path(), &mut rng);
        both::<u64, u64>(dir.path(), &mut rng);
        both::<u64, u128>(dir.path(), &mut rng);
        both::<u128, u64>(dir.path(), &mut rng);
        both::<Wide, u64>(dir.path(), &mut rng);
        both::<Wide, u128>(dir.path(), &mut rng);
    }

    #[test]
    fn runs_merge_in_order_with_equal_states_added_and_leave_nothing_behind() {
        let parent = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let folder;
        {
            let Ok(mut spill) = Spill::new(parent.path()) else {
                panic!("no folder");
            };
            folder = spill.path().to_path_buf();
            let sorted = |mut v: Vec<(u64, u64)>| {
                v.sort_unstable_by_key(|e| (e.0.classes(), e.0));
                v
            };
            let a = sorted((0..1000u64).map(|k| (k * 3, 1)).collect());
            let b = sorted((0..1000u64).map(|k| (k * 5, 2)).collect());
            let (Ok(ra), Ok(rb)) = (spill.write_run(&a), spill.write_run(&b)) else {
                panic!("no runs");
            };
            let Ok(m) = spill.merge::<u64, u64>(vec![ra, rb], &crate::halt::Limits::none()) else {
                panic!("no merge");
            };
            let Ok(mut r) = Reader::<u64, u64>::open(&m) else {
                panic!("no reader");
            };
            let mut all = Vec::new();
            let _ = r.fill(&mut all, usize::MAX);
            // 1000 + 1000 − the 200 multiples of 15 below 3000 (and 5000).
            assert_eq!(all.len() as u64, m.len);
            assert_eq!(all.len(), 2000 - 200);
            assert!(
                all.windows(2)
                    .all(|w| (w[0].0.classes(), w[0].0) < (w[1].0.classes(), w[1].0))
            );
            assert_eq!(all.iter().map(|e| e.1).sum::<u64>(), 3000);
            assert_eq!(spill.states, m.len);
            let Ok(over) = spill.write_run(&[(1u64, u64::MAX)]) else {
                panic!("no run");
            };
            let Ok(more) = spill.write_run(&[(1u64, 1u64)]) else {
                panic!("no run");
            };
            assert!(matches!(
                spill.merge::<u64, u64>(vec![over, more], &crate::halt::Limits::none()),
                Err(SpillError::Overflow)
            ));
        }
        assert!(!folder.exists());
        assert!(free_bytes(parent.path()).is_some_and(|b| b > 0));
    }

    /// A halt that says "interrupted" at every look, counting them.
    struct Interrupted(std::sync::atomic::AtomicU32);

    impl Halt for Interrupted {
        type Stop = Stop;
        fn check(&self) -> Result<(), Stop> {
            self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Err(Stop::Interrupted)
        }
    }

    /// A limit that runs out while runs merge (or a run is filtered) stops
    /// it within a few thousand records, its part-written file removed and
    /// the runs it read left in place.
    #[test]
    fn a_merge_or_a_filter_stops_when_a_limit_runs_out() {
        let parent = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let Ok(mut spill) = Spill::new(parent.path()) else {
            panic!("no folder");
        };
        let states = 4 * LOOK_EVERY;
        let sorted = |step: u64| {
            let mut v: Vec<(u64, u64)> = (0..states).map(|k| (k * step, 1)).collect();
            v.sort_unstable_by_key(|e| (e.0.classes(), e.0));
            v
        };
        let (Ok(ra), Ok(rb)) = (spill.write_run(&sorted(2)), spill.write_run(&sorted(3))) else {
            panic!("no runs");
        };
        let dir = spill.path().to_path_buf();
        let files = || std::fs::read_dir(&dir).map_or(0, |d| d.count());
        let look = Interrupted(std::sync::atomic::AtomicU32::new(0));
        let looks = &look.0;
        let stopped = spill.merge::<u64, u64>(vec![ra, rb], &look);
        assert!(
            matches!(stopped, Err(SpillError::Stopped(Stop::Interrupted))),
            "{stopped:?}"
        );
        assert_eq!(
            looks.load(std::sync::atomic::Ordering::Relaxed),
            1,
            "stopped at its first look"
        );
        assert_eq!(files(), 2, "the two runs, and no part-written merge");
        let Ok(run) = spill.write_run(&sorted(5)) else {
            panic!("no run");
        };
        looks.store(0, std::sync::atomic::Ordering::Relaxed);
        let stopped = spill.filter::<u64, u64>(run, |_| true, &look);
        assert!(
            matches!(stopped, Err(SpillError::Stopped(_))),
            "{stopped:?}"
        );
        assert_eq!(looks.load(std::sync::atomic::Ordering::Relaxed), 1);
        assert_eq!(files(), 3, "no part-written filter");
    }

    /// Where the file system frees blocks in place (Linux's do), a merge
    /// gives back each run's blocks as it reads them: a run read seven
    /// eighths through holds a small part of its blocks, its records all
    /// read as written; and merged runs so read give the states merged in
    /// memory.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_merge_frees_its_runs_blocks_as_it_reads_them() {
        use std::os::unix::fs::MetadataExt;
        let parent = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let Ok(mut spill) = Spill::new(parent.path()) else {
            panic!("no folder");
        };
        assert!(spill.frees, "this file system frees blocks in place");
        let sorted = |step: u64, count: u64| {
            let mut v: Vec<(u64, u64)> = (0..200_000u64)
                .map(|k| (k * step * 0x9E37, count + k % 3))
                .collect();
            v.sort_unstable_by_key(|e| (e.0.classes(), e.0));
            v
        };
        let (a, b) = (sorted(2, 1), sorted(3, 5));
        let (Ok(ra), Ok(rb)) = (spill.write_run(&a), spill.write_run(&b)) else {
            panic!("no runs");
        };
        let held = |run: &Run| std::fs::metadata(run.path()).map_or(0, |m| m.blocks() * 512);
        let whole = held(&ra);
        assert!(
            whole >= ra.bytes() && ra.bytes() >= 16 * free_every(ra.bytes()),
            "{whole}"
        );
        let Ok(mut r) = Reader::<u64, u64>::freeing(&ra) else {
            panic!("no reader");
        };
        let mut back = Vec::new();
        assert!(r.fill(&mut back, a.len() / 8 * 7).is_ok());
        assert!(held(&ra) * 3 < whole, "{} of {whole} bytes held", held(&ra));
        let mut rest = Vec::new();
        assert!(r.fill(&mut rest, usize::MAX).is_ok());
        back.extend(rest);
        assert_eq!(back, a);
        // The merge of runs read so: the states merged in memory.
        let Ok(ra) = spill.write_run(&a) else {
            panic!("no run");
        };
        let Ok(m) = spill.merge::<u64, u64>(vec![ra, rb], &crate::halt::Limits::none()) else {
            panic!("no merge");
        };
        let mut want: std::collections::BTreeMap<(u64, u64), u64> = Default::default();
        for &(k, c) in a.iter().chain(&b) {
            *want.entry((k.classes(), k)).or_default() += c;
        }
        let Ok(mut r) = Reader::<u64, u64>::open(&m) else {
            panic!("no reader");
        };
        let mut all = Vec::new();
        assert!(r.fill(&mut all, usize::MAX).is_ok());
        let want: Vec<(u64, u64)> = want.into_iter().map(|((_, k), c)| (k, c)).collect();
        assert_eq!(all, want);
    }
}
