//! Checkpoints of a frontier count: after a square, the sweep's states and
//! figures are saved in a folder the user names (`--checkpoint DIR`), so
//! that a count stopped by a limit, by Ctrl-C or by a machine that died
//! goes on from its last checkpoint when the same command is run again.
//!
//! Each count — a puzzle, or one pair of ends or one part of a shard — has
//! an entry of its own, named by a fingerprint of its moves, goal, order
//! of squares and part: `NAME.json` (the sweep's figures) and `NAME.K.bin`
//! (its states after square K, written as a spill run is). The states are
//! written first and the figures put in place by a rename, so a checkpoint
//! is whole or the one before it stands; the states are checked against
//! their check figure when taken up. A finished count's entry stays, so
//! that running it again gives its result at once.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::key::{Key, Tally};
use super::spill::{self, Run};
use crate::count::check::Check;

/// Where and how often a frontier count saves itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// The folder of the entries (it must exist).
    pub dir: PathBuf,
    /// The least time between two saves (the last square is always saved).
    pub every: Duration,
}

/// The figures of a sweep after some squares: what a checkpoint holds
/// besides the states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Figures {
    /// Squares taken.
    pub done: usize,
    /// Tours found at the last square taken.
    pub found: u128,
    /// The check figure so far.
    pub check: Check,
    /// States after each square taken.
    pub states: Vec<u64>,
    /// The most bytes held so far.
    pub peak_bytes: u64,
    /// Bytes written to the spill folder so far.
    pub spilled: u64,
    /// The states taken into the squares so far (the work).
    pub held_in_all: u64,
    /// The square after which the states were cut, if they were.
    pub cut_at: Option<usize>,
}

/// The file format's name and version.
const FORMAT: &str = "engine frontier checkpoint 2";

/// What `NAME.json` holds.
#[derive(Serialize, Deserialize)]
struct Header {
    format: String,
    name: String,
    key: String,
    squares: usize,
    done: usize,
    records: u64,
    bytes: u64,
    states_file: String,
    states_check: u64,
    found: String,
    check: u64,
    states: Vec<u64>,
    peak_bytes: u64,
    spilled: u64,
    held_in_all: u64,
    cut_at: Option<usize>,
    /// A fingerprint of the fields above, so that a figure changed by hand
    /// or by the disk is not taken for the count's.
    seal: String,
}

impl Header {
    /// The fingerprint of every field but the seal.
    fn sealed(&self) -> io::Result<String> {
        use sha2::{Digest, Sha256};
        let mut bare = serde_json::to_value(self).map_err(io::Error::other)?;
        if let Some(o) = bare.as_object_mut() {
            o.remove("seal");
        }
        let digest = Sha256::digest(bare.to_string().as_bytes());
        Ok(digest[..8].iter().map(|b| format!("{b:02x}")).collect())
    }
}

/// A checkpoint found for a count: its figures and its states' file.
#[derive(Debug)]
pub struct Found {
    /// The sweep's figures.
    pub figures: Figures,
    /// The file of the states after the last square taken.
    pub states: PathBuf,
    /// How many states it holds.
    pub records: u64,
    /// Their check figure (the sum of their terms).
    pub states_check: Check,
}

/// The checkpoint entry of one count, and when it was last saved.
#[derive(Debug)]
pub struct Entry {
    dir: PathBuf,
    name: String,
    every: Duration,
    last: Instant,
    /// The squares done at the last save (or the one taken up).
    saved: Option<usize>,
}

/// The words a key type is known by in a checkpoint.
fn key_name<K: Key, C: Tally>() -> String {
    format!(
        "{} key bytes, {} bits a slot{}, {}-bit counts",
        K::BYTES,
        K::BITS,
        if K::MATES { ", mates" } else { "" },
        C::BITS
    )
}

/// A checkpoint that cannot be taken up, in words naming its file.
fn bad(path: &Path, why: impl std::fmt::Display) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("checkpoint {}: {why}", path.display()),
    )
}

impl Entry {
    /// The entry `name` of `c`'s folder.
    pub fn new(c: &Checkpoint, name: String) -> Entry {
        Entry {
            dir: c.dir.clone(),
            name,
            every: c.every,
            last: Instant::now(),
            saved: None,
        }
    }

    fn header_path(&self) -> PathBuf {
        self.dir.join(format!("{}.json", self.name))
    }

    fn read_header(&self) -> io::Result<Option<Header>> {
        let path = self.header_path();
        let text = match fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(bad(&path, e)),
        };
        let h: Header = serde_json::from_str(&text).map_err(|e| bad(&path, e))?;
        if h.format != FORMAT || h.name != self.name {
            return Err(bad(&path, "not a checkpoint of this count"));
        }
        // Every record takes two bytes at least (its key's length and its
        // count).
        let whole = h.sealed()? == h.seal
            && h.states.len() == h.done
            && h.cut_at.is_none_or(|c| c <= h.done)
            && h.states_file == self.states_file(h.done)
            && h.records.saturating_mul(2) <= h.bytes;
        if !whole {
            return Err(bad(&path, "its figures do not hold together"));
        }
        Ok(Some(h))
    }

    /// The bits of the counts the saved sweep kept, if there is one.
    pub fn count_bits(&self) -> io::Result<Option<u32>> {
        Ok(self.read_header()?.and_then(|h| {
            h.key
                .rsplit_once(", ")
                .and_then(|(_, bits)| bits.strip_suffix("-bit counts"))
                .and_then(|b| b.parse().ok())
        }))
    }

    /// The checkpoint of a sweep of `squares` squares with keys `K` and
    /// counts `C`, if one was saved; None when there is none, or when it
    /// kept counts of another width (a count redone in 128 bits starts
    /// afresh). Err when it is damaged.
    pub fn find<K: Key, C: Tally>(&mut self, squares: usize) -> io::Result<Option<Found>> {
        let Some(h) = self.read_header()? else {
            return Ok(None);
        };
        let path = self.header_path();
        if !h.key.ends_with(&format!(", {}-bit counts", C::BITS)) {
            return Ok(None);
        }
        if h.key != key_name::<K, C>() || h.squares != squares || h.done > squares {
            return Err(bad(&path, "its states are of another shape"));
        }
        let states = self.dir.join(&h.states_file);
        let want = h.bytes;
        match fs::metadata(&states) {
            Ok(m) if m.len() == want => {}
            Ok(m) => {
                return Err(bad(
                    &states,
                    format!("{} bytes where {want} were written", m.len()),
                ));
            }
            Err(e) => return Err(bad(&states, e)),
        }
        let found = h.found.parse().map_err(|e| bad(&path, e))?;
        self.saved = Some(h.done);
        Ok(Some(Found {
            figures: Figures {
                done: h.done,
                found,
                check: Check::new(h.check),
                states: h.states,
                peak_bytes: h.peak_bytes,
                spilled: h.spilled,
                held_in_all: h.held_in_all,
                cut_at: h.cut_at,
            },
            states,
            records: h.records,
            states_check: Check::new(h.states_check),
        }))
    }

    /// The name of the file of the states after square `done`.
    fn states_file(&self, done: usize) -> String {
        format!("{}.{done}.bin", self.name)
    }

    /// Removes the entry's files but `keep`: its figures unless kept, and
    /// its states files, whole or part-written.
    fn remove_files(&self, keep: Option<&str>) {
        let prefix = format!("{}.", self.name);
        let Ok(files) = fs::read_dir(&self.dir) else {
            return;
        };
        for e in files.flatten() {
            let n = e.file_name();
            let n = n.to_string_lossy();
            let states = n.ends_with(".bin") || n.ends_with(".bin.part");
            if n.starts_with(&prefix) && states && Some(n.as_ref()) != keep {
                let _ = fs::remove_file(e.path());
            }
        }
    }

    /// Forgets the entry: its files are removed and the next save is due
    /// at once (a count redone in 128 bits cannot use a save in 64).
    pub fn forget(&mut self) {
        let _ = fs::remove_file(self.header_path());
        self.remove_files(None);
        self.saved = None;
        self.last = Instant::now()
            .checked_sub(self.every)
            .unwrap_or_else(Instant::now);
    }

    /// Whether a save is due after square `done` of `squares`: the time
    /// since the last is up, or it is the last square.
    pub fn due(&self, done: usize, squares: usize) -> bool {
        self.saved != Some(done) && (done == squares || self.last.elapsed() >= self.every)
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Whether the states after square `done` are saved already.
    pub fn holds(&self, done: usize) -> bool {
        self.saved == Some(done)
    }

    /// Saves the sweep: its figures, and its states — `memory`, or the
    /// run `disk` (linked where the file system allows, else copied) —
    /// whose check figure is `states_check`. The entry's older states are
    /// removed once the new figures are in place.
    pub fn save<K: Key, C: Tally>(
        &mut self,
        squares: usize,
        f: &Figures,
        memory: &[(K, C)],
        disk: Option<&Run>,
        states_check: Check,
    ) -> io::Result<()> {
        let file = self.states_file(f.done);
        let path = self.dir.join(&file);
        let part = self.dir.join(format!("{file}.part"));
        let _ = fs::remove_file(&part);
        let (records, bytes) = match disk {
            Some(run) => {
                if fs::hard_link(run.path(), &part).is_err() {
                    fs::copy(run.path(), &part)?;
                }
                (run.len, run.bytes())
            }
            None => (memory.len() as u64, spill::write_records(&part, memory)?),
        };
        fs::OpenOptions::new().write(true).open(&part)?.sync_all()?;
        fs::rename(&part, &path)?;
        let mut header = Header {
            format: FORMAT.to_string(),
            name: self.name.clone(),
            key: key_name::<K, C>(),
            squares,
            done: f.done,
            records,
            bytes,
            states_file: file.clone(),
            states_check: states_check.value(),
            found: f.found.to_string(),
            check: f.check.value(),
            states: f.states.clone(),
            peak_bytes: f.peak_bytes,
            spilled: f.spilled,
            held_in_all: f.held_in_all,
            cut_at: f.cut_at,
            seal: String::new(),
        };
        header.seal = header.sealed()?;
        let text = serde_json::to_string(&header).map_err(io::Error::other)?;
        let head = self.header_path();
        let head_part = self.dir.join(format!("{}.json.part", self.name));
        fs::write(&head_part, text)?;
        fs::OpenOptions::new()
            .write(true)
            .open(&head_part)?
            .sync_all()?;
        fs::rename(&head_part, &head)?;
        // The states of earlier saves (and of saves cut short) go.
        self.remove_files(Some(&file));
        self.saved = Some(f.done);
        self.last = Instant::now();
        Ok(())
    }
}
