//! The tour archive: every run saved with `run --save`, in a local SQLite
//! database. Runs are grouped by their puzzle up to its symmetries (squares,
//! move set, topology, tour kind, start and end) and their solver's kind.
//! Tours equal up to the puzzle's symmetries (and, for closed tours, up to
//! start square and direction) are stored once and counted as one distinct
//! tour; every run keeps its own row.

mod canonical;
mod legacy;
mod open;
mod read;
mod schema;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use crate::error::{Error, ErrorKind, Names, Wording};
use crate::puzzle::Puzzle;
use crate::solve::{Limit, Outcome, Report, SolverId, SolverSpec, Starts, Stats};
pub use canonical::{
    PuzzleKey, canonical_board, canonical_ends, canonical_puzzle, canonical_tour, tour_label,
};
use read::Cells;
pub use read::{Damage, MAX_TIME_MS, Rows};
use schema::{MIGRATIONS, Step, VERSION};

/// Environment variable naming the archive file (the `--archive` flag wins).
pub const ENV_VAR: &str = "ENGINE_ARCHIVE";

/// Marks a SQLite file as an engine archive (`PRAGMA application_id`).
const APPLICATION_ID: i32 = 0x454E_4731;

/// What an archive is opened for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// To save runs: made if new, brought up to date if old.
    Save,
    /// To read: never made, nor written unless brought up to date.
    Read,
}

/// The words of an empty file given as the archive.
const EMPTY: &str = "is empty, not an archive yet";

/// An open archive.
pub struct Archive {
    conn: Connection,
    path: PathBuf,
}

/// The archive file to use: `flag`, else `$ENGINE_ARCHIVE`, else
/// `archive.sqlite` in the platform's data directory (None when the
/// platform has none). `$ENGINE_ARCHIVE` set but empty names no file and is
/// refused, as an empty flag is: it does not fall back to the default.
pub fn resolve_path(flag: Option<&Path>) -> Result<Option<PathBuf>, Error> {
    if let Some(p) = flag {
        return Ok(Some(p.to_path_buf()));
    }
    match std::env::var_os(ENV_VAR) {
        Some(p) if p.is_empty() => Err(Error::about(
            ErrorKind::BadValue,
            ENV_VAR,
            "is set but empty, so it names no archive file",
        )
        .with_help(format!(
            "unset it to use the default archive{}, or set it to a file",
            default_path().map_or(String::new(), |p| format!(" ({})", p.display()))
        ))),
        Some(p) => Ok(Some(PathBuf::from(p))),
        None => Ok(default_path()),
    }
}

/// `archive.sqlite` in the platform's data directory.
fn default_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "engine").map(|d| d.data_dir().join("archive.sqlite"))
}

/// The words of an archive that is not there (or is an empty file), which
/// say how one is made: by saving a run (`save`), which a front end may ask
/// its own way.
#[derive(Debug)]
struct NoArchive(&'static str);

impl Wording for NoArchive {
    fn words(&self, names: &dyn Names) -> (String, Option<String>) {
        let help = match (names.name("run"), names.name("save")) {
            (Some(run), Some(save)) => {
                format!("`{run} {save}` creates it; the `archive` commands only read it")
            }
            _ => "saving a run (`save: true`) creates it; reading the archive does not".to_string(),
        };
        (self.0.to_string(), Some(help))
    }
}

/// An archive at `path` that is not there, or not yet: `what` says which.
fn no_archive(path: &Path, what: &'static str) -> Error {
    Error::about(ErrorKind::Io, &path.display().to_string(), "").worded(NoArchive(what))
}

/// An error of the archive at `path`: SQLite's, or its content's.
fn db_error(path: &Path, what: &str, e: impl std::fmt::Display) -> Error {
    Error::about(
        ErrorKind::Archive,
        &path.display().to_string(),
        format!("{what}: {e}"),
    )
}

/// An error of the file system about the archive's file at `path`.
fn file_error(path: &Path, what: &str, e: impl std::fmt::Display) -> Error {
    Error::about(
        ErrorKind::Io,
        &path.display().to_string(),
        format!("{what}: {e}"),
    )
}

/// Makes the missing folders above the archive `path`; the ones made,
/// outermost first.
fn make_folders(path: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut missing = Vec::new();
    let mut dir = path.parent();
    while let Some(d) = dir.filter(|d| !d.as_os_str().is_empty() && !d.exists()) {
        missing.push(d.to_path_buf());
        dir = d.parent();
    }
    missing.reverse();
    let mut made = Vec::with_capacity(missing.len());
    for d in missing {
        if let Err(e) = std::fs::create_dir(&d) {
            for m in made.iter().rev() {
                let _ = std::fs::remove_dir(m);
            }
            return Err(file_error(path, "cannot create the archive's folder", e));
        }
        made.push(d);
    }
    Ok(made)
}

/// Refuses a path that cannot be an archive file: one that names a
/// directory, a device, a FIFO, or a symbolic link to nothing. Whether a
/// file is there.
fn check_path(path: &Path) -> Result<bool, Error> {
    let shown = path.display().to_string();
    // `new.db/` names a folder: SQLite would quietly make `new.db`.
    if path
        .as_os_str()
        .to_string_lossy()
        .ends_with(std::path::is_separator)
    {
        return Err(Error::about(
            ErrorKind::Io,
            &shown,
            "the path ends in `/`, so it names a directory, not an archive file",
        ));
    }
    // Only a regular file (through any symbolic link) is opened: a
    // device or a FIFO would block, or gain a stray journal beside it.
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => {
            return Err(Error::about(
                ErrorKind::Io,
                &shown,
                format!(
                    "is {}, not an archive file; it was left untouched",
                    crate::output::kind_of(&m)
                ),
            ));
        }
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(file_error(path, "cannot read the archive", e));
        }
        _ if std::fs::symlink_metadata(path).is_ok() && !path.exists() => {
            return Err(Error::about(
                ErrorKind::Io,
                &shown,
                "is a symbolic link to a file that does not exist; it was left untouched",
            ));
        }
        _ => {}
    }
    Ok(path.exists())
}

/// The archive `run --save` saves to. One that exists is opened before the
/// search, so a bad archive fails at once. One that does not is made only
/// when a run is saved into it, and made whole: in a temporary file beside
/// it, moved into place with the run saved in it; so a run that saves
/// nothing (an interrupted one), or fails to (a full disk), leaves no new
/// archive behind, nor its folders. Before the search its folder is made,
/// checked to take a new file, and removed again.
pub struct SaveTo {
    path: PathBuf,
    archive: Option<Archive>,
}

/// The files SQLite keeps beside a database, by the suffix of their names.
const SIDECARS: [&str; 3] = ["-wal", "-shm", "-journal"];

impl SaveTo {
    /// Opens the archive at `path`, or, if there is none, checks that it
    /// can be made: that its folder can be made and takes a new file. A
    /// new archive and its folders are made only when a run is saved, so a
    /// run that ends without one (even at once, on a second Ctrl-C) leaves
    /// nothing behind.
    pub fn prepare(path: &Path) -> Result<SaveTo, Error> {
        if check_path(path)? {
            return Ok(SaveTo {
                path: path.to_path_buf(),
                archive: Some(Archive::open(path)?),
            });
        }
        let made = make_folders(path)?;
        // A temporary file beside it, removed at once: a folder that takes
        // no new file, or a name too long, fails here and not after the search.
        let checked = crate::output::PendingFile::create(path)
            .map(drop)
            .map_err(|e| file_error(path, "cannot create the archive", e));
        // The folders go again until the archive is made. One that is not
        // empty (another process's file) stays.
        for dir in made.iter().rev() {
            let _ = std::fs::remove_dir(dir);
        }
        checked?;
        Ok(SaveTo {
            path: path.to_path_buf(),
            archive: None,
        })
    }

    /// The archive's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Saves the run as [`Archive::record`] does, making the archive (and
    /// its folders) if it is new; an interrupted run is not saved, and makes
    /// nothing, nor does a run that cannot be saved.
    pub fn record(&mut self, puzzle: &Puzzle, report: &Report) -> Result<Option<i64>, Error> {
        if matches!(report.outcome, Outcome::Interrupted { .. }) {
            return Ok(None);
        }
        if let Some(archive) = &mut self.archive {
            return archive.record(puzzle, report);
        }
        // Made meanwhile by another process: saved to as any archive.
        if check_path(&self.path)? {
            return self
                .archive
                .insert(Archive::open(&self.path)?)
                .record(puzzle, report);
        }
        let made = make_folders(&self.path)?;
        let saved = self.record_new(puzzle, report);
        if saved.is_err() {
            for dir in made.iter().rev() {
                let _ = std::fs::remove_dir(dir);
            }
        }
        saved.map_err(|e| e.with_help("the run was not saved, and no archive was made"))
    }

    /// Makes the archive with the run saved in it, in a temporary file that
    /// is moved onto the archive's path only when complete, and never over
    /// a file: if another process made the archive meanwhile, the run is
    /// saved to that one. On an error the temporary goes, with SQLite's
    /// files beside it.
    fn record_new(&mut self, puzzle: &Puzzle, report: &Report) -> Result<Option<i64>, Error> {
        let cannot = |e| file_error(&self.path, "cannot create the archive", e);
        let staged = crate::output::PendingFile::create(&self.path)
            .and_then(crate::output::PendingFile::reserve)
            .map_err(cannot)?
            .with_sidecars(&SIDECARS);
        let mut archive = Archive::connect(staged.path(), &self.path, Mode::Save)?;
        let id = archive.record(puzzle, report)?;
        archive.close()?;
        // SQLite leaves no file beside a database it closed cleanly.
        for suffix in SIDECARS {
            let mut side = staged.path().as_os_str().to_owned();
            side.push(suffix);
            if std::fs::metadata(&side).is_ok_and(|m| m.len() > 0) {
                return Err(db_error(
                    &self.path,
                    "cannot create the archive",
                    "SQLite could not fold its log into the file",
                ));
            }
        }
        if staged.commit_new().map_err(cannot)? {
            return Ok(id);
        }
        self.archive
            .insert(Archive::open(&self.path)?)
            .record(puzzle, report)
    }
}

impl Archive {
    /// Opens (creating on first use) the archive at `path`, bringing an
    /// archive of an older schema up to date. A file that is not an engine
    /// archive is refused and never written to. An archive that cannot be
    /// made leaves nothing behind: neither the file nor the folders made
    /// for it. One that cannot be written (a read-only file system) is
    /// refused with the reason.
    pub fn open(path: &Path) -> Result<Archive, Error> {
        Archive::open_with(path, Mode::Save)
    }

    /// Opens the archive at `path`, which must exist: for commands that only
    /// read it, which never create one, nor write a schema into an empty
    /// file. A missing archive is refused with `no archive at this path`,
    /// an empty file with `is empty, not an archive yet`. One that cannot be
    /// written (a read-only file system) is read as it is.
    pub fn open_existing(path: &Path) -> Result<Archive, Error> {
        Archive::open_with(path, Mode::Read)
    }

    fn open_with(path: &Path, mode: Mode) -> Result<Archive, Error> {
        let shown = path.display().to_string();
        let existed = check_path(path)?;
        let mut made = Vec::new();
        if existed {
            let mut head = [0u8; 16];
            let read = std::fs::File::open(path)
                .and_then(|mut f| f.read(&mut head))
                .map_err(|e| file_error(path, "cannot read the archive", e))?;
            if read > 0 && (read < 16 || &head != b"SQLite format 3\0") {
                return Err(Error::about(
                    ErrorKind::Archive,
                    &shown,
                    "is not an engine archive (not an SQLite database); it was left untouched",
                ));
            }
            if read == 0 && mode == Mode::Read {
                return Err(no_archive(path, EMPTY));
            }
            if let Some(why) = open::read_only(path) {
                return match mode {
                    Mode::Read => Archive::connect_read_only(path, why),
                    Mode::Save => Err(Error::about(
                        ErrorKind::Archive,
                        &shown,
                        format!("{why}: it can be read, but no run can be saved to it"),
                    )),
                };
            }
        } else if mode == Mode::Read {
            return Err(no_archive(path, "no archive at this path"));
        } else {
            made = make_folders(path)?;
        }
        let opened = Archive::connect(path, path, mode);
        if opened.is_err() && !existed {
            // Undo what was made for an archive that could not be: a file
            // SQLite left empty, and the folders made for it.
            if std::fs::metadata(path).is_ok_and(|m| m.len() == 0) {
                let _ = std::fs::remove_file(path);
            }
            for dir in made.iter().rev() {
                let _ = std::fs::remove_dir(dir);
            }
        }
        opened
    }

    /// Connects to the archive in `file`, known to the user as `path`
    /// (they differ for a new archive made in a temporary file), and brings
    /// it up to date; SQLite makes the file when saving to it.
    fn connect(file: &Path, path: &Path, mode: Mode) -> Result<Archive, Error> {
        use rusqlite::OpenFlags;
        let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        if mode == Mode::Save {
            flags |= OpenFlags::SQLITE_OPEN_CREATE;
        }
        let cannot =
            |e: rusqlite::Error| db_error(path, "cannot open the archive", open::sqlite_says(&e));
        let query = match mode {
            Mode::Save => "mode=rwc",
            Mode::Read => "mode=rw",
        };
        let conn = Connection::open_with_flags(open::uri(file, query), flags).map_err(cannot)?;
        conn.busy_timeout(Duration::from_secs(30)).map_err(cannot)?;
        let mut archive = Archive {
            conn,
            path: path.to_path_buf(),
        };
        archive.check_and_migrate(mode)?;
        Ok(archive)
    }

    /// Connects to the archive at `path`, which cannot be written (`why`),
    /// to read it as it is: through its journal if it has one, else as a
    /// file nothing can change while it is read. An archive of an older
    /// schema cannot be brought up to date, and is refused.
    fn connect_read_only(path: &Path, why: &str) -> Result<Archive, Error> {
        use rusqlite::OpenFlags;
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let attempt = |query: &str| -> Result<Archive, Error> {
            let cannot = |e: rusqlite::Error| {
                db_error(
                    path,
                    &format!("{why}, and cannot be read"),
                    open::sqlite_says(&e),
                )
            };
            let conn =
                Connection::open_with_flags(open::uri(path, query), flags).map_err(cannot)?;
            conn.busy_timeout(Duration::from_secs(30)).map_err(cannot)?;
            let archive = Archive {
                conn,
                path: path.to_path_buf(),
            };
            let version = Archive::check(path, &archive.conn, Mode::Read)?;
            if version < VERSION {
                return Err(Error::about(
                    ErrorKind::Archive,
                    &path.display().to_string(),
                    format!(
                        "{why}, and was written by an older engine (schema {version}): it must \
                         be brought up to schema {VERSION} before it is read, which writes to it"
                    ),
                ));
            }
            Ok(archive)
        };
        // Without a write-ahead log beside it, the file holds every run.
        let wal = path.with_file_name(format!(
            "{}-wal",
            path.file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default()
        ));
        match attempt("mode=ro") {
            Err(_) if !wal.exists() => attempt("mode=ro&immutable=1"),
            other => other,
        }
    }

    /// Folds the write-ahead log into the file and closes the archive,
    /// reporting what a drop would not.
    fn close(self) -> Result<(), Error> {
        let Archive { conn, path } = self;
        let cannot = |e: rusqlite::Error| {
            db_error(&path, "cannot finish the archive", open::sqlite_says(&e))
        };
        let busy: i64 = conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get(0))
            .map_err(cannot)?;
        if busy != 0 {
            return Err(db_error(
                &path,
                "cannot finish the archive",
                "another connection holds its log",
            ));
        }
        conn.close().map_err(|(_, e)| cannot(e))
    }

    fn err(&self, what: &str, e: impl std::fmt::Display) -> Error {
        db_error(&self.path, what, e)
    }

    /// Checks that the database `conn` (this archive's, or a transaction
    /// on it) is an engine archive whose tables are those of its schema
    /// version, which this engine knows; its version. A database with no
    /// tables yet passes when saving (it becomes an archive), and is
    /// refused when reading.
    fn check(path: &Path, conn: &Connection, mode: Mode) -> Result<i64, Error> {
        let shown = path.display().to_string();
        let read =
            |e: rusqlite::Error| db_error(path, "is not a readable archive", open::sqlite_says(&e));
        let app_id: i32 = conn
            .pragma_query_value(None, "application_id", |r| r.get(0))
            .map_err(read)?;
        let tables: i64 = conn
            .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
            .map_err(read)?;
        if app_id != APPLICATION_ID && (app_id != 0 || tables > 0) {
            return Err(Error::about(
                ErrorKind::Archive,
                &shown,
                "is an SQLite database but not an engine archive; it was left untouched",
            ));
        }
        if tables == 0 && mode == Mode::Read {
            return Err(no_archive(path, EMPTY));
        }
        let version: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(read)?;
        if version > VERSION {
            return Err(Error::about(
                ErrorKind::Archive,
                &shown,
                format!(
                    "was written by a newer engine (schema {version}; this one knows {VERSION})"
                ),
            ));
        }
        if tables > 0
            && let Some(why) = open::schema_mismatch(conn, version).map_err(read)?
        {
            return Err(Error::about(
                ErrorKind::Archive,
                &shown,
                format!(
                    "its schema version says {version}, {why}: it was changed by hand or is \
                     damaged, and was left untouched"
                ),
            ));
        }
        Ok(version)
    }

    fn check_and_migrate(&mut self, mode: Mode) -> Result<(), Error> {
        let path = self.path.clone();
        // Everything is checked under the write lock, so two processes that
        // create (or upgrade) the same archive at once cannot see it half
        // made.
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| db_error(&path, "cannot lock the archive", open::sqlite_says(&e)))?;
        // On an error, dropping `tx` rolls back; nothing was written.
        let version = Archive::check(&path, &tx, mode)?;
        let app_id: i32 = tx
            .pragma_query_value(None, "application_id", |r| r.get(0))
            .map_err(|e| db_error(&path, "is not a readable archive", open::sqlite_says(&e)))?;
        // Version 0 is a new file: its schema is being made, not upgraded.
        let what = if version == 0 {
            "cannot create the archive"
        } else {
            "cannot upgrade the archive"
        };
        let upgrade = |e: rusqlite::Error| db_error(&path, what, open::sqlite_says(&e));
        // All steps in the one transaction: a process killed mid-way leaves
        // the archive as it was.
        for (to, step) in MIGRATIONS.iter().filter(|(to, _)| *to > version) {
            match step {
                Step::Sql(sql) => tx.execute_batch(sql),
                Step::Rust(f) => f(&tx),
            }
            .map_err(upgrade)?;
            tx.pragma_update(None, "user_version", to)
                .map_err(upgrade)?;
        }
        if app_id != APPLICATION_ID {
            tx.pragma_update(None, "application_id", APPLICATION_ID)
                .map_err(upgrade)?;
        }
        tx.commit().map_err(upgrade)?;
        // WAL lets readers work beside one writer; it persists in the file.
        // Switching needs a moment without other connections, so retry.
        for attempt in 0.. {
            match self
                .conn
                .pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get::<_, String>(0))
            {
                Ok(_) => break,
                Err(e) if attempt < 500 && is_busy(&e) => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(e) => return Err(self.err("cannot set up the archive", open::sqlite_says(&e))),
            }
        }
        Ok(())
    }

    /// Saves one run of `puzzle` and returns its id. Interrupted runs are not
    /// saved (they say nothing about the solver) and give `None`.
    pub fn record(&mut self, puzzle: &Puzzle, report: &Report) -> Result<Option<i64>, Error> {
        let (status, note) = match &report.outcome {
            Outcome::Found(_) => ("found", None),
            Outcome::Impossible(why) => ("impossible", Some(why.clone())),
            Outcome::GaveUp { limit, .. } => {
                ("gave_up", Some(schema::limit_name(*limit).to_string()))
            }
            Outcome::Interrupted { .. } => return Ok(None),
        };
        let squares = puzzle.board.len();
        let off = |s: &u32| *s as usize >= squares;
        let path = report.outcome.path();
        let goal = &puzzle.goal;
        if path.iter().any(off) || goal.start.iter().chain(&goal.end).any(off) {
            return Err(self.err(
                "cannot save the run",
                "it names squares that are not on its board",
            ));
        }
        let key = PuzzleKey::of(puzzle);
        let canonical = match &report.outcome {
            Outcome::Found(t) => Some(canonical_tour(
                &puzzle.board,
                &puzzle.piece,
                t,
                puzzle.goal.closed,
            )),
            _ => None,
        };
        let json = |e| self.err("cannot save the run", e);
        let solver = serde_json::to_string(&report.solver).map_err(json)?;
        let requested = serde_json::to_string(&puzzle.solver).map_err(json)?;
        let starts = match &report.starts {
            Some(s) => Some(serde_json::to_string(s).map_err(json)?),
            None => None,
        };
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| db_error(&self.path, "cannot lock the archive", e))?;
        let write = |e| db_error(&self.path, "cannot write to the archive", e);
        let (puzzle_id, tour_id) =
            insert_group(&tx, &key, &puzzle.name, canonical.as_deref()).map_err(write)?;
        let s = &report.stats;
        tx.execute(
            "INSERT INTO runs (puzzle_id, tour_id, name, status, solver_label, options, seed,
                closed, start, nodes, backtracks, generations, time_ms, tour, source, file,
                solver_kind, solver, requested, end_square, restarts, repairs, rotations, outcome,
                starts)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,
                ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25)",
            params![
                puzzle_id,
                tour_id,
                puzzle.name,
                status,
                report.solver.to_string(),
                format!("{:?}", puzzle.solver),
                puzzle.seed as i64,
                puzzle.goal.closed,
                puzzle.goal.start.map(i64::from),
                s.nodes as i64,
                s.backtracks as i64,
                s.generations as i64,
                s.elapsed.as_secs_f64() * 1e3,
                (!path.is_empty()).then(|| to_blob(path)),
                puzzle.text,
                puzzle.file,
                report.solver.kind(),
                solver,
                requested,
                puzzle.goal.end.map(i64::from),
                s.restarts as i64,
                s.repairs as i64,
                s.rotations as i64,
                note,
                starts,
            ],
        )
        .map_err(write)?;
        let id = tx.last_insert_rowid();
        tx.commit().map_err(write)?;
        Ok(Some(id))
    }

    /// Figures per puzzle (as grouped: board, move set, tour kind, start and
    /// end) and solver kind; with `only`, for the groups of its board and
    /// piece only (every tour kind, start and end). A damaged run is left
    /// out and named in [`Rows::skipped`].
    pub fn stats(&self, only: Option<&Puzzle>) -> Result<Rows<StatsRow>, Error> {
        let board =
            only.map(|p| canonical::sha256_hex(canonical_board(&p.board, &p.piece).as_bytes()));
        let read = |e| self.err("cannot read the archive", e);
        let mut stmt = self
            .conn
            .prepare(
                "SELECT r.id AS \"runs.id\", p.id AS \"puzzles.id\",
                        p.name AS \"puzzles.name\", p.tour AS \"puzzles.tour\",
                        r.solver_kind AS \"runs.solver_kind\", r.status AS \"runs.status\",
                        r.tour_id AS \"runs.tour_id\", r.nodes AS \"runs.nodes\",
                        r.generations AS \"runs.generations\", r.time_ms AS \"runs.time_ms\"
                 FROM runs r JOIN puzzles p ON p.id = r.puzzle_id
                 WHERE ?1 IS NULL OR p.board_hash = ?1
                 ORDER BY p.id, r.solver_kind, r.id",
            )
            .map_err(read)?;
        struct Cell {
            puzzle_id: i64,
            name: String,
            tour_kind: String,
            solver: String,
            found: bool,
            tour: Option<i64>,
            nodes: u64,
            generations: u64,
            ms: f64,
        }
        let rows = stmt
            .query_map([board], |r| {
                let c = Cells::new(r, 0);
                Ok((|| {
                    Ok(Cell {
                        puzzle_id: c.int(1)?,
                        name: c.text(2)?,
                        tour_kind: c.text(3)?,
                        solver: c.text(4)?,
                        found: status(&c, 5)? == "found",
                        tour: c.opt_int(6)?,
                        nodes: c.count(7)?,
                        generations: c.count(8)?,
                        ms: c.millis(9)?,
                    })
                })())
            })
            .map_err(read)?;
        let mut out: Vec<StatsRow> = Vec::new();
        let mut skipped = Vec::new();
        let mut tours: Vec<Vec<i64>> = Vec::new();
        for row in rows {
            let cell = match row.map_err(read)? {
                Ok(c) => c,
                Err(damage) => {
                    skipped.push(damage);
                    continue;
                }
            };
            let same = out.last().is_some_and(|l: &StatsRow| {
                l.puzzle_id == cell.puzzle_id && l.solver == cell.solver
            });
            if !same {
                out.push(StatsRow {
                    puzzle_id: cell.puzzle_id,
                    puzzle: cell.name,
                    tour: cell.tour_kind,
                    solver: cell.solver,
                    ..StatsRow::default()
                });
                tours.push(Vec::new());
            }
            let (Some(last), Some(t)) = (out.last_mut(), tours.last_mut()) else {
                continue;
            };
            last.runs += 1;
            if cell.found {
                last.found += 1;
            }
            if let Some(id) = cell.tour
                && !t.contains(&id)
            {
                t.push(id);
            }
            last.nodes.push(cell.nodes);
            last.generations.push(cell.generations);
            last.times_ms.push(cell.ms);
        }
        for (row, t) in out.iter_mut().zip(&tours) {
            row.distinct = t.len() as u64;
        }
        Ok(Rows { rows: out, skipped })
    }

    /// The most recent runs, newest first. A damaged run is left out and
    /// named in [`Rows::skipped`].
    pub fn list(&self, limit: usize) -> Result<Rows<RunRow>, Error> {
        let read = |e| self.err("cannot read the archive", e);
        let mut stmt = self
            .conn
            .prepare(
                "SELECT r.id AS \"runs.id\", r.created AS \"runs.created\",
                        r.name AS \"runs.name\", r.solver AS \"runs.solver\",
                        r.solver_label AS \"runs.solver_label\", r.status AS \"runs.status\",
                        r.nodes AS \"runs.nodes\", r.generations AS \"runs.generations\",
                        r.time_ms AS \"runs.time_ms\", r.tour_id AS \"runs.tour_id\",
                        p.tour AS \"puzzles.tour\"
                 FROM runs r JOIN puzzles p ON p.id = r.puzzle_id
                 ORDER BY r.id DESC LIMIT ?1",
            )
            .map_err(read)?;
        let rows = stmt
            .query_map([i64::try_from(limit).unwrap_or(i64::MAX)], |r| {
                let c = Cells::new(r, 0);
                Ok((|| {
                    let json = c.text(3)?;
                    let label = c.text(4)?;
                    // The solvers and options; why `Auto` chose is for `show`.
                    let solver = serde_json::from_str::<SolverId>(&json)
                        .map_or(label, |id| SolverId { auto: None, ..id }.to_string());
                    Ok(RunRow {
                        id: c.int(0)?,
                        created: c.text(1)?,
                        name: c.text(2)?,
                        solver,
                        status: status(&c, 5)?,
                        nodes: c.count(6)?,
                        generations: c.count(7)?,
                        time_ms: c.millis(8)?,
                        tour_id: c.opt_int(9)?,
                        tour: c.text(10)?,
                    })
                })())
            })
            .map_err(read)?;
        let mut out = Rows {
            rows: Vec::new(),
            skipped: Vec::new(),
        };
        for row in rows {
            match row.map_err(read)? {
                Ok(r) => out.rows.push(r),
                Err(damage) => out.skipped.push(damage),
            }
        }
        Ok(out)
    }

    /// One saved run: its puzzle (re-read from the saved file text, with the
    /// run's overrides) and its report as `run` made it. A damaged run is an
    /// error naming the column.
    pub fn show(&self, id: i64) -> Result<Option<SavedRun>, Error> {
        let read = |e| self.err("cannot read the archive", e);
        let row = self
            .conn
            .query_row(
                "SELECT id AS \"runs.id\", source AS \"runs.source\", file AS \"runs.file\",
                        closed AS \"runs.closed\", start AS \"runs.start\",
                        end_square AS \"runs.end_square\", seed AS \"runs.seed\",
                        requested AS \"runs.requested\", tour AS \"runs.tour\",
                        status AS \"runs.status\", outcome AS \"runs.outcome\",
                        solver AS \"runs.solver\", nodes AS \"runs.nodes\",
                        backtracks AS \"runs.backtracks\", generations AS \"runs.generations\",
                        restarts AS \"runs.restarts\", repairs AS \"runs.repairs\",
                        rotations AS \"runs.rotations\", time_ms AS \"runs.time_ms\",
                        created AS \"runs.created\", starts AS \"runs.starts\"
                 FROM runs WHERE id = ?1",
                [id],
                |r| {
                    let c = Cells::new(r, 0);
                    Ok((|| {
                        Ok(Saved {
                            source: c.text(1)?,
                            file: c.text(2)?,
                            closed: c.flag(3)?,
                            start: c.opt_int(4)?,
                            end: c.opt_int(5)?,
                            seed: c.int(6)?,
                            requested: c.text(7)?,
                            path: c.squares(8)?,
                            status: status(&c, 9)?,
                            note: c.opt_text(10)?,
                            solver: c.text(11)?,
                            stats: Stats {
                                nodes: c.count(12)?,
                                backtracks: c.count(13)?,
                                generations: c.count(14)?,
                                restarts: c.count(15)?,
                                repairs: c.count(16)?,
                                rotations: c.count(17)?,
                                elapsed: Duration::from_secs_f64(c.millis(18)? / 1e3),
                            },
                            created: c.text(19)?,
                            starts: c.opt_text(20)?,
                        })
                    })())
                },
            )
            .optional()
            .map_err(read)?;
        let Some(saved) = row else {
            return Ok(None);
        };
        let damage = |d: Damage| {
            Error::about(
                ErrorKind::Archive,
                &self.path.display().to_string(),
                d.to_string(),
            )
        };
        let saved = saved.map_err(damage)?;
        let damaged = |column: &str, why: &str| {
            damage(Damage {
                run: Some(id),
                column: format!("runs.{column}"),
                why: why.to_string(),
            })
        };
        let mut puzzle = Puzzle::parse(&saved.file, &saved.source)?;
        let n = puzzle.board.len();
        let off_board = "names a square that is not on its board";
        let square = |s: Option<i64>, column: &str| match s {
            None => Ok(None),
            Some(s) => u32::try_from(s)
                .ok()
                .filter(|&s| (s as usize) < n)
                .map(Some)
                .ok_or_else(|| damaged(column, off_board)),
        };
        puzzle.goal.closed = saved.closed;
        puzzle.goal.start = square(saved.start, "start")?;
        puzzle.goal.end = square(saved.end, "end_square")?.or(puzzle.goal.end);
        puzzle.seed = saved.seed as u64;
        if let Ok(spec) = serde_json::from_str::<SolverSpec>(&saved.requested) {
            puzzle.solver = spec;
        }
        let path = saved.path.unwrap_or_default();
        if path.iter().any(|&s| s as usize >= n) {
            return Err(damaged("tour", off_board));
        }
        let outcome = match saved.status.as_str() {
            "found" => Outcome::Found(path),
            "impossible" => Outcome::Impossible(
                saved
                    .note
                    .unwrap_or_else(|| "saved as proven impossible".to_string()),
            ),
            _ => Outcome::GaveUp {
                limit: saved
                    .note
                    .as_deref()
                    .and_then(schema::limit_named)
                    .unwrap_or(Limit::Time),
                best: path,
            },
        };
        let solver = serde_json::from_str::<SolverId>(&saved.solver)
            .map_err(|_| damaged("solver", "does not name the solvers that ran"))?;
        let starts =
            match &saved.starts {
                None => None,
                Some(text) => Some(serde_json::from_str::<Starts>(text).map_err(|_| {
                    damaged("starts", "does not say what became of the start squares")
                })?),
            };
        Ok(Some(SavedRun {
            puzzle,
            report: Report {
                outcome,
                stats: saved.stats,
                solver,
                starts,
            },
            created: saved.created,
        }))
    }

    /// Where the archive lives.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// The status of a run in column `i`: `found`, `impossible` or `gave_up`.
fn status(c: &Cells<'_, '_>, i: usize) -> Result<String, Damage> {
    let s = c.text(i)?;
    match s.as_str() {
        "found" | "impossible" | "gave_up" => Ok(s),
        _ => Err(c.wrong_text(i, "`found`, `impossible` or `gave_up`")),
    }
}

/// The columns `show` reads.
struct Saved {
    source: String,
    file: String,
    closed: bool,
    start: Option<i64>,
    end: Option<i64>,
    seed: i64,
    requested: String,
    path: Option<Vec<u32>>,
    status: String,
    note: Option<String>,
    solver: String,
    stats: Stats,
    created: String,
    starts: Option<String>,
}

/// The group of `key` (made if new), and the id of the distinct tour
/// `canonical` in it (stored if new).
fn insert_group(
    tx: &rusqlite::Transaction<'_>,
    key: &PuzzleKey,
    name: &str,
    canonical: Option<&[u32]>,
) -> rusqlite::Result<(i64, Option<i64>)> {
    let group = group_id(tx, key, name)?;
    let tour = match canonical {
        Some(c) => Some(tour_id(tx, group, c, None)?),
        None => None,
    };
    Ok((group, tour))
}

/// The id of the group of `key`, made (named `name`) if new.
fn group_id(tx: &rusqlite::Transaction<'_>, key: &PuzzleKey, name: &str) -> rusqlite::Result<i64> {
    tx.execute(
        "INSERT INTO puzzles (hash, name, canonical, board_hash, closed, start, end_square, tour)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT (hash) DO NOTHING",
        params![
            key.hash,
            name,
            key.canonical,
            key.board_hash,
            key.closed,
            key.start.map(i64::from),
            key.end.map(i64::from),
            key.tour
        ],
    )?;
    tx.query_row("SELECT id FROM puzzles WHERE hash = ?1", [&key.hash], |r| {
        r.get(0)
    })
}

/// The id of the distinct tour `canonical` of group `group`. If the group
/// does not have it yet, the tour row `adopt` (same canonical form) moves
/// into the group, keeping its id; failing that a new row is stored.
fn tour_id(
    tx: &rusqlite::Transaction<'_>,
    group: i64,
    canonical: &[u32],
    adopt: Option<i64>,
) -> rusqlite::Result<i64> {
    let blob = to_blob(canonical);
    let hash = canonical::sha256_hex(&blob);
    let have = |tx: &rusqlite::Transaction<'_>| {
        tx.query_row(
            "SELECT id FROM tours WHERE puzzle_id = ?1 AND hash = ?2",
            params![group, hash],
            |r| r.get::<_, i64>(0),
        )
        .optional()
    };
    if let Some(id) = have(tx)? {
        return Ok(id);
    }
    if let Some(old) = adopt
        && tx.execute(
            "UPDATE tours SET puzzle_id = ?1 WHERE id = ?2 AND hash = ?3",
            params![group, old, hash],
        )? == 1
    {
        return Ok(old);
    }
    tx.execute(
        "INSERT INTO tours (puzzle_id, hash, canonical) VALUES (?1, ?2, ?3)",
        params![group, hash, blob],
    )?;
    Ok(tx.last_insert_rowid())
}

/// A run read back from the archive.
pub struct SavedRun {
    /// The puzzle as it was run (file text re-read, overrides re-applied).
    pub puzzle: Puzzle,
    /// The outcome, stats and solver as saved.
    pub report: Report,
    /// When it was saved (UTC, ISO 8601).
    pub created: String,
}

/// A line of `archive list`.
#[derive(Clone, Debug, PartialEq)]
pub struct RunRow {
    /// Run id.
    pub id: i64,
    /// When (UTC).
    pub created: String,
    /// Puzzle name.
    pub name: String,
    /// The solvers that ran, with their options.
    pub solver: String,
    /// found / impossible / gave_up.
    pub status: String,
    /// Nodes visited.
    pub nodes: u64,
    /// Generations.
    pub generations: u64,
    /// Milliseconds.
    pub time_ms: f64,
    /// The distinct tour it found.
    pub tour_id: Option<i64>,
    /// Its group's tour kind and ends: `open from a1`.
    pub tour: String,
}

/// A line of `archive stats`: one puzzle (as grouped) and one solver kind.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StatsRow {
    /// Puzzle (group) id in the archive.
    pub puzzle_id: i64,
    /// Puzzle name.
    pub puzzle: String,
    /// Tour kind, start and end, up to the puzzle's symmetries: `open from a1`.
    pub tour: String,
    /// Solver kind: `backtrack`, `warnsdorff`, `genetic`, `proofs` or `none`.
    pub solver: String,
    /// Runs saved.
    pub runs: u64,
    /// Runs that found a tour.
    pub found: u64,
    /// Distinct tours among them.
    pub distinct: u64,
    /// Nodes of each run.
    pub nodes: Vec<u64>,
    /// Generations of each run.
    pub generations: Vec<u64>,
    /// Time of each run, ms.
    pub times_ms: Vec<f64>,
}

impl StatsRow {
    /// Share of runs that found a tour.
    pub fn success_rate(&self) -> f64 {
        if self.runs == 0 {
            0.0
        } else {
            self.found as f64 / self.runs as f64
        }
    }

    /// Mean and median of `values`.
    pub fn mean_median(values: &[u64]) -> (f64, f64) {
        if values.is_empty() {
            return (0.0, 0.0);
        }
        let mut v = values.to_vec();
        v.sort_unstable();
        let mean = v.iter().map(|&x| x as f64).sum::<f64>() / v.len() as f64;
        let m = v.len() / 2;
        let median = if v.len() % 2 == 1 {
            v[m] as f64
        } else {
            (v[m - 1] as f64 + v[m] as f64) / 2.0
        };
        (mean, median)
    }

    /// Mean time, ms.
    pub fn mean_time_ms(&self) -> f64 {
        if self.times_ms.is_empty() {
            0.0
        } else {
            self.times_ms.iter().sum::<f64>() / self.times_ms.len() as f64
        }
    }
}

fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    )
}

fn to_blob(squares: &[u32]) -> Vec<u8> {
    squares.iter().flat_map(|s| s.to_le_bytes()).collect()
}

fn from_blob(blob: &[u8]) -> Vec<u32> {
    blob.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halt::Never;

    fn manifest(path: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
    }

    fn load(path: &str) -> Puzzle {
        match Puzzle::load(&manifest(path)) {
            Ok(p) => p,
            Err(e) => panic!("{e}"),
        }
    }

    /// Solves `p` as `engine run` does.
    fn run(p: &Puzzle) -> Report {
        let Ok(g) = p.graph(&Never);
        let progress = crate::progress::Progress::new();
        let mut quiet = crate::search::event::NoObserver;
        let run = crate::solve::Run::new(crate::solve::Limits::none(), &progress, &mut quiet);
        match crate::solve::runner::solve(&p.task(&g), p.solver, run) {
            Ok(r) => r,
            Err(e) => panic!("{e}"),
        }
    }

    fn fresh() -> (tempfile::TempDir, Archive) {
        let dir = match tempfile::tempdir() {
            Ok(d) => d,
            Err(e) => panic!("{e}"),
        };
        match Archive::open(&dir.path().join("a.sqlite")) {
            Ok(a) => (dir, a),
            Err(e) => panic!("{e}"),
        }
    }

    fn stats_of(store: &Archive) -> Vec<StatsRow> {
        match store.stats(None) {
            Ok(r) => {
                assert_eq!(r.skipped, []);
                r.rows
            }
            Err(e) => panic!("{e}"),
        }
    }

    /// Bug: five runs of one puzzle by one solver kind, each with its own
    /// repairs and rotations (and here two tie-breaks), gave several rows.
    #[test]
    fn runs_of_one_solver_kind_share_one_row() {
        let (_dir, mut store) = fresh();
        let mut p = load("tests/data/giraffe-random.ron");
        let mut results = Vec::new();
        for seed in 1..=5 {
            p.seed = seed;
            if seed == 5 {
                p.solver = crate::solve::SolverSpec::Warnsdorff(Default::default());
            }
            let r = run(&p);
            assert!(matches!(r.outcome, Outcome::Found(_)), "{r:?}");
            results.push((r.stats.repairs, r.stats.rotations));
            assert!(matches!(store.record(&p, &r), Ok(Some(_))));
        }
        results.dedup();
        assert!(results.len() > 1, "the runs differ: {results:?}");
        let rows = stats_of(&store);
        let table = crate::render::text::archive_stats(&rows);
        assert_eq!(rows.len(), 1, "{table}");
        assert_eq!(rows[0].runs, 5, "{table}");
        assert_eq!(rows[0].solver, "warnsdorff", "{table}");
    }

    /// Bug: the start square and the tour kind did not split groups, and the
    /// table showed neither.
    #[test]
    fn start_and_tour_kind_make_their_own_groups() {
        let (_dir, mut store) = fresh();
        let p = load("tests/data/knight8x8.ron");
        for (start, closed) in [("a1", false), ("h8", false), ("d4", false), ("any", true)] {
            let mut q = p.clone();
            assert!(q.set_start(start).is_ok());
            if closed {
                assert!(q.set_closed().is_ok());
            }
            let r = run(&q);
            assert!(matches!(r.outcome, Outcome::Found(_)), "{r:?}");
            assert!(matches!(store.record(&q, &r), Ok(Some(_))));
        }
        let rows = stats_of(&store);
        let table = crate::render::text::archive_stats(&rows);
        assert_eq!(rows.len(), 3, "{table}");
        let mut runs: Vec<u64> = rows.iter().map(|r| r.runs).collect();
        runs.sort_unstable();
        assert_eq!(runs, [1, 1, 2], "{table}");
        let line = |words: &[&str]| {
            table
                .lines()
                .filter(|l| words.iter().all(|w| l.contains(w)))
                .count()
        };
        // a1 and h8 are one start square up to the board's symmetries.
        assert_eq!(line(&["open", "a1", " 2 "]), 1, "{table}");
        assert_eq!(line(&["open", "d4", " 1 "]), 1, "{table}");
        assert_eq!(line(&["closed", " 1 "]), 1, "{table}");
        assert_eq!(line(&["h8"]), 0, "{table}");
    }

    /// A copy of the archive the previous release wrote (tests/data/README).
    fn v1_copy() -> (tempfile::TempDir, PathBuf) {
        let dir = match tempfile::tempdir() {
            Ok(d) => d,
            Err(e) => panic!("{e}"),
        };
        let to = dir.path().join("archive-v1.sqlite");
        if let Err(e) = std::fs::copy(manifest("tests/data/archive-v1.sqlite"), &to) {
            panic!("{e}");
        }
        (dir, to)
    }

    /// The archive written by the previous release: after opening (and
    /// migrating) it, its five Warnsdorff runs of one puzzle are one row, and
    /// starts and tour kinds are their own rows.
    #[test]
    fn v1_runs_regroup() {
        let (_dir, path) = v1_copy();
        let store = match Archive::open(&path) {
            Ok(a) => a,
            Err(e) => panic!("{e}"),
        };
        let rows = stats_of(&store);
        let table = crate::render::text::archive_stats(&rows);
        let giraffe: Vec<&StatsRow> = rows
            .iter()
            .filter(|r| r.puzzle.starts_with("Giraffe"))
            .collect();
        assert_eq!(giraffe.len(), 1, "{table}");
        assert_eq!((giraffe[0].runs, giraffe[0].distinct), (5, 5), "{table}");
        assert_eq!(giraffe[0].solver, "warnsdorff", "{table}");
        let knight = |words: &[&str]| -> Vec<u64> {
            table
                .lines()
                .filter(|l| l.starts_with("Knight 8x8") && words.iter().all(|w| l.contains(w)))
                .map(|l| {
                    l.split_whitespace()
                        .find(|w| w.chars().all(|c| c.is_ascii_digit()))
                        .and_then(|w| w.parse().ok())
                        .unwrap_or(0)
                })
                .collect()
        };
        assert_eq!(knight(&["open", "a1", "backtrack"]), [2], "{table}");
        assert_eq!(knight(&["open", "d4", "backtrack"]), [1], "{table}");
        assert_eq!(knight(&["closed", "warnsdorff"]), [1], "{table}");
    }

    fn open(path: &Path) -> Archive {
        match Archive::open(path) {
            Ok(a) => a,
            Err(e) => panic!("{e}"),
        }
    }

    const SMALL: &str = " [auto picked backtrack (order: warnsdorff): 64 squares is small enough to search exhaustively, so it finds a tour or proves there is none]";

    fn large(squares: usize) -> String {
        format!(
            " [auto picked warnsdorff: {squares} squares is too many to search exhaustively, and the rule finds tours in linear time; if it gives up, backtracking follows]"
        )
    }

    /// `show` of every run of the previous release's archive gives the
    /// status line and the stats line `run` prints today for that run: the
    /// solver as data (repairs and rotations now among the figures) and the
    /// reason it ended.
    #[test]
    fn v1_runs_show_their_solver_and_stats() {
        let (_dir, path) = v1_copy();
        let store = open(&path);
        let random = "warnsdorff (tie-break: random)";
        let ga = "genetic (preset: classic, population: 50, mutation: 0.01, selection: roulette, repair: cycle, elitism: 0)";
        let found = |n: usize| format!("Found an open tour of {n} squares.");
        let gave_up = |limit: &str, n: usize| {
            format!(
                "Gave up: the {limit} ran out; nothing is proven. Longest path: 0 of {n} squares."
            )
        };
        let want: Vec<(i64, String, String, &str)> = vec![
            (1, found(576), random.into(), "nodes: 576 · repairs: 1 · rotations: 2 · time: 114.6 µs"),
            (2, found(576), random.into(), "nodes: 576 · repairs: 3 · rotations: 7 · time: 186.1 µs"),
            (3, found(576), random.into(), "nodes: 576 · repairs: 1 · rotations: 1 · time: 132.9 µs"),
            (4, found(576), random.into(), "nodes: 576 · repairs: 1 · rotations: 3 · time: 118.9 µs"),
            (5, found(576), random.into(), "nodes: 576 · repairs: 5 · rotations: 15 · time: 285.8 µs"),
            (6, found(64), format!("backtrack (order: warnsdorff){SMALL}"), "nodes: 64 · time: 15.2 µs"),
            (7, found(64), format!("backtrack (order: warnsdorff){SMALL}"), "nodes: 64 · time: 14.3 µs"),
            (8, found(64), format!("backtrack (order: warnsdorff){SMALL}"), "nodes: 64 · time: 14.4 µs"),
            (
                9,
                "Found a closed tour of 64 squares.".into(),
                format!("warnsdorff (tie-break: lookahead){}", large(64)),
                "nodes: 64 · rotations: 3 · time: 60.4 µs",
            ),
            (
                10,
                found(73),
                format!(
                    "warnsdorff (tie-break: lookahead), then backtrack (order: warnsdorff){}",
                    large(73)
                ),
                "nodes: 1270 · restarts: 20 · repairs: 21 · time: 24.4 ms",
            ),
            (
                11,
                gave_up("restart limit", 73),
                "warnsdorff (tie-break: lookahead)".into(),
                "nodes: 1215 · restarts: 20 · repairs: 21 · time: 18.1 ms",
            ),
            (12, found(64), ga.into(), "generations: 6 · nodes: 12242 · time: 261.0 µs"),
            (
                13,
                gave_up("generation limit", 64),
                ga.into(),
                "generations: 1 · nodes: 2092 · time: 97.8 µs",
            ),
            (
                14,
                "No open tour exists: every move keeps the colour of its square (the piece is colour-bound), so the move graph falls into 2 separate parts (32 squares from a1, 32 from b1); the piece can never get from one to another.".into(),
                "proofs (no search needed)".into(),
                "nodes: 0 · time: 10.7 µs",
            ),
            (
                15,
                gave_up("node limit", 64),
                "backtrack (order: given)".into(),
                "nodes: 4096 · backtracks: 4042 · time: 85.4 µs",
            ),
            (
                16,
                gave_up("time limit", 4_000_000),
                format!("warnsdorff (tie-break: lookahead){}", large(4_000_000)),
                "nodes: 0 · time: 6.7 ms",
            ),
        ];
        for (id, status, solver, figures) in want {
            let saved = match store.show(id) {
                Ok(Some(s)) => s,
                Ok(None) => panic!("run {id} is gone"),
                Err(e) => panic!("run {id}: {e}"),
            };
            let p = &saved.puzzle;
            let r = &saved.report;
            assert_eq!(
                crate::render::text::status_line(r, &p.board, p.goal.closed),
                status,
                "run {id}"
            );
            assert_eq!(
                crate::render::text::stats_line(r),
                format!("solver: {solver} · {figures}"),
                "run {id}"
            );
        }
        assert!(matches!(store.show(17), Ok(None)));
    }

    /// The archive the release with schema 2 wrote (tests/data/README):
    /// migrated to schema 3, every run still shows its solver as that
    /// release printed it (the `solver_label` column), and has no start
    /// squares recorded.
    #[test]
    fn v2_runs_read_as_they_were_printed() {
        let dir = match tempfile::tempdir() {
            Ok(d) => d,
            Err(e) => panic!("{e}"),
        };
        let path = dir.path().join("archive-v2.sqlite");
        if let Err(e) = std::fs::copy(manifest("tests/data/archive-v2.sqlite"), &path) {
            panic!("{e}");
        }
        let store = open(&path);
        let labels: Vec<(i64, String)> = {
            let conn = match Connection::open(&path) {
                Ok(c) => c,
                Err(e) => panic!("{e}"),
            };
            let version: i64 = conn
                .pragma_query_value(None, "user_version", |r| r.get(0))
                .unwrap_or(0);
            assert_eq!(version, VERSION);
            let mut q = match conn.prepare("SELECT id, solver_label FROM runs ORDER BY id") {
                Ok(q) => q,
                Err(e) => panic!("{e}"),
            };
            let rows = q.query_map([], |r| Ok((r.get(0)?, r.get(1)?)));
            match rows.and_then(|r| r.collect()) {
                Ok(v) => v,
                Err(e) => panic!("{e}"),
            }
        };
        assert_eq!(labels.len(), 6);
        for (id, label) in labels {
            let saved = match store.show(id) {
                Ok(Some(s)) => s,
                other => panic!("run {id}: {:?}", other.err()),
            };
            assert_eq!(saved.report.solver.to_string(), label, "run {id}");
            assert_eq!(saved.report.starts, None, "run {id}");
        }
    }

    /// The columns schema 1 had, for every run, as they read.
    fn v1_columns(path: &Path) -> Vec<Vec<rusqlite::types::Value>> {
        let rows = || -> rusqlite::Result<Vec<Vec<rusqlite::types::Value>>> {
            let conn = Connection::open(path)?;
            let mut stmt = conn.prepare(
                "SELECT id, created, name, status, solver_label, options, seed, closed, start,
                        nodes, backtracks, generations, time_ms, tour, source, file
                 FROM runs ORDER BY id",
            )?;
            stmt.query_map([], |r| (0..16).map(|i| r.get(i)).collect())?
                .collect()
        };
        match rows() {
            Ok(r) => r,
            Err(e) => panic!("{e}"),
        }
    }

    /// Migrating keeps every run: the same ids, tours, statuses and
    /// figures, the old solver text in `solver_label`, and the same tour
    /// ids; the archive is at schema 2 and still an engine archive.
    #[test]
    fn v1_migration_keeps_every_run() {
        let (_dir, path) = v1_copy();
        // Schema 1 called the label `solver`.
        let before = {
            let conn = match Connection::open(&path) {
                Ok(c) => c,
                Err(e) => panic!("{e}"),
            };
            let ok = conn.execute_batch("CREATE TEMP VIEW v AS SELECT * FROM runs; ");
            assert!(ok.is_ok());
            drop(conn);
            let copy = path.with_file_name("before.sqlite");
            assert!(std::fs::copy(&path, &copy).is_ok());
            let conn = match Connection::open(&copy) {
                Ok(c) => c,
                Err(e) => panic!("{e}"),
            };
            assert!(
                conn.execute_batch("ALTER TABLE runs RENAME COLUMN solver TO solver_label")
                    .is_ok()
            );
            drop(conn);
            v1_columns(&copy)
        };
        let tour_ids = |path: &Path| -> Vec<Option<i64>> {
            let Ok(conn) = Connection::open(path) else {
                panic!("cannot open {}", path.display())
            };
            let Ok(mut stmt) = conn.prepare("SELECT tour_id FROM runs ORDER BY id") else {
                panic!("no runs")
            };
            let Ok(rows) = stmt.query_map([], |r| r.get(0)) else {
                panic!("no runs")
            };
            rows.map(|r| r.unwrap_or_else(|e| panic!("{e}"))).collect()
        };
        let old_tours = tour_ids(&path);
        let store = open(&path);
        let pragma = |name: &str| -> i64 {
            match store.conn.pragma_query_value(None, name, |r| r.get(0)) {
                Ok(v) => v,
                Err(e) => panic!("{e}"),
            }
        };
        assert_eq!(pragma("user_version"), VERSION);
        assert_eq!(pragma("application_id"), i64::from(APPLICATION_ID));
        drop(store);
        assert_eq!(before.len(), 16);
        assert_eq!(v1_columns(&path), before);
        assert_eq!(tour_ids(&path), old_tours);
        // Opening again changes nothing.
        let listed = |p: &Path| open(p).list(100).unwrap_or_else(|e| panic!("{e}"));
        let first = listed(&path);
        assert_eq!(listed(&path), first);
        assert_eq!(
            first.iter().rev().map(|r| r.id).collect::<Vec<_>>(),
            (1..=16).collect::<Vec<_>>()
        );
    }

    /// A run whose saved puzzle text no longer reads (or names a start off
    /// its board) stays, in its old group, and the others move on.
    #[test]
    fn v1_runs_that_no_longer_read_are_kept() {
        let (_dir, path) = v1_copy();
        {
            let conn = match Connection::open(&path) {
                Ok(c) => c,
                Err(e) => panic!("{e}"),
            };
            let broken = conn.execute_batch(
                "UPDATE runs SET source = 'Puzzle(board: \"8x8\", piece: \"unicorn\")' WHERE id = 7;
                 UPDATE runs SET start = 4096 WHERE id = 1;",
            );
            assert!(broken.is_ok(), "{broken:?}");
        }
        let store = open(&path);
        let runs = store.list(100).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(runs.len(), 16);
        let run = |id: i64| runs.iter().find(|r| r.id == id).cloned();
        let Some(seven) = run(7) else {
            panic!("run 7 is gone")
        };
        assert_eq!(seven.tour, "open (start not recorded)");
        assert_eq!(seven.solver, "backtrack (order: warnsdorff)");
        assert_eq!(seven.tour_id, Some(7));
        assert!(store.show(7).is_err());
        assert!(run(1).is_some());
        let rows = stats_of(&store);
        let table = crate::render::text::archive_stats(&rows);
        let row = |name: &str, tour: &str, solver: &str| {
            rows.iter()
                .find(|r| r.puzzle.starts_with(name) && r.tour == tour && r.solver == solver)
                .map(|r| (r.runs, r.distinct))
        };
        assert_eq!(
            row("Knight 8x8", "open (start not recorded)", "backtrack"),
            Some((1, 1)),
            "{table}"
        );
        assert_eq!(
            row("Knight 8x8", "open from a1", "backtrack"),
            Some((2, 2)),
            "{table}"
        );
        assert_eq!(
            row("Knight 8x8", "open from d4", "backtrack"),
            None,
            "{table}"
        );
        assert_eq!(
            row("Giraffe", "open (start not recorded)", "warnsdorff"),
            Some((1, 1)),
            "{table}"
        );
        assert_eq!(
            row("Giraffe", "open", "warnsdorff"),
            Some((4, 4)),
            "{table}"
        );
    }

    /// The stats of the migrated archive: the groups and their figures,
    /// with the genetic solver's line.
    #[test]
    fn v1_stats_table() {
        let (_dir, path) = v1_copy();
        let store = open(&path);
        let rows = stats_of(&store);
        let got: Vec<(&str, &str, &str, u64, u64, u64)> = rows
            .iter()
            .map(|r| {
                (
                    r.puzzle.as_str(),
                    r.tour.as_str(),
                    r.solver.as_str(),
                    r.runs,
                    r.found,
                    r.distinct,
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("Giraffe 24x24, random ties", "open", "warnsdorff", 5, 5, 5),
                ("Knight 8x8", "open from a1", "backtrack", 2, 2, 2),
                ("Knight 8x8", "open from a1", "genetic", 2, 1, 1),
                ("Knight 8x8", "open from d4", "backtrack", 1, 1, 1),
                ("Knight 8x8", "closed", "backtrack", 1, 0, 0),
                ("Knight 8x8", "closed", "warnsdorff", 1, 1, 1),
                ("Bridge", "open from a5", "backtrack", 1, 1, 1),
                ("Bridge", "open from a5", "warnsdorff", 1, 0, 0),
                ("Camel 8x8", "open", "proofs", 1, 0, 0),
                ("Knight 2000x2000", "open from a1", "warnsdorff", 1, 0, 0),
            ]
        );
        let table = crate::render::text::archive_stats(&rows);
        assert!(
            table.contains("\n  found 1 different tour with an average of 3.5 generations\n"),
            "{table}"
        );
        // One board and piece: every tour kind and start of it.
        let only = store
            .stats(Some(&load("tests/data/knight8x8.ron")))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(only.len(), 5);
        assert!(only.iter().all(|r| r.puzzle == "Knight 8x8"));
    }

    /// A newer engine's archive is refused and left as it was.
    #[test]
    fn newer_schemas_are_refused() {
        let (_dir, path) = v1_copy();
        {
            let conn = Connection::open(&path).unwrap_or_else(|e| panic!("{e}"));
            assert!(
                conn.pragma_update(None, "user_version", VERSION + 1)
                    .is_ok()
            );
        }
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{e}"));
        match Archive::open(&path) {
            Err(e) => {
                assert_eq!(e.kind, ErrorKind::Archive);
                assert!(e.to_string().contains("newer engine"), "{e}");
            }
            Ok(_) => panic!("opened a newer archive"),
        }
        assert_eq!(
            std::fs::read(&path).unwrap_or_else(|e| panic!("{e}")),
            bytes
        );
    }

    /// What `run` reports is what `show` gives back: outcome (with its
    /// reason), solver and every figure.
    #[test]
    fn show_gives_back_what_was_recorded() {
        let (_dir, mut store) = fresh();
        let cases: &[(&str, &[&str])] = &[
            ("tests/data/bridge.ron", &["o5", ""]),
            ("tests/data/bridge.ron", &["a5", "warnsdorff"]),
            ("tests/data/genetic-one-generation.ron", &[]),
            ("puzzles/genetic-classic8x8.ron", &[]),
            ("puzzles/camel8x8.ron", &[]),
            ("puzzles/knight4x4.ron", &[]),
            ("tests/data/knight8x8-closed-nodes.ron", &[]),
            ("puzzles/king-rook-endpoints.ron", &[]),
            ("tests/data/giraffe-random.ron", &[]),
        ];
        for (file, args) in cases {
            let mut p = load(file);
            if let Some(start) = args.first() {
                assert!(p.set_start(start).is_ok());
            }
            if args.get(1) == Some(&"warnsdorff") {
                p.solver = crate::solve::SolverSpec::Warnsdorff(Default::default());
            }
            let r = run(&p);
            let Ok(Some(id)) = store.record(&p, &r) else {
                panic!("{file} not saved")
            };
            let Ok(Some(saved)) = store.show(id) else {
                panic!("{file} not read back")
            };
            let back = &saved.report;
            assert_eq!(back.outcome, r.outcome, "{file}");
            assert_eq!(back.solver, r.solver, "{file}");
            let (a, b) = (back.stats.elapsed, r.stats.elapsed);
            assert!(a.abs_diff(b) < Duration::from_micros(1), "{file}");
            assert_eq!(
                Stats {
                    elapsed: b,
                    ..back.stats
                },
                r.stats,
                "{file}"
            );
            assert_eq!(saved.puzzle.goal, p.goal, "{file}");
            assert_eq!(saved.puzzle.solver, p.solver, "{file}");
            let text = |q: &Puzzle, r: &Report| {
                crate::render::text::report_text(
                    &q.name,
                    &q.board,
                    q.goal.closed,
                    r,
                    Default::default(),
                )
            };
            assert_eq!(
                text(
                    &saved.puzzle,
                    &Report {
                        stats: r.stats,
                        ..back.clone()
                    }
                ),
                text(&p, &r),
                "{file}"
            );
        }
    }
}
