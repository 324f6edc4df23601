//! The published tour counts of `tests/data/published-counts.csv`, each
//! counted by both methods — the depth-first search and the frontier — and
//! compared with the published figure.
//!
//! The table's columns:
//! - `piece`, `board`, `tour` (`open` or `closed`), `start` (a square, or
//!   `any` to sum over every start), as in a puzzle file;
//! - `counts`: what the figure counts — `directed` tours, `undirected`
//!   ones (a tour and its reverse once; directed, twice that, but on one
//!   square) or `cycles` (closed tours, each once whatever its start and
//!   direction; directed, twice that from a fixed start, and that times the
//!   squares summed over every start);
//! - `count`: the published figure;
//! - `ci`: `both` (both methods count it here), `dfs: WHY` or
//!   `frontier: WHY` (only that method counts it here, and why not the
//!   other: the frontier needs three squares, the depth-first search is too
//!   slow for the tests) or `skip: WHY` (neither, and why);
//! - `source`: where the figure is published (the rest of the line).

use engine::model::{Board, Piece};
use engine::puzzle::Puzzle;
use engine::solve::Goal;

use crate::count_frontier::{dfs, frontier_ways};

/// The table, relative to the package's root (the tests' working directory).
const TABLE: &str = "tests/data/published-counts.csv";

/// What a row's figure counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Counts {
    Directed,
    Undirected,
    Cycles,
}

/// Which counts a row gets here.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Ci {
    Both,
    /// The depth-first search only; why the frontier is left out.
    Dfs(String),
    /// The frontier only; why the depth-first search is left out.
    Frontier(String),
    /// Neither; why.
    Skip(String),
}

/// One row of the table.
#[derive(Debug)]
struct Row {
    /// Its line in the file, from 1.
    line: usize,
    puzzle: Puzzle,
    counts: Counts,
    count: u128,
    ci: Ci,
    source: String,
}

impl Row {
    /// The row's line, for messages.
    fn name(&self) -> String {
        format!(
            "{TABLE}:{}: {} on {}, {} ({})",
            self.line,
            self.puzzle.piece_text,
            self.puzzle.board.describe(),
            if self.puzzle.goal.closed {
                "closed"
            } else {
                "open"
            },
            self.source
        )
    }

    /// The (directed tours, distinct cycles) that the published figure
    /// means for this row's goal.
    fn expected(&self) -> (u128, Option<u128>) {
        let squares = self.puzzle.board.len() as u128;
        let goal = self.puzzle.goal;
        match self.counts {
            Counts::Directed => (self.count, None),
            Counts::Undirected if squares == 1 => (self.count, None),
            Counts::Undirected => (2 * self.count, None),
            Counts::Cycles => {
                assert!(
                    goal.closed && squares >= 3,
                    "{}: cycles are counted on closed goals of three squares or more",
                    self.name()
                );
                let starts = if goal.start.is_some() { 1 } else { squares };
                (2 * self.count * starts, Some(self.count))
            }
        }
    }
}

/// Parses one line of the table (`line` from 1).
fn parse_row(line: usize, text: &str) -> Row {
    let fields: Vec<&str> = text.splitn(8, ',').map(str::trim).collect();
    let [piece, board, tour, start, counts, count, ci, source] = fields[..] else {
        panic!("{TABLE}:{line}: eight fields expected: {text}");
    };
    let tour = match tour {
        "open" => "Open",
        "closed" => "Closed",
        other => panic!("{TABLE}:{line}: tour is open or closed, not {other}"),
    };
    let puzzle = crate::util::puzzle(&format!(
        r#"Puzzle(name: "{TABLE}:{line}", board: "{board}", piece: "{piece}", tour: {tour}, start: "{start}")"#
    ));
    let counts = match counts {
        "directed" => Counts::Directed,
        "undirected" => Counts::Undirected,
        "cycles" => Counts::Cycles,
        other => panic!("{TABLE}:{line}: counts is directed, undirected or cycles, not {other}"),
    };
    let count = count
        .parse()
        .unwrap_or_else(|e| panic!("{TABLE}:{line}: count {count}: {e}"));
    let ci = match ci.split_once(':') {
        None if ci == "both" => Ci::Both,
        Some(("dfs", why)) if !why.trim().is_empty() => Ci::Dfs(why.trim().into()),
        Some(("frontier", why)) if !why.trim().is_empty() => Ci::Frontier(why.trim().into()),
        Some(("skip", why)) if !why.trim().is_empty() => Ci::Skip(why.trim().into()),
        _ => panic!("{TABLE}:{line}: ci is both, dfs: WHY, frontier: WHY or skip: WHY, not {ci}"),
    };
    assert!(!source.is_empty(), "{TABLE}:{line}: no source");
    Row {
        line,
        puzzle,
        counts,
        count,
        ci,
        source: source.to_string(),
    }
}

/// Every row of the table.
fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(TABLE).unwrap_or_else(|e| panic!("{TABLE}: {e}"));
    let mut lines = text.lines().enumerate();
    let header = lines.next().map(|(_, h)| h);
    assert_eq!(
        header,
        Some("piece,board,tour,start,counts,count,ci,source"),
        "{TABLE}: the header"
    );
    lines
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| parse_row(i + 1, l))
        .collect()
}

/// Counts the row's puzzle with `count`, the counter `method`, and compares
/// the count with the published figure.
fn check(
    row: &Row,
    method: &str,
    count: fn(&Board, &Piece, Goal) -> (u128, Option<u128>),
) -> Result<(), String> {
    let p = &row.puzzle;
    let started = std::time::Instant::now();
    let (tours, cycles) = count(&p.board, &p.piece, p.goal);
    let (want_tours, want_cycles) = row.expected();
    println!(
        "{}: {method} {tours} tours{} in {:.2} s",
        row.name(),
        cycles.map_or(String::new(), |c| format!(", {c} cycles")),
        started.elapsed().as_secs_f64()
    );
    if (tours, cycles) == (want_tours, want_cycles) {
        Ok(())
    } else {
        Err(format!(
            "{}: {method} counts {tours} tours, {cycles:?} cycles; published {want_tours}, {want_cycles:?}",
            row.name()
        ))
    }
}

/// Every row of the table by both methods (or as its `ci` column says),
/// against its published figure.
#[test]
fn published_counts_by_both_methods() {
    let rows = rows();
    assert!(rows.len() >= 40, "{TABLE}: {} rows", rows.len());
    let mut failures = Vec::new();
    let (mut by_dfs, mut by_frontier) = (0, 0);
    for row in &rows {
        let (dfs_here, frontier_here) = match &row.ci {
            Ci::Both => (true, true),
            Ci::Dfs(why) => {
                println!("{}: frontier skipped: {why}", row.name());
                (true, false)
            }
            Ci::Frontier(why) => {
                println!("{}: depth-first search skipped: {why}", row.name());
                (false, true)
            }
            Ci::Skip(why) => {
                println!("{}: skipped: {why}", row.name());
                (false, false)
            }
        };
        if dfs_here {
            failures.extend(check(row, "depth-first", dfs).err());
            by_dfs += 1;
        }
        if frontier_here {
            failures.extend(check(row, "frontier", frontier_ways).err());
            by_frontier += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    println!("{by_dfs} rows counted depth-first, {by_frontier} by the frontier");
    assert!(by_dfs >= 40 && by_frontier >= 40);
}

/// The table's parser refuses what it does not know, and reads what a row
/// means.
#[test]
fn the_table_reads_as_meant() {
    let row = parse_row(
        2,
        "knight,6x6,closed,a1,cycles,9862,both,OEIS A001230 a(3), the 6x6 term",
    );
    assert_eq!(row.expected(), (19724, Some(9862)));
    assert_eq!(row.source, "OEIS A001230 a(3), the 6x6 term");
    let row = parse_row(2, "knight,6x6,closed,any,cycles,9862,skip: slow,S");
    assert_eq!(row.expected(), (36 * 19724, Some(9862)));
    assert_eq!(row.ci, Ci::Skip("slow".into()));
    let row = parse_row(2, "king,1x3,open,any,undirected,1,frontier: slow,S");
    assert_eq!(row.expected(), (2, None));
    assert_eq!(row.ci, Ci::Frontier("slow".into()));
    let row = parse_row(2, "knight,1x1,open,any,undirected,1,dfs: small,S");
    assert_eq!(row.expected(), (1, None));
    assert_eq!(row.ci, Ci::Dfs("small".into()));
    for bad in [
        "knight,5x5,open,any,directed,1728,both",
        "knight,5x5,round,any,directed,1728,both,S",
        "knight,5x5,open,any,sideways,1728,both,S",
        "knight,5x5,open,any,directed,-1,both,S",
        "knight,5x5,open,any,directed,1728,dfs,S",
        "knight,5x5,open,any,directed,1728,skip:,S",
    ] {
        let parsed = std::panic::catch_unwind(|| parse_row(2, bad));
        assert!(parsed.is_err(), "{bad} is read");
    }
}
