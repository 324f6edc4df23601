//! Output files written whole or not at all.
//!
//! The contract of [`PendingFile`]:
//!
//! - [`PendingFile::create`] checks, before any work is done, that a file
//!   can be created beside the target (in the same directory); it leaves
//!   nothing on disk.
//! - [`PendingFile::write`] writes the content to a temporary file in that
//!   directory (named `.<target name>.<random>.<mark>.part`, the mark a hash
//!   of the rest), and only when the
//!   content is complete and flushed renames it onto the target. The rename
//!   replaces the target at once: anyone reading it sees the old file or the
//!   new one, never a part.
//! - When the writing fails (the closure returns an error, or writing,
//!   flushing or renaming fails) or panics, the temporary file is removed
//!   and the target is left as it was: never created, or unchanged.
//! - [`PendingFile::stage`] writes a temporary the same way but leaves the
//!   rename for later: [`commit_all`] renames several staged files onto
//!   their targets as one output — all of them, or (when a rename fails)
//!   none, the targets renamed already put back as they were. Until the
//!   renames, every target is untouched; a staged file dropped is removed.
//!   The renames are one system call each, back to back: a process killed
//!   outright between two of them leaves some targets new and some old.
//! - [`discard_pending`] removes every temporary file still being written,
//!   for a process about to exit without unwinding (a second Ctrl-C).
//! - Once [`hold_outputs_on`]'s flag is set (the first Ctrl-C), no write
//!   puts its file in place: a picture finished after a Ctrl-C never
//!   replaces the user's file.
//! - The target is a regular file or does not exist yet: a directory, a
//!   device, a FIFO or a socket is refused by [`PendingFile::create`]. A
//!   symbolic link is followed: the file it points to is replaced and the
//!   link stays; a link to nothing is refused.
//! - An existing target is replaced only when it is of the output's own
//!   [`Kind`], judged by its first bytes (a GIF by `GIF89a`, an SVG by
//!   `<svg`…), or empty: [`refuse_other_kind`] says what another file
//!   seems to be ([`seems`]), so that a picture is never written over a
//!   puzzle file or a database by a slip of the keyboard, unless the caller
//!   forces it.
//! - A temporary file is locked while it is written. A process killed
//!   outright (SIGKILL, a power cut) cannot remove its own, so the next
//!   write to the same target removes the temporaries of that target that
//!   no process holds and that have not changed for a minute. Only names
//!   whose mark is right are the engine's: a user's file named like a
//!   temporary is never removed.
//!
//! Errors are the caller's own type, anything an [`io::Error`] converts
//! into.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Temporary files being written, removed by [`discard_pending`].
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Called before the first temporary file is made: see
/// [`on_first_temporary`].
static ARM: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();

/// Has `arm` called before every temporary file is made (it must do its
/// work once, and cheaply after): the command line moves its Ctrl-C
/// handler to a thread that can remove temporaries ([`discard_pending`])
/// only when there are some to remove. Set once per process; later calls
/// do nothing.
pub fn on_first_temporary(arm: fn()) {
    let _ = ARM.set(arm);
}

/// Runs the hook of [`on_first_temporary`], if any.
fn arming() {
    if let Some(arm) = ARM.get() {
        arm();
    }
}

/// Set when no more outputs may be put in place (a Ctrl-C): see
/// [`hold_outputs_on`].
static HOLD: std::sync::OnceLock<&'static AtomicBool> = std::sync::OnceLock::new();

/// From now on, an output finished after `flag` became true is not put in
/// place: its temporary is removed and the write fails with
/// [`io::ErrorKind::Interrupted`], so that a Ctrl-C while a picture is
/// drawn or written leaves the user's file as it was. Set once per process
/// (by the command line's Ctrl-C handler); later calls do nothing.
pub fn hold_outputs_on(flag: &'static AtomicBool) {
    let _ = HOLD.set(flag);
}

/// Whether outputs are held ([`hold_outputs_on`]): a writer of several
/// files asks before it puts any of them in place.
pub fn held() -> bool {
    HOLD.get().is_some_and(|f| f.load(Ordering::SeqCst))
}

/// The error of a write refused because outputs are held.
fn held_error() -> io::Error {
    io::Error::new(
        io::ErrorKind::Interrupted,
        "interrupted: the file was not replaced",
    )
}

fn pending() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes every output file still being written (for a process about to
/// exit without unwinding, like on a second Ctrl-C).
pub fn discard_pending() {
    for p in pending().drain(..) {
        let _ = std::fs::remove_file(p);
    }
}

/// Random characters in a temporary file's name.
const TEMP_RANDOM: usize = 6;

/// Bytes of the hash that marks a temporary file as the engine's (written
/// as twice as many hex digits).
const MARK_BYTES: usize = 4;

/// How long a temporary file no process holds must have been unchanged
/// before a later write removes it (a writer locks its file right after
/// creating it; this covers the moment in between).
pub const STALE_AFTER: Duration = Duration::from_secs(60);

/// The file a write to `path` replaces: `path` itself, or for a symbolic
/// link the file it points to. Refused: a link to nothing, and anything
/// that exists but is not a regular file.
fn target_of(path: &Path) -> io::Result<PathBuf> {
    let refuse = |what: &str| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("it is {what}, not a regular file"),
        )
    };
    let link = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(path.to_path_buf()),
        Err(e) => return Err(e),
    };
    let (target, meta) = if link.file_type().is_symlink() {
        let meta = std::fs::metadata(path).map_err(|_| {
            io::Error::new(
                io::ErrorKind::NotFound,
                "it is a symbolic link to a file that does not exist",
            )
        })?;
        (std::fs::canonicalize(path)?, meta)
    } else {
        (path.to_path_buf(), link)
    };
    if meta.is_file() {
        Ok(target)
    } else {
        Err(refuse(kind_of(&meta)))
    }
}

/// What a file that is not a regular file is, for messages.
pub fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_file() {
        "a regular file"
    } else {
        "a special file"
    }
}

/// Whether the paths `a` and `b` name the same file: the same file on disk
/// when both exist (through links too), else the same place.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (identity(a), identity(b)) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

/// The kind of file an output is, to tell an existing file of its own kind
/// (replaced) from one of another (refused unless forced): its name for
/// messages and a test of the file's first bytes ([`HEAD`] of them, or
/// fewer in a shorter file).
#[derive(Clone, Copy, Debug)]
pub struct Kind {
    /// What the output is, with its article: "a GIF".
    pub name: &'static str,
    /// Whether a file that begins with these bytes is of this kind.
    pub is: fn(&[u8]) -> bool,
}

/// How many of a file's first bytes [`Kind::is`] and [`seems`] look at.
pub const HEAD: usize = 4096;

impl Kind {
    /// A GIF image.
    pub const GIF: Kind = Kind {
        name: "a GIF",
        is: |b| b.starts_with(b"GIF87a") || b.starts_with(b"GIF89a"),
    };
    /// A PNG image.
    pub const PNG: Kind = Kind {
        name: "a PNG",
        is: |b| b.starts_with(b"\x89PNG\r\n\x1a\n"),
    };
    /// An SVG picture (or another XML document).
    pub const SVG: Kind = Kind {
        name: "an SVG picture",
        is: |b| starts_text(b, "<svg") || starts_text(b, "<?xml"),
    };
    /// An HTML page.
    pub const HTML: Kind = Kind {
        name: "an HTML page",
        is: |b| starts_text(b, "<!doctype html") || starts_text(b, "<html"),
    };
    /// A PDF document.
    pub const PDF: Kind = Kind {
        name: "a PDF document",
        is: |b| b.starts_with(b"%PDF-"),
    };
}

/// Whether `b`, after a byte-order mark and white space, begins with
/// `text` (ASCII letters in either case).
pub fn starts_text(b: &[u8], text: &str) -> bool {
    let b = b.strip_prefix(b"\xef\xbb\xbf").unwrap_or(b);
    let start = b
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(b.len());
    b[start..]
        .get(..text.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(text.as_bytes()))
}

/// The first [`HEAD`] bytes of the regular file at `path`; None when there
/// is no such file, it is of another type (a FIFO, a device: left for
/// [`PendingFile::create`] to refuse) or it cannot be read. The open does
/// not wait, as an ordinary open of a FIFO would until a writer comes.
pub fn head(path: &Path) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut open = std::fs::OpenOptions::new();
    open.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        open.custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32);
    }
    let file = open.open(path).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::with_capacity(HEAD);
    file.take(HEAD as u64).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// What a file beginning with `b` seems to be, for a message: "a GIF
/// image", "an SQLite database", "a puzzle file", "a text file"…
pub fn seems(b: &[u8]) -> &'static str {
    let kinds = [
        (Kind::GIF.is as fn(&[u8]) -> bool, "a GIF image"),
        (Kind::PNG.is, "a PNG image"),
        (Kind::PDF.is, "a PDF document"),
        (
            |b: &[u8]| b.starts_with(b"SQLite format 3\0"),
            "an SQLite database",
        ),
        (Kind::HTML.is, "an HTML page"),
        (|b: &[u8]| starts_text(b, "<svg"), "an SVG picture"),
        (|b: &[u8]| starts_text(b, "<?xml"), "an XML document"),
        (|b: &[u8]| starts_text(b, "{\"trace\":"), "a search trace"),
        (
            |b: &[u8]| starts_text(b, "{") || starts_text(b, "["),
            "a JSON file",
        ),
        (|b: &[u8]| b.starts_with(b"PK\x03\x04"), "a ZIP archive"),
        (|b: &[u8]| b.starts_with(b"\x7fELF"), "a program"),
    ];
    if let Some((_, name)) = kinds.iter().find(|(is, _)| is(b)) {
        return name;
    }
    // Text: a puzzle file when `Puzzle(` comes before any other word.
    match std::str::from_utf8(b) {
        Ok(text) => {
            let words = text
                .lines()
                .map(str::trim_start)
                .filter(|l| !l.is_empty() && !l.starts_with("//"));
            match words.clone().next() {
                Some(l)
                    if l.starts_with("Puzzle(")
                        || l.starts_with("Puzzle (")
                        || (l.starts_with('(') && text.contains("board")) =>
                {
                    "a puzzle file"
                }
                _ => "a text file",
            }
        }
        // A cut in the middle of a character at the end is still text.
        Err(e) if e.valid_up_to() + 4 > b.len() && e.error_len().is_none() => "a text file",
        Err(_) => "a file of another kind",
    }
}

/// Refuses to replace the file at `path` when it exists, is not empty and
/// is not of `kind`: the error names what it seems to be. A file that
/// cannot be read is left to [`PendingFile::create`] to judge.
pub fn refuse_other_kind(path: &Path, kind: &Kind) -> Result<(), &'static str> {
    match head(path) {
        Some(b) if !b.is_empty() && !(kind.is)(&b) => Err(seems(&b)),
        _ => Ok(()),
    }
}

#[derive(PartialEq, Eq)]
enum Identity {
    #[cfg(unix)]
    Inode(u64, u64),
    Place(PathBuf),
}

fn identity(p: &Path) -> Option<Identity> {
    #[cfg(unix)]
    if let Ok(m) = std::fs::metadata(p) {
        use std::os::unix::fs::MetadataExt;
        return Some(Identity::Inode(m.dev(), m.ino()));
    }
    if let Ok(c) = std::fs::canonicalize(p) {
        return Some(Identity::Place(c));
    }
    // Not there yet: its folder, resolved, and its name.
    let dir = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Some(Identity::Place(
        std::fs::canonicalize(dir).ok()?.join(p.file_name()?),
    ))
}

/// An output file written whole or not at all: [`PendingFile::write`]
/// writes a temporary file in the same directory and renames it onto the
/// output only when complete; on any error (or a panic) the temporary file
/// is removed, and [`discard_pending`] removes it before a hard exit.
#[derive(Debug)]
pub struct PendingFile {
    path: PathBuf,
    dir: PathBuf,
    prefix: String,
}

impl PendingFile {
    /// Checks that `path` can be written (by creating and removing a
    /// temporary file beside it), so a missing or read-only directory is
    /// found before any work is done. Nothing is left on disk. A `path`
    /// that is not a regular file is refused; a symbolic link stands for
    /// the file it points to.
    pub fn create(path: &Path) -> io::Result<PendingFile> {
        // `new.gif/` names a directory: the rename at the end would fail,
        // after all the work.
        if path
            .as_os_str()
            .to_string_lossy()
            .ends_with(std::path::is_separator)
        {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "the path ends in `/`, so it names a directory, not a file",
            ));
        }
        let target = target_of(path)?;
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let file = PendingFile {
            path: target,
            dir,
            prefix: format!(".{name}."),
        };
        if !file.dir.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("there is no directory {}", file.dir.display()),
            ));
        }
        // The temporary file's own name means nothing to the user.
        let probe = file.temp().map_err(|e| {
            io::Error::new(
                e.kind(),
                format!(
                    "cannot create a file in {}: {}",
                    file.dir.display(),
                    e.kind()
                ),
            )
        })?;
        drop(probe);
        Ok(file)
    }

    /// Removes this target's temporaries left by processes that died
    /// writing them: unlocked (so no process is writing them) and unchanged
    /// for [`STALE_AFTER`]. Anything it cannot be sure of is left alone.
    fn sweep(&self) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            let is_ours = name
                .strip_prefix(&self.prefix)
                .and_then(|rest| rest.strip_suffix(".part"))
                .and_then(|mid| mid.split_once('.'))
                .is_some_and(|(random, mark)| {
                    random.len() == TEMP_RANDOM
                        && random.bytes().all(|b| b.is_ascii_alphanumeric())
                        && mark == self.mark(random)
                });
            if !is_ours {
                continue;
            }
            let path = entry.path();
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            let old = meta
                .modified()
                .ok()
                .and_then(|m| m.elapsed().ok())
                .is_some_and(|age| age >= STALE_AFTER);
            if !meta.is_file() || !old {
                continue;
            }
            let Ok(f) = File::open(&path) else { continue };
            // A writer holds its lock until the file is renamed or removed.
            if f.try_lock().is_ok() {
                let _ = std::fs::remove_file(&path);
            }
        }
    }

    /// The mark of this target's temporary with `random` in its name: a
    /// hash of both, so a file someone else named like a temporary
    /// (`.out.gif.abc123.part`) is never taken for one.
    fn mark(&self, random: &str) -> String {
        use sha2::{Digest, Sha256};
        let digest = Sha256::new()
            .chain_update(b"engine temporary\0")
            .chain_update(self.prefix.as_bytes())
            .chain_update(random.as_bytes())
            .finalize();
        digest[..MARK_BYTES]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// A name for a temporary beside the target,
    /// `.<name>.<random>.<mark>.part`, varied by `tries`.
    fn temp_name(&self, tries: u32) -> PathBuf {
        use std::hash::{BuildHasher, Hasher};
        const CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        // Random enough for a name: std's hasher keys are random per
        // process, and the time and a counter vary within one.
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        h.write_u32(tries);
        let mut bits = h.finish();
        let random: String = (0..TEMP_RANDOM)
            .map(|_| {
                let c = CHARS[(bits % CHARS.len() as u64) as usize] as char;
                bits /= CHARS.len() as u64;
                c
            })
            .collect();
        self.dir.join(format!(
            "{}{random}.{}.part",
            self.prefix,
            self.mark(&random)
        ))
    }

    /// A new temporary beside the target ([`PendingFile::temp_name`]).
    fn temp(&self) -> io::Result<tempfile::NamedTempFile> {
        arming();
        let mut tries = 0;
        loop {
            let path = self.temp_name(tries);
            let mut open = std::fs::OpenOptions::new();
            open.write(true).read(true).create_new(true);
            #[cfg(unix)]
            {
                use std::os::unix::fs::OpenOptionsExt;
                // The final file gets the usual permissions (umask applies).
                open.mode(0o666);
            }
            match open.open(&path) {
                Ok(file) => {
                    return match tempfile::TempPath::try_from_path(&path) {
                        Ok(temp) => Ok(tempfile::NamedTempFile::from_parts(file, temp)),
                        Err(e) => {
                            let _ = std::fs::remove_file(&path);
                            Err(e)
                        }
                    };
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && tries < 100 => tries += 1,
                Err(e) => return Err(e),
            }
        }
    }

    /// The output path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes the content with `f` to a temporary file, then renames it
    /// onto the output path. On an error from `f`, or from creating,
    /// flushing or renaming the file (converted with `E::from`), the
    /// temporary file is removed and the output path is left as it was.
    pub fn write<T, E: From<io::Error>>(
        self,
        f: impl FnOnce(&mut BufWriter<&File>) -> Result<T, E>,
    ) -> Result<T, E> {
        let (v, staged) = self.stage(f)?;
        staged.commit()?;
        Ok(v)
    }

    /// Writes the content with `f` to a temporary file, complete and
    /// flushed, and leaves it there: the target is untouched until the
    /// [`Staged`] file is committed ([`Staged::commit`], or with others by
    /// [`commit_all`]), and dropping it removes the temporary. On an error
    /// from `f` or from the writing, the temporary is removed at once.
    pub fn stage<T, E: From<io::Error>>(
        self,
        f: impl FnOnce(&mut BufWriter<&File>) -> Result<T, E>,
    ) -> Result<(T, Staged), E> {
        let staged = self.reserve()?;
        let Some(tmp) = &staged.tmp else {
            return Err(E::from(io::Error::other("the temporary file is gone")));
        };
        let mut w = BufWriter::with_capacity(1 << 16, tmp.as_file());
        let v = f(&mut w)?;
        w.flush()?;
        drop(w);
        Ok((v, staged))
    }

    /// An empty temporary file beside the target, locked and ready for a
    /// writer that needs a file by name (SQLite): the target is untouched
    /// until it is committed, and dropping it removes the temporary.
    pub fn reserve(self) -> io::Result<Staged> {
        self.sweep();
        let tmp = self.temp()?;
        // Held until the file is renamed or removed: a sweep by another
        // process leaves it alone.
        tmp.as_file().lock()?;
        let path = tmp.path().to_path_buf();
        pending().push(path.clone());
        Ok(Staged {
            tmp: Some(tmp),
            path,
            origin: self,
            sidecars: Vec::new(),
        })
    }
}

/// A complete temporary file beside its target, waiting to be renamed onto
/// it ([`Staged::commit`], [`Staged::commit_new`], or with others by
/// [`commit_all`]). Dropped uncommitted, it is removed, and with it any
/// files named after it ([`Staged::with_sidecars`]); until then
/// [`discard_pending`] removes it before a hard exit.
#[derive(Debug)]
pub struct Staged {
    /// The temporary; None once it is renamed onto the target.
    tmp: Option<tempfile::NamedTempFile>,
    /// The temporary's path.
    path: PathBuf,
    /// The target, its folder and its temporaries' prefix.
    origin: PendingFile,
    /// Files named after the temporary that go with it.
    sidecars: Vec<PathBuf>,
}

impl Staged {
    /// The temporary file's path (to hand to a writer that needs a name).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The target it will be renamed onto.
    pub fn target(&self) -> &Path {
        &self.origin.path
    }

    /// Also removes, with the temporary, the files named after it with each
    /// of `suffixes` (SQLite's `-wal`, `-shm` and `-journal` beside a
    /// database), at once on a hard exit too.
    pub fn with_sidecars(mut self, suffixes: &[&str]) -> Staged {
        let mut list = pending();
        for s in suffixes {
            let mut name = self.path.clone().into_os_string();
            name.push(s);
            let p = PathBuf::from(name);
            list.push(p.clone());
            self.sidecars.push(p);
        }
        self
    }

    /// Puts the temporary's content on disk (fsync).
    fn sync(&self) -> io::Result<()> {
        match &self.tmp {
            Some(tmp) => tmp.as_file().sync_all(),
            None => Err(io::Error::other("the temporary file is gone")),
        }
    }

    /// Renames the temporary onto the target, replacing it at once; once
    /// the outputs are held ([`hold_outputs_on`]), removes it instead and
    /// fails with [`io::ErrorKind::Interrupted`].
    pub fn commit(mut self) -> io::Result<()> {
        if held() {
            return Err(held_error());
        }
        let mut list = pending();
        self.rename(true, &mut list)
    }

    /// Renames the temporary onto the target only if there is no file
    /// there: true when it was; false when a file is there (perhaps made
    /// meanwhile by another process), which stays, and the temporary is
    /// removed.
    pub fn commit_new(mut self) -> io::Result<bool> {
        let mut list = pending();
        match self.rename(false, &mut list) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Renames the temporary onto the target (over a file there when
    /// `replace`) and takes it and its sidecars off the pending `list`; on
    /// an error the temporary stays, for `Drop` to remove.
    fn rename(&mut self, replace: bool, list: &mut Vec<PathBuf>) -> io::Result<()> {
        let Some(tmp) = self.tmp.take() else {
            return Err(io::Error::other("the temporary file is gone"));
        };
        let target = &self.origin.path;
        let done = if replace {
            tmp.persist(target).map(drop)
        } else {
            tmp.persist_noclobber(target).map(drop)
        };
        match done {
            Ok(()) => {
                for p in &self.sidecars {
                    let _ = std::fs::remove_file(p);
                }
                list.retain(|p| *p != self.path && !self.sidecars.contains(p));
                Ok(())
            }
            Err(e) => {
                self.tmp = Some(e.file);
                Err(e.error)
            }
        }
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        // Committed: nothing is left to remove.
        let Some(tmp) = self.tmp.take() else { return };
        // Dropping the temporary removes it.
        drop(tmp);
        for p in &self.sidecars {
            let _ = std::fs::remove_file(p);
        }
        pending().retain(|p| *p != self.path && !self.sidecars.contains(p));
    }
}

/// Renames each staged file onto its target, as one output: either all are
/// renamed, or (when a rename fails) those renamed already are put back as
/// they were and the error is returned, every target as before. Each file
/// is synced to disk and each old file kept before the first rename, so the
/// renames follow one another with nothing between them, and a hard exit (a
/// second Ctrl-C) waits for the last. POSIX renames one file at a time: a
/// process killed outright between two of the renames leaves the targets
/// renamed already new and the rest old.
///
/// Once the outputs are held ([`hold_outputs_on`]), none is renamed: the
/// staged files are removed and the error is [`io::ErrorKind::Interrupted`].
///
/// The old files are kept (as second names beside them) until the
/// [`Committed`] is dropped, so that a step after the renames (printing the
/// report) can still undo them ([`Committed::undo`]).
pub fn commit_all(files: Vec<Staged>) -> io::Result<Committed> {
    // Every file on disk before any is renamed: a file system that reports
    // a failed write only then (NFS, a quota) fails here, every target as
    // it was; and the renames that follow are the only work left.
    for file in &files {
        file.sync()?;
    }
    // After a Ctrl-C none is put in place.
    if held() {
        return Err(held_error());
    }
    // Held throughout, so that a hard exit finds every target old or new.
    let mut list = pending();
    // First every old file is kept, then the renames follow one another:
    // the moment in which the targets are part old, part new is short.
    let mut olds = Vec::with_capacity(files.len());
    for file in &files {
        match Old::keep(&file.origin) {
            Ok(old) => {
                if let Old::Kept { name, .. } = &old {
                    list.push(name.clone());
                }
                olds.push(old);
            }
            Err(e) => {
                for old in olds {
                    old.forget(&mut list);
                }
                // Before the staged files drop, which takes the list.
                drop(list);
                return Err(e);
            }
        }
    }
    let mut done = Committed {
        undo: Vec::with_capacity(files.len()),
    };
    let mut olds = olds.into_iter();
    for (mut file, old) in files.into_iter().zip(olds.by_ref()) {
        match file.rename(true, &mut list) {
            Ok(()) => done.undo.push((file.origin.path.clone(), old)),
            Err(e) => {
                // Its own target is untouched, and those after it: only
                // their old files' second names go.
                old.forget(&mut list);
                for old in olds {
                    old.forget(&mut list);
                }
                done.restore(&mut list).ok();
                drop(list);
                drop(file);
                return Err(e);
            }
        }
    }
    Ok(done)
}

/// What a target held before [`commit_all`] renamed a file onto it.
#[derive(Debug)]
enum Old {
    /// Nothing: the target was new.
    Absent,
    /// A file, kept under a second name (and locked, so a sweep leaves it).
    Kept {
        /// The second name.
        name: PathBuf,
        /// Its lock, held while it is kept.
        _lock: Option<File>,
    },
    /// A file that could not be kept (the file system has no hard links).
    Lost,
}

impl Old {
    /// Keeps the file at the target of `origin`, if there is one, under a
    /// temporary's name beside it (a hard link), so that it survives the
    /// rename onto the target.
    fn keep(origin: &PendingFile) -> io::Result<Old> {
        if std::fs::symlink_metadata(&origin.path).is_err() {
            return Ok(Old::Absent);
        }
        for tries in 0..100 {
            let name = origin.temp_name(tries);
            match std::fs::hard_link(&origin.path, &name) {
                Ok(()) => {
                    let lock = File::open(&name).ok().filter(|f| f.try_lock().is_ok());
                    return Ok(Old::Kept { name, _lock: lock });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    // Gone meanwhile: nothing to keep.
                    return Ok(Old::Absent);
                }
                Err(_) => return Ok(Old::Lost),
            }
        }
        Ok(Old::Lost)
    }

    /// Removes the second name (the new file stays).
    fn forget(self, list: &mut Vec<PathBuf>) {
        if let Old::Kept { name: kept, .. } = self {
            let _ = std::fs::remove_file(&kept);
            list.retain(|p| *p != kept);
        }
    }
}

/// Files [`commit_all`] renamed into place. Dropped, the old files they
/// replaced are removed; [`Committed::undo`] puts them back instead.
#[derive(Debug)]
#[must_use = "dropping it at once keeps the new files; `undo` puts the old ones back"]
pub struct Committed {
    /// Each target and what it held before.
    undo: Vec<(PathBuf, Old)>,
}

impl Committed {
    /// Puts every target back as it was before [`commit_all`]: the old file,
    /// or none where there was none. An error is the first that failed
    /// (the rest are still put back); a file system without hard links
    /// cannot keep old files, and its new ones stay.
    pub fn undo(mut self) -> io::Result<()> {
        let mut list = pending();
        self.restore(&mut list)
    }

    fn restore(&mut self, list: &mut Vec<PathBuf>) -> io::Result<()> {
        let mut first = Ok(());
        for (target, old) in self.undo.drain(..).rev() {
            let r = match &old {
                Old::Kept { name: kept, .. } => {
                    list.retain(|p| p != kept);
                    std::fs::rename(kept, &target)
                }
                Old::Absent => std::fs::remove_file(&target),
                Old::Lost => Err(io::Error::other(
                    "the file system keeps no second name for the old file",
                )),
            };
            if let Err(e) = r
                && first.is_ok()
            {
                first = Err(e);
            }
        }
        first
    }
}

impl Drop for Committed {
    fn drop(&mut self) {
        if self.undo.is_empty() {
            return;
        }
        let mut list = pending();
        for (_, old) in self.undo.drain(..) {
            old.forget(&mut list);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names in `dir`, sorted.
    fn listing(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .expect("dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn written_whole_or_not_at_all() {
        let dir = tempfile::tempdir().expect("temp dir");
        let out = dir.path().join("out.txt");
        // An error from the closure leaves neither the output nor a
        // temporary file.
        let f = PendingFile::create(&out).expect("writable");
        let r: io::Result<()> = f.write(|w| {
            w.write_all(b"partial")?;
            assert_eq!(listing(dir.path()).len(), 1, "the temporary file");
            Err(io::Error::other("failed"))
        });
        assert_eq!(r.expect_err("failed").to_string(), "failed");
        assert!(listing(dir.path()).is_empty());
        // Success puts the whole content in place, and nothing else.
        let f = PendingFile::create(&out).expect("writable");
        let n = f
            .write(|w| -> io::Result<usize> {
                w.write_all(b"old")?;
                Ok(3)
            })
            .expect("written");
        assert_eq!(n, 3);
        assert_eq!(listing(dir.path()), ["out.txt"]);
        assert_eq!(std::fs::read(&out).expect("read"), b"old");
        // Replacing it: while the new content is written the old file is
        // untouched, and the rename swaps the whole file in at once.
        let f = PendingFile::create(&out).expect("writable");
        f.write(|w| -> io::Result<()> {
            w.write_all(&[b'x'; 1 << 17])?;
            w.flush()?;
            assert_eq!(std::fs::read(&out).expect("read"), b"old");
            assert_eq!(listing(dir.path()).len(), 2, "output and temporary");
            Ok(())
        })
        .expect("written");
        assert_eq!(listing(dir.path()), ["out.txt"]);
        assert_eq!(std::fs::read(&out).expect("read"), vec![b'x'; 1 << 17]);
        // A failed replacement leaves the old file as it was.
        let f = PendingFile::create(&out).expect("writable");
        let r: io::Result<()> = f.write(|w| {
            w.write_all(b"new")?;
            Err(io::Error::other("failed"))
        });
        assert!(r.is_err());
        assert_eq!(listing(dir.path()), ["out.txt"]);
        assert_eq!(std::fs::read(&out).expect("read"), vec![b'x'; 1 << 17]);
    }

    /// Stages `text` for `path`.
    fn staged(path: &Path, text: &str) -> Staged {
        let f = PendingFile::create(path).expect("writable");
        f.stage(|w| w.write_all(text.as_bytes())).expect("staged").1
    }

    #[test]
    fn a_group_is_renamed_whole_or_not_at_all() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (a, b, c) = (
            dir.path().join("a"),
            dir.path().join("b"),
            dir.path().join("c"),
        );
        std::fs::write(&a, "old a").expect("write");
        std::fs::write(&c, "old c").expect("write");
        let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_else(|_| "-".into());
        // Staged files touch no target; dropped, they leave nothing.
        let group = vec![staged(&a, "new a"), staged(&b, "new b")];
        assert_eq!(listing(dir.path()).len(), 4);
        assert_eq!(read(&a), "old a");
        drop(group);
        assert_eq!(listing(dir.path()), ["a", "c"]);
        // A rename that fails (its target became a directory) puts back
        // those done before it: `a` old again, `b` gone again.
        let group = vec![
            staged(&a, "new a"),
            staged(&b, "new b"),
            staged(&c, "new c"),
        ];
        std::fs::remove_file(&c).expect("remove");
        std::fs::create_dir(&c).expect("mkdir");
        std::fs::write(c.join("inside"), "x").expect("write");
        assert!(commit_all(group).is_err());
        assert_eq!(listing(dir.path()), ["a", "c"]);
        assert_eq!(read(&a), "old a");
        std::fs::remove_dir_all(&c).expect("rmdir");
        std::fs::write(&c, "old c").expect("write");
        // Committed and undone: every target as before, nothing beside.
        let group = vec![
            staged(&a, "new a"),
            staged(&b, "new b"),
            staged(&c, "new c"),
        ];
        let done = commit_all(group).expect("committed");
        assert_eq!(
            (read(&a), read(&b), read(&c)),
            ("new a".into(), "new b".into(), "new c".into())
        );
        done.undo().expect("undone");
        assert_eq!(listing(dir.path()), ["a", "c"]);
        assert_eq!((read(&a), read(&c)), ("old a".into(), "old c".into()));
        // Committed and kept: the new files, and no old ones beside them.
        let group = vec![
            staged(&a, "new a"),
            staged(&b, "new b"),
            staged(&c, "new c"),
        ];
        drop(commit_all(group).expect("committed"));
        assert_eq!(listing(dir.path()), ["a", "b", "c"]);
        assert_eq!(
            (read(&a), read(&b), read(&c)),
            ("new a".into(), "new b".into(), "new c".into())
        );
        assert!(pending().iter().all(|p| !p.starts_with(dir.path())));
    }
}
