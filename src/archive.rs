//! The tour archive: every run saved with `run --save`, in a local SQLite
//! database. Tours equal up to the puzzle's symmetries (and, for closed
//! tours, up to start square and direction) are stored once and counted as
//! one distinct tour; every run keeps its own row.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use sha2::{Digest, Sha256};

use crate::error::Error;
use crate::model::symmetry::{square_maps, symmetries};
use crate::model::{Board, Piece};
use crate::puzzle::Puzzle;
use crate::solve::{Outcome, Report};

/// Environment variable naming the archive file (the `--archive` flag wins).
pub const ENV_VAR: &str = "ENGINE_ARCHIVE";

/// Marks a SQLite file as an engine archive (`PRAGMA application_id`).
const APPLICATION_ID: i32 = 0x454E_4731;

/// Schema migrations, in order; `PRAGMA user_version` counts those applied.
const MIGRATIONS: &[&str] = &[
    // 1: puzzles, distinct tours, runs.
    "CREATE TABLE puzzles (
        id INTEGER PRIMARY KEY,
        hash TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        canonical TEXT NOT NULL
    );
    CREATE TABLE tours (
        id INTEGER PRIMARY KEY,
        puzzle_id INTEGER NOT NULL REFERENCES puzzles(id),
        hash TEXT NOT NULL,
        canonical BLOB NOT NULL,
        UNIQUE (puzzle_id, hash)
    );
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        puzzle_id INTEGER NOT NULL REFERENCES puzzles(id),
        tour_id INTEGER REFERENCES tours(id),
        created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
        name TEXT NOT NULL,
        status TEXT NOT NULL,
        solver TEXT NOT NULL,
        options TEXT NOT NULL,
        seed INTEGER NOT NULL,
        closed INTEGER NOT NULL,
        start INTEGER,
        nodes INTEGER NOT NULL,
        backtracks INTEGER NOT NULL,
        generations INTEGER NOT NULL,
        time_ms REAL NOT NULL,
        tour BLOB,
        source TEXT NOT NULL,
        file TEXT NOT NULL
    );
    CREATE INDEX runs_by_puzzle ON runs (puzzle_id);",
];

/// An open archive.
pub struct Archive {
    conn: Connection,
    path: PathBuf,
}

/// The archive file to use: `flag`, else `$ENGINE_ARCHIVE`, else
/// `archive.sqlite` in the platform's data directory.
pub fn resolve_path(flag: Option<&Path>) -> Option<PathBuf> {
    if let Some(p) = flag {
        return Some(p.to_path_buf());
    }
    if let Some(p) = std::env::var_os(ENV_VAR).filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    directories::ProjectDirs::from("", "", "engine").map(|d| d.data_dir().join("archive.sqlite"))
}

fn db_error(path: &Path, what: &str, e: impl std::fmt::Display) -> Error {
    Error::about(&path.display().to_string(), format!("{what}: {e}"))
}

impl Archive {
    /// Opens (creating on first use) the archive at `path`. A file that is not
    /// an engine archive is refused and never written to.
    pub fn open(path: &Path) -> Result<Archive, Error> {
        let shown = path.display().to_string();
        // Only a regular file (through any symbolic link) is opened: a
        // device or a FIFO would block, or gain a stray journal beside it.
        match std::fs::metadata(path) {
            Ok(m) if !m.is_file() => {
                return Err(Error::about(
                    &shown,
                    format!(
                        "is {}, not an archive file; it was left untouched",
                        crate::output::kind_of(&m)
                    ),
                ));
            }
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(db_error(path, "cannot read the archive", e));
            }
            _ if std::fs::symlink_metadata(path).is_ok() && !path.exists() => {
                return Err(Error::about(
                    &shown,
                    "is a symbolic link to a file that does not exist; it was left untouched",
                ));
            }
            _ => {}
        }
        if path.exists() {
            let mut head = [0u8; 16];
            let read = std::fs::File::open(path)
                .and_then(|mut f| f.read(&mut head))
                .map_err(|e| db_error(path, "cannot read the archive", e))?;
            if read > 0 && (read < 16 || &head != b"SQLite format 3\0") {
                return Err(Error::about(
                    &shown,
                    "is not an engine archive (not an SQLite database); it was left untouched",
                ));
            }
        } else if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| db_error(path, "cannot create the archive's folder", e))?;
        }
        let conn =
            Connection::open(path).map_err(|e| db_error(path, "cannot open the archive", e))?;
        conn.busy_timeout(Duration::from_secs(30))
            .map_err(|e| db_error(path, "cannot open the archive", e))?;
        let mut archive = Archive {
            conn,
            path: path.to_path_buf(),
        };
        archive.check_and_migrate()?;
        Ok(archive)
    }

    fn err(&self, what: &str, e: impl std::fmt::Display) -> Error {
        db_error(&self.path, what, e)
    }

    fn check_and_migrate(&mut self) -> Result<(), Error> {
        let path = self.path.clone();
        let shown = path.display().to_string();
        // Everything is checked under the write lock, so two processes that
        // create the same new archive at once cannot see it half made.
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| db_error(&path, "is not a usable archive", e))?;
        let read = |e| db_error(&path, "is not a readable archive", e);
        let app_id: i32 = tx
            .pragma_query_value(None, "application_id", |r| r.get(0))
            .map_err(read)?;
        let tables: i64 = tx
            .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
            .map_err(read)?;
        if app_id != APPLICATION_ID && (app_id != 0 || tables > 0) {
            // Dropping `tx` rolls back; nothing was written.
            return Err(Error::whole_file(
                &shown,
                "is an SQLite database but not an engine archive; it was left untouched",
            ));
        }
        let version: i64 = tx
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(read)?;
        if version as usize > MIGRATIONS.len() {
            return Err(Error::whole_file(
                &shown,
                format!(
                    "was written by a newer engine (schema {version}; this one knows {})",
                    MIGRATIONS.len()
                ),
            ));
        }
        let upgrade = |e| db_error(&path, "cannot upgrade the archive", e);
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            tx.execute_batch(sql).map_err(upgrade)?;
            tx.pragma_update(None, "user_version", (i + 1) as i64)
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
                Err(e) => return Err(self.err("cannot set up the archive", e)),
            }
        }
        Ok(())
    }

    /// Saves one run of `puzzle` and returns its id. Interrupted runs are not
    /// saved (they say nothing about the solver) and give `None`.
    pub fn record(&mut self, puzzle: &Puzzle, report: &Report) -> Result<Option<i64>, Error> {
        let status = match &report.outcome {
            Outcome::Found(_) => "found",
            Outcome::Impossible(_) => "impossible",
            Outcome::GaveUp { .. } => "gave_up",
            Outcome::Interrupted { .. } => return Ok(None),
        };
        let canonical_puzzle = canonical_puzzle(puzzle);
        let puzzle_hash = hex(&Sha256::digest(canonical_puzzle.as_bytes()));
        let tour = match &report.outcome {
            Outcome::Found(t) => Some(t.as_slice()),
            _ => None,
        };
        let canonical =
            tour.map(|t| canonical_tour(&puzzle.board, &puzzle.piece, t, puzzle.goal.closed));
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| db_error(&self.path, "cannot lock the archive", e))?;
        let write = |e| db_error(&self.path, "cannot write to the archive", e);
        tx.execute(
            "INSERT INTO puzzles (hash, name, canonical) VALUES (?1, ?2, ?3) ON CONFLICT (hash) DO NOTHING",
            params![puzzle_hash, puzzle.name, canonical_puzzle],
        )
        .map_err(write)?;
        let puzzle_id: i64 = tx
            .query_row(
                "SELECT id FROM puzzles WHERE hash = ?1",
                [&puzzle_hash],
                |r| r.get(0),
            )
            .map_err(write)?;
        let tour_id: Option<i64> = match &canonical {
            Some(c) => {
                let blob = to_blob(c);
                let hash = hex(&Sha256::digest(&blob));
                tx.execute(
                    "INSERT INTO tours (puzzle_id, hash, canonical) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
                    params![puzzle_id, hash, blob],
                )
                .map_err(write)?;
                Some(
                    tx.query_row(
                        "SELECT id FROM tours WHERE puzzle_id = ?1 AND hash = ?2",
                        params![puzzle_id, hash],
                        |r| r.get(0),
                    )
                    .map_err(write)?,
                )
            }
            None => None,
        };
        let s = &report.stats;
        tx.execute(
            "INSERT INTO runs (puzzle_id, tour_id, name, status, solver, options, seed, closed, start,
                nodes, backtracks, generations, time_ms, tour, source, file)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
            params![
                puzzle_id,
                tour_id,
                puzzle.name,
                status,
                solver_kind(&report.solver.to_string()),
                format!("{:?}", puzzle.solver),
                puzzle.seed as i64,
                puzzle.goal.closed,
                puzzle.goal.start.map(i64::from),
                s.nodes as i64,
                s.backtracks as i64,
                s.generations as i64,
                s.elapsed.as_secs_f64() * 1e3,
                tour.map(to_blob),
                puzzle.text,
                puzzle.file,
            ],
        )
        .map_err(write)?;
        let id = tx.last_insert_rowid();
        tx.commit().map_err(write)?;
        Ok(Some(id))
    }

    /// Figures per puzzle and solver, optionally for one puzzle only.
    pub fn stats(&self, only: Option<&Puzzle>) -> Result<Vec<StatsRow>, Error> {
        let hash = only.map(|p| hex(&Sha256::digest(canonical_puzzle(p).as_bytes())));
        let read = |e| self.err("cannot read the archive", e);
        let mut stmt = self
            .conn
            .prepare(
                "SELECT p.id, p.name, r.solver, r.status, r.tour_id, r.nodes, r.generations, r.time_ms
                 FROM runs r JOIN puzzles p ON p.id = r.puzzle_id
                 WHERE ?1 IS NULL OR p.hash = ?1
                 ORDER BY p.id, r.solver, r.id",
            )
            .map_err(read)?;
        let rows = stmt
            .query_map([hash], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, Option<i64>>(4)?,
                    r.get::<_, i64>(5)?,
                    r.get::<_, i64>(6)?,
                    r.get::<_, f64>(7)?,
                ))
            })
            .map_err(read)?;
        let mut out: Vec<StatsRow> = Vec::new();
        let mut tours: Vec<Vec<i64>> = Vec::new();
        for row in rows {
            let (pid, name, solver, status, tour, nodes, generations, ms) = row.map_err(read)?;
            let same = out
                .last()
                .is_some_and(|l: &StatsRow| l.puzzle_id == pid && l.solver == solver);
            if !same {
                out.push(StatsRow {
                    puzzle_id: pid,
                    puzzle: name,
                    solver,
                    ..StatsRow::default()
                });
                tours.push(Vec::new());
            }
            let (Some(last), Some(t)) = (out.last_mut(), tours.last_mut()) else {
                continue;
            };
            last.runs += 1;
            if status == "found" {
                last.found += 1;
            }
            if let Some(id) = tour
                && !t.contains(&id)
            {
                t.push(id);
            }
            last.nodes.push(nodes as u64);
            last.generations.push(generations as u64);
            last.times_ms.push(ms);
        }
        for (row, t) in out.iter_mut().zip(&tours) {
            row.distinct = t.len() as u64;
        }
        Ok(out)
    }

    /// The most recent runs, newest first.
    pub fn list(&self, limit: usize) -> Result<Vec<RunRow>, Error> {
        let read = |e| self.err("cannot read the archive", e);
        let mut stmt = self
            .conn
            .prepare(
                "SELECT id, created, name, solver, status, nodes, generations, time_ms, tour_id
                 FROM runs ORDER BY id DESC LIMIT ?1",
            )
            .map_err(read)?;
        let rows = stmt
            .query_map([limit as i64], |r| {
                Ok(RunRow {
                    id: r.get(0)?,
                    created: r.get(1)?,
                    name: r.get(2)?,
                    solver: r.get(3)?,
                    status: r.get(4)?,
                    nodes: r.get::<_, i64>(5)? as u64,
                    generations: r.get::<_, i64>(6)? as u64,
                    time_ms: r.get(7)?,
                    tour_id: r.get(8)?,
                })
            })
            .map_err(read)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(read)
    }

    /// One saved run: its puzzle (re-read from the saved file text) and tour.
    pub fn show(&self, id: i64) -> Result<Option<SavedRun>, Error> {
        let read = |e| self.err("cannot read the archive", e);
        let row = self
            .conn
            .query_row(
                "SELECT source, file, closed, start, tour, status, solver, nodes, backtracks,
                        generations, time_ms, created, seed
                 FROM runs WHERE id = ?1",
                [id],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, bool>(2)?,
                        r.get::<_, Option<i64>>(3)?,
                        r.get::<_, Option<Vec<u8>>>(4)?,
                        r.get::<_, String>(5)?,
                        r.get::<_, String>(6)?,
                        (
                            r.get::<_, i64>(7)?,
                            r.get::<_, i64>(8)?,
                            r.get::<_, i64>(9)?,
                        ),
                        r.get::<_, f64>(10)?,
                        r.get::<_, String>(11)?,
                        r.get::<_, i64>(12)?,
                    ))
                },
            )
            .optional()
            .map_err(read)?;
        let Some((source, file, closed, start, tour, status, solver, counts, ms, created, seed)) =
            row
        else {
            return Ok(None);
        };
        let mut puzzle = Puzzle::parse(&file, &source)?;
        puzzle.goal.closed = closed;
        puzzle.goal.start = start.map(|s| s as u32);
        puzzle.seed = seed as u64;
        let tour = tour.map(|b| from_blob(&b)).unwrap_or_default();
        if tour.iter().any(|&s| s as usize >= puzzle.board.len()) {
            return Err(self.err(
                "holds a damaged run",
                format!("run {id} names squares off its board"),
            ));
        }
        let outcome = match status.as_str() {
            "found" => Outcome::Found(tour),
            "impossible" => Outcome::Impossible("saved as proven impossible".to_string()),
            _ => Outcome::GaveUp {
                limit: crate::solve::Limit::Time,
                best: tour,
            },
        };
        let stats = crate::solve::Stats {
            nodes: counts.0 as u64,
            backtracks: counts.1 as u64,
            generations: counts.2 as u64,
            elapsed: Duration::from_secs_f64(ms.max(0.0) / 1e3),
            ..crate::solve::Stats::default()
        };
        let _ = solver;
        let solver = crate::solve::SolverId::default();
        Ok(Some(SavedRun {
            puzzle,
            report: Report {
                outcome,
                stats,
                solver,
            },
            created,
        }))
    }

    /// Where the archive lives.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// A run read back from the archive.
pub struct SavedRun {
    /// The puzzle as it was run (file text re-read, overrides re-applied).
    pub puzzle: Puzzle,
    /// The outcome and stats as saved.
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
    /// Solver.
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
}

/// A line of `archive stats`: one puzzle and one solver.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StatsRow {
    /// Puzzle id in the archive.
    pub puzzle_id: i64,
    /// Puzzle name.
    pub puzzle: String,
    /// Solver.
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

/// The solver's name without the note `Auto` adds.
fn solver_kind(solver: &str) -> String {
    solver.split(" [").next().unwrap_or(solver).to_string()
}

/// A text that is equal for two puzzles exactly when they have the same
/// squares, the same move set and the same tour kind.
pub fn canonical_puzzle(p: &Puzzle) -> String {
    let b = &p.board;
    let mut removed = Vec::new();
    for y in 0..b.height() {
        for x in 0..b.width() {
            if !b.is_square(crate::model::Cell::new(x, y)) {
                removed.push(format!("{x},{y}"));
            }
        }
    }
    let mut moves: Vec<String> = p
        .piece
        .moves()
        .iter()
        .map(|m| {
            // Lame moves are marked; plain ones read as before, so archives
            // made before lame moves existed keep their puzzles.
            let lame = if m.lame { ",n" } else { "" };
            format!("{},{},{}{lame}", m.dx, m.dy, m.range)
        })
        .collect();
    moves.sort();
    moves.dedup();
    format!(
        "board {}x{} {} removed [{}]; moves [{}]; {}",
        b.width(),
        b.height(),
        b.topology(),
        removed.join(" "),
        moves.join(" "),
        if p.goal.closed { "closed" } else { "open" }
    )
}

/// The canonical form of a tour: the lexicographically least of its images
/// under the puzzle's symmetries; a closed tour is first rotated to start on
/// square 0 and read in the direction whose second square is smaller.
pub fn canonical_tour(board: &Board, piece: &Piece, tour: &[u32], closed: bool) -> Vec<u32> {
    let maps = square_maps(board, &symmetries(board, piece));
    let mut best: Option<Vec<u32>> = None;
    let mut image = Vec::with_capacity(tour.len());
    for map in &maps {
        image.clear();
        image.extend(tour.iter().map(|&s| map[s as usize]));
        if closed && !image.is_empty() {
            let n = image.len();
            let at = image.iter().position(|&s| s == 0).unwrap_or(0);
            image.rotate_left(at);
            if n > 2 && image[n - 1] < image[1] {
                image[1..].reverse();
            }
        }
        if best.as_ref().is_none_or(|b| image < *b) {
            best = Some(image.clone());
        }
    }
    best.unwrap_or_default()
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

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halt::Never;
    use crate::solve::Goal;
    use crate::verify::verify;

    fn knight5() -> (Board, Piece) {
        (Board::rectangle(5, 5), Piece::leaper(1, 2, 1))
    }

    /// A verified tour found by the backtracker.
    fn solved(b: &Board, p: &Piece, goal: &Goal) -> Vec<u32> {
        let Ok(g) = crate::model::MoveGraph::build(b, p, &Never);
        let task = crate::solve::Task::new(&g, b, p, *goal);
        let r = crate::solve::Solver::solve_quietly(
            &crate::solve::backtrack::BacktrackOptions::default(),
            &task,
        );
        let Outcome::Found(tour) = r.outcome else {
            panic!("a tour exists")
        };
        assert_eq!(verify(b, p, goal, &tour), Ok(()));
        tour
    }

    #[test]
    fn mirror_images_are_one_tour() {
        let (b, p) = knight5();
        let goal = Goal {
            start: Some(0),
            ..Goal::default()
        };
        let tour = solved(&b, &p, &goal);
        let maps = square_maps(&b, &symmetries(&b, &p));
        assert_eq!(maps.len(), 8);
        let c = canonical_tour(&b, &p, &tour, false);
        for m in &maps {
            let image: Vec<u32> = tour.iter().map(|&s| m[s as usize]).collect();
            assert_eq!(verify(&b, &p, &Goal::default(), &image), Ok(()));
            assert_eq!(canonical_tour(&b, &p, &image, false), c);
        }
        // Reversal of an open tour is another tour.
        let mut rev = tour.clone();
        rev.reverse();
        assert_ne!(canonical_tour(&b, &p, &rev, false), c);
    }

    #[test]
    fn closed_tours_ignore_start_and_direction() {
        let b = Board::rectangle(6, 6);
        let p = Piece::leaper(1, 2, 1);
        let goal = Goal {
            closed: true,
            ..Goal::default()
        };
        let tour = solved(&b, &p, &goal);
        let c = canonical_tour(&b, &p, &tour, true);
        let mut other = tour.clone();
        other.rotate_left(7);
        other.reverse();
        assert_eq!(verify(&b, &p, &goal, &other), Ok(()));
        assert_eq!(canonical_tour(&b, &p, &other, true), c);
    }
}
