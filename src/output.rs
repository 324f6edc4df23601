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

    /// A new temporary beside the target, `.<name>.<random>.<mark>.part`.
    fn temp(&self) -> io::Result<tempfile::NamedTempFile> {
        use std::hash::{BuildHasher, Hasher};
        const CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        let mut tries = 0;
        loop {
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
            let path = self.dir.join(format!(
                "{}{random}.{}.part",
                self.prefix,
                self.mark(&random)
            ));
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
        self.sweep();
        let tmp = self.temp()?;
        // Held until the file is renamed or removed: a sweep by another
        // process leaves it alone.
        tmp.as_file().lock()?;
        let tmp_path = tmp.path().to_path_buf();
        pending().push(tmp_path.clone());
        let result = {
            let mut w = BufWriter::with_capacity(1 << 16, tmp.as_file());
            match f(&mut w) {
                Ok(v) => w.flush().map(|_| v).map_err(E::from),
                Err(e) => Err(e),
            }
        };
        // On error, dropping `tmp` removes the file; so it does when the
        // outputs are held.
        let result = result.and_then(|v| {
            if held() {
                return Err(E::from(held_error()));
            }
            tmp.persist(&self.path)
                .map(|_| v)
                .map_err(|e| E::from(e.error))
        });
        pending().retain(|p| *p != tmp_path);
        result
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
}
