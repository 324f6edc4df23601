//! The archive's schema and its history: every step from an empty file to
//! the current schema, SQL and Rust alike, in one ordered list.

use std::collections::HashSet;

use rusqlite::{Transaction, params};

use super::canonical::{PuzzleKey, canonical_tour, sha256_hex};
use super::legacy;
use crate::halt::Never;
use crate::puzzle::Puzzle;
use crate::solve::Limit;

/// One step of the schema's history.
pub(super) enum Step {
    /// SQL, run as one batch.
    Sql(&'static str),
    /// Rust, for what SQL cannot do (re-reading puzzles, reading old text).
    Rust(fn(&Transaction<'_>) -> rusqlite::Result<()>),
}

/// The schema's history: each step with the version it belongs to, in the
/// order they run. `PRAGMA user_version` holds the last version reached; the
/// steps of the versions after it run in one transaction when the archive
/// is opened.
pub(super) const MIGRATIONS: &[(i64, Step)] = &[
    (1, Step::Sql(V1)),
    (2, Step::Sql(V2_COLUMNS)),
    (2, Step::Rust(regroup_v1_runs)),
    (3, Step::Sql(V3_STARTS)),
];

/// The version the steps reach.
pub(super) const VERSION: i64 = MIGRATIONS[MIGRATIONS.len() - 1].0;

/// 1: puzzles, distinct tours, runs.
const V1: &str = "CREATE TABLE puzzles (
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
    CREATE INDEX runs_by_puzzle ON runs (puzzle_id);";

/// 2: the solver as data, every counter, the outcome's reason, and puzzles
/// keyed by tour kind, start and end as well. `runs.solver` becomes
/// `solver_label` (the text people read, kept as saved) and `solver` the
/// JSON of the `SolverId`; `requested` is the JSON of the spec the run asked
/// for (`options` keeps its `{:?}`); `outcome` is an impossible run's reason
/// or the name of the limit a run gave up on; `tour` also holds a run's
/// longest path when it gave up.
const V2_COLUMNS: &str = "ALTER TABLE runs RENAME COLUMN solver TO solver_label;
    ALTER TABLE runs ADD COLUMN solver_kind TEXT NOT NULL DEFAULT '';
    ALTER TABLE runs ADD COLUMN solver TEXT NOT NULL DEFAULT '';
    ALTER TABLE runs ADD COLUMN requested TEXT NOT NULL DEFAULT '';
    ALTER TABLE runs ADD COLUMN end_square INTEGER;
    ALTER TABLE runs ADD COLUMN restarts INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE runs ADD COLUMN repairs INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE runs ADD COLUMN rotations INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE runs ADD COLUMN outcome TEXT;
    ALTER TABLE puzzles ADD COLUMN board_hash TEXT NOT NULL DEFAULT '';
    ALTER TABLE puzzles ADD COLUMN closed INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE puzzles ADD COLUMN start INTEGER;
    ALTER TABLE puzzles ADD COLUMN end_square INTEGER;
    ALTER TABLE puzzles ADD COLUMN tour TEXT NOT NULL DEFAULT '';
    CREATE INDEX puzzles_by_board ON puzzles (board_hash);";

/// 3: what a complete search from every start square did with the squares
/// (the JSON of `solve::Starts`), when it did.
const V3_STARTS: &str = "ALTER TABLE runs ADD COLUMN starts TEXT;";

/// The name a limit is saved under.
pub(super) fn limit_name(limit: Limit) -> &'static str {
    match limit {
        Limit::Time => "time",
        Limit::Nodes => "nodes",
        Limit::Generations => "generations",
        Limit::Restarts => "restarts",
    }
}

/// The limit saved as `name`.
pub(super) fn limit_named(name: &str) -> Option<Limit> {
    [
        Limit::Time,
        Limit::Nodes,
        Limit::Generations,
        Limit::Restarts,
    ]
    .into_iter()
    .find(|&l| limit_name(l) == name)
}

/// A run as schema 1 saved it.
struct OldRun {
    id: i64,
    puzzle_id: i64,
    tour_id: Option<i64>,
    name: String,
    status: String,
    label: String,
    options: String,
    closed: bool,
    start: Option<i64>,
    nodes: i64,
    generations: i64,
    tour: Option<Vec<u8>>,
    source: String,
    file: String,
}

/// 2, in Rust: every schema-1 run gets its solver as data (read from its
/// label and options) and moves to the group of its puzzle, re-read from
/// its saved text with its tour kind and start. A run whose puzzle no
/// longer reads stays in its old group, which keeps its old key; no run is
/// dropped. Groups and tours no run uses any more are removed.
fn regroup_v1_runs(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    // Old groups: board and tour kind from their text; start not recorded.
    let olds: Vec<(i64, String)> = tx
        .prepare("SELECT id, canonical FROM puzzles")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (id, text) in olds {
        let (board, kind) = text.rsplit_once("; ").unwrap_or((text.as_str(), "open"));
        tx.execute(
            "UPDATE puzzles SET board_hash = ?1, closed = ?2, tour = ?3 WHERE id = ?4",
            params![
                sha256_hex(board.as_bytes()),
                kind == "closed",
                format!("{kind} (start not recorded)"),
                id
            ],
        )?;
    }
    let ids: Vec<i64> = tx
        .prepare("SELECT id FROM runs ORDER BY id")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    // Runs are read one at a time: tours of large boards take megabytes.
    // Tours that runs staying in their old group use stay there; the others
    // move with their first run, keeping their ids, and then stay put.
    let mut pinned = HashSet::new();
    for &id in &ids {
        let run = load(tx, id)?;
        if let (None, Some(t)) = (reread(&run), run.tour_id) {
            pinned.insert(t);
        }
    }
    for &id in &ids {
        let run = load(tx, id)?;
        let adopt = run.tour_id.filter(|t| !pinned.contains(t));
        if let Some(t) = regroup(tx, &run, adopt)?.filter(|&t| Some(t) == adopt) {
            pinned.insert(t);
        }
    }
    tx.execute_batch(
        "DELETE FROM tours WHERE id NOT IN (SELECT tour_id FROM runs WHERE tour_id IS NOT NULL);
         DELETE FROM puzzles WHERE id NOT IN (SELECT puzzle_id FROM runs)
             AND id NOT IN (SELECT puzzle_id FROM tours);",
    )
}

/// Run `id` as schema 1 saved it.
fn load(tx: &Transaction<'_>, id: i64) -> rusqlite::Result<OldRun> {
    tx.query_row(
        "SELECT id, puzzle_id, tour_id, status, solver_label, options, closed, start,
                nodes, generations, tour, source, file, name
         FROM runs WHERE id = ?1",
        [id],
        |r| {
            Ok(OldRun {
                id: r.get(0)?,
                puzzle_id: r.get(1)?,
                tour_id: r.get(2)?,
                status: r.get(3)?,
                label: r.get(4)?,
                options: r.get(5)?,
                closed: r.get(6)?,
                start: r.get(7)?,
                nodes: r.get(8)?,
                generations: r.get(9)?,
                tour: r.get(10)?,
                source: r.get(11)?,
                file: r.get(12)?,
                name: r.get(13)?,
            })
        },
    )
}

/// The puzzle of an old run, as it was run, if its text still reads and
/// its start and tour are squares of its board.
fn reread(run: &OldRun) -> Option<(Puzzle, Vec<u32>)> {
    let mut p = Puzzle::parse(&run.file, &run.source).ok()?;
    p.goal.closed = run.closed;
    p.goal.start = match run.start {
        Some(s) => Some(
            u32::try_from(s)
                .ok()
                .filter(|&s| (s as usize) < p.board.len())?,
        ),
        None => None,
    };
    let tour = run
        .tour
        .as_deref()
        .map(super::from_blob)
        .unwrap_or_default();
    if tour.iter().any(|&s| s as usize >= p.board.len()) {
        return None;
    }
    Some((p, tour))
}

/// Moves `run` to its group and fills its new columns; `adopt` is its old
/// tour row, if that may move with it. Gives the run's tour id.
fn regroup(
    tx: &Transaction<'_>,
    run: &OldRun,
    adopt: Option<i64>,
) -> rusqlite::Result<Option<i64>> {
    let puzzle = reread(run);
    let requested = legacy::read_requested(&run.options, puzzle.as_ref().map(|(p, _)| &p.solver));
    let auto = puzzle.as_ref().map(|(p, _)| legacy::auto_pick(p));
    let label = legacy::read_label(&run.label, &requested, auto);
    let limit = (run.status == "gave_up")
        .then(|| legacy::gave_up_limit(&label.id, run.nodes as u64, run.generations as u64));
    let reason = match (&puzzle, run.status.as_str()) {
        (Some((p, _)), "impossible") if label.id.proofs => proof(p),
        _ => None,
    };
    let outcome = reason.or(limit.map(|l| limit_name(l).to_string()));
    let (puzzle_id, tour_id, end) = match &puzzle {
        Some((p, tour)) => {
            let canonical = (run.status == "found")
                .then(|| canonical_tour(&p.board, &p.piece, tour, p.goal.closed));
            let group = super::group_id(tx, &PuzzleKey::of(p), &run.name)?;
            let tour = match &canonical {
                Some(c) => Some(super::tour_id(tx, group, c, adopt)?),
                None => None,
            };
            (group, tour, p.goal.end)
        }
        None => (run.puzzle_id, run.tour_id, None),
    };
    let json = |e: serde_json::Error| rusqlite::Error::ToSqlConversionFailure(Box::new(e));
    tx.execute(
        "UPDATE runs SET puzzle_id = ?1, tour_id = ?2, solver_kind = ?3, solver = ?4,
            requested = ?5, end_square = ?6, restarts = ?7, repairs = ?8, rotations = ?9,
            outcome = ?10
         WHERE id = ?11",
        params![
            puzzle_id,
            tour_id,
            label.kind,
            serde_json::to_string(&label.id).map_err(json)?,
            serde_json::to_string(&requested).map_err(json)?,
            end.map(i64::from),
            legacy::restarts(&label.id, limit) as i64,
            label.repairs as i64,
            label.rotations as i64,
            outcome,
            run.id
        ],
    )?;
    Ok(tour_id)
}

/// Boards below this many squares get their proof re-read when migrated
/// (schema 1 kept no reason); it takes well under a second.
const REPROVE_BELOW: usize = 1 << 18;

/// The proof that `p` has no tour, as the proofs word it.
fn proof(p: &Puzzle) -> Option<String> {
    if p.board.len() >= REPROVE_BELOW {
        return None;
    }
    let Ok(g) = p.graph(&Never);
    let Ok(a) = crate::analysis::analyse_board(&g, &p.goal, &p.board, &p.piece, &Never);
    a.impossible
}
