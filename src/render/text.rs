//! Terminal output: the numbered board, the move list, the stats line, and
//! the JSON form of a result.

use std::fmt::Write as _;

use rayon::prelude::*;
use unicode_width::UnicodeWidthStr;

use crate::analysis::{Analysis, Classes};
use crate::archive::{RunRow, StatsRow};
use crate::count::frontier::FrontierCounted;
use crate::count::{Counted, Shard};
use crate::halt::Stop;
use crate::model::{Board, Cell, Goal, Piece, TourSymmetry, file_name};
use crate::solve::starts::StartRule;
use crate::solve::symmetric::SymmetricCount;
use crate::solve::{Outcome, Report, SolverSpec};
use crate::words::{counted, many};

/// Boards wider or taller than this print a summary instead of the grid
/// unless the grid is asked for.
pub const GRID_MAX_SIDE: u32 = 40;

/// The board with each visited square's step number (1-based); removed
/// squares are `#`, unvisited squares `.`.
pub fn grid(board: &Board, path: &[u32]) -> String {
    let n = board.len();
    let mut step = vec![0usize; n];
    for (i, &s) in path.iter().enumerate() {
        step[s as usize] = i + 1;
    }
    grid_with(board, n.to_string().len().max(2), |s| {
        match step[s as usize] {
            0 => ".".to_string(),
            k => k.to_string(),
        }
    })
}

/// The board as a grid with rank numbers and file letters, each square
/// showing `cell(square)` right-aligned in `w` columns and removed squares
/// as `#`.
pub fn grid_with(board: &Board, w: usize, cell: impl Fn(u32) -> String) -> String {
    let rank_w = board.height().to_string().len();
    let mut out = String::new();
    for y in (0..board.height()).rev() {
        let _ = write!(out, "{:>rank_w$} |", y + 1);
        for x in 0..board.width() {
            let text = match board.square_at(Cell::new(x, y)) {
                None => "#".repeat(w),
                Some(s) => format!("{:>w$}", cell(s)),
            };
            out.push(' ');
            out.push_str(&text);
        }
        out.push('\n');
    }
    let _ = write!(out, "{:>rank_w$}  ", "");
    for x in 0..board.width() {
        let _ = write!(out, " {:>w$}", crate::model::file_name(x));
    }
    out.push('\n');
    out
}

/// Whether the grid of `board` is small enough to read.
pub fn grid_fits(board: &Board) -> bool {
    board.width() <= GRID_MAX_SIDE && board.height() <= GRID_MAX_SIDE
}

/// The squares of `path` in algebraic notation, space-separated.
pub fn move_list(board: &Board, path: &[u32]) -> String {
    let mut out = String::with_capacity(path.len() * 4);
    push_move_list(&mut out, board, path);
    out
}

/// Appends the move list to `out` (no allocation per square: a 4096x4096
/// tour has 16 million names).
pub fn push_move_list(out: &mut String, board: &Board, path: &[u32]) {
    each_move_list_part(board, path, |part| out.push_str(part));
}

/// Hands the move list to `emit` in parts, in order (names separated by
/// spaces).
fn each_move_list_part(board: &Board, path: &[u32], emit: impl FnMut(&str)) {
    let names = Names::of(board);
    each_part(board, path, " ", |out, c| names.push(out, c), emit);
}

/// Every file's letters and every rank's number, so a name is two copies.
struct Names {
    files: Vec<String>,
    ranks: Vec<String>,
}

impl Names {
    fn of(board: &Board) -> Names {
        Names {
            files: (0..board.width()).map(file_name).collect(),
            ranks: (1..=board.height()).map(|r| r.to_string()).collect(),
        }
    }

    /// Appends the algebraic name of `c`.
    fn push(&self, out: &mut String, c: Cell) {
        out.push_str(&self.files[c.x as usize]);
        out.push_str(&self.ranks[c.y as usize]);
    }
}

/// Hands `path`, each square written by `one` and `sep` between squares, to
/// `emit` in parts, in order: a few megabytes at a time, formatted in
/// chunks on every core (a 4096x4096 tour has 16 million squares).
fn each_part(
    board: &Board,
    path: &[u32],
    sep: &str,
    one: impl Fn(&mut String, Cell) + Sync,
    mut emit: impl FnMut(&str),
) {
    for (b, batch) in path.chunks(1 << 20).enumerate() {
        let parts: Vec<String> = batch
            .par_chunks(1 << 16)
            .enumerate()
            .map(|(i, chunk)| {
                let mut part = String::with_capacity(chunk.len() * 10);
                for (j, &s) in chunk.iter().enumerate() {
                    // A separator before every square but the very first.
                    if b + i + j > 0 {
                        part.push_str(sep);
                    }
                    one(&mut part, board.cell(s));
                }
                part
            })
            .collect();
        for part in &parts {
            emit(part);
        }
    }
}

/// A human-readable duration.
pub fn duration(d: std::time::Duration) -> String {
    let s = d.as_secs_f64();
    if s < 1e-3 {
        format!("{:.1} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}

/// The one-line stats summary.
pub fn stats_line(report: &Report) -> String {
    let s = &report.stats;
    let mut parts = vec![format!("solver: {}", report.solver)];
    if s.generations > 0 {
        parts.push(format!("generations: {}", s.generations));
    }
    if s.nodes > 0 || s.generations == 0 {
        parts.push(format!("nodes: {}", s.nodes));
    }
    if s.backtracks > 0 {
        parts.push(format!("backtracks: {}", s.backtracks));
    }
    if s.restarts > 0 {
        parts.push(format!("restarts: {}", s.restarts));
    }
    if s.repairs > 0 {
        parts.push(format!("repairs: {}", s.repairs));
    }
    if s.rotations > 0 {
        parts.push(format!("rotations: {}", s.rotations));
    }
    parts.push(format!("time: {}", duration(s.elapsed)));
    parts.join(" · ")
}

/// What a search from every start square did with them, for the line
/// after the stats: `starts: 19 searched, 20 ruled out (colours: d1 f1 …)`.
/// None when the search had a fixed start.
pub fn starts_line(report: &Report, board: &Board) -> Option<String> {
    let st = report.starts.as_ref()?;
    let mut parts = vec![if st.searched == st.candidates {
        format!("{} searched", st.searched)
    } else {
        format!("{} of {} searched", st.searched, st.candidates)
    }];
    if st.images > 0 {
        parts.push(format!("{} left out as mirror images", st.images));
    }
    if !st.ruled_out.is_empty() {
        let mut rules: Vec<(StartRule, Vec<u32>)> = Vec::new();
        for &(s, r) in &st.ruled_out {
            match rules.iter_mut().find(|(q, _)| *q == r) {
                Some((_, v)) => v.push(s),
                None => rules.push((r, vec![s])),
            }
        }
        let groups: Vec<String> = rules
            .iter()
            .map(|(r, v)| {
                let mut names: Vec<String> = v.iter().take(8).map(|&s| board.name(s)).collect();
                if v.len() > 8 {
                    names.push(format!("and {} more", v.len() - 8));
                }
                format!("{}: {}", r.name(), names.join(" "))
            })
            .collect();
        parts.push(format!(
            "{} ruled out ({})",
            st.ruled_out.len(),
            groups.join("; ")
        ));
    }
    Some(format!("starts: {}", parts.join(", ")))
}

/// Where the textbook rule (`Warnsdorff(repair: false)`) got stuck, when
/// it gave up: the path printed is a walk of the rule, and its last square
/// is where the rule had nowhere to go (or, with every square visited,
/// where the walk ended out of place).
pub fn stuck_line(report: &Report, board: &Board, closed: bool) -> Option<String> {
    let Outcome::GaveUp { best, .. } = &report.outcome else {
        return None;
    };
    if !matches!(report.solver.ran.last(), Some(SolverSpec::Warnsdorff(o)) if o.repair == Some(false))
    {
        return None;
    }
    let &last = best.last()?;
    let n = board.len();
    let at = board.name(last);
    if best.len() < n {
        let mut seen = vec![false; n];
        for &s in best {
            seen[s as usize] = true;
        }
        let left: Vec<u32> = (0..n as u32).filter(|&s| !seen[s as usize]).collect();
        let mut names: Vec<String> = left.iter().take(8).map(|&s| board.name(s)).collect();
        if left.len() > 8 {
            names.push(format!("and {} more", left.len() - 8));
        }
        Some(format!(
            "Stuck on {at} after {} of {n} squares: the rule has no square to go on to (unvisited: {}).",
            best.len(),
            names.join(" ")
        ))
    } else if closed {
        Some(format!(
            "The walk visits every square but ends on {at}, not one move from its start."
        ))
    } else {
        Some(format!(
            "The walk visits every square but ends on {at}, not on the end square."
        ))
    }
}

/// The headline: what happened.
pub fn status_line(report: &Report, board: &Board, closed: bool) -> String {
    let kind = if closed { "closed" } else { "open" };
    // The symmetric solver proves only that no symmetric tour exists.
    let kind = if report.solver.kind() == "symmetric" {
        format!("symmetric {kind}")
    } else {
        kind.to_string()
    };
    match &report.outcome {
        Outcome::Found(t) => format!(
            "Found an {kind} tour of {}.",
            counted(t.len() as u64, "square")
        )
        .replace("an closed", "a closed")
        .replace("an symmetric", "a symmetric"),
        Outcome::Impossible(why) => format!("No {kind} tour exists: {why}."),
        Outcome::GaveUp { limit, best } => format!(
            "Gave up: the {limit} ran out; nothing is proven. Longest path: {} of {} squares.",
            best.len(),
            board.len()
        ),
        Outcome::Interrupted { best } => format!(
            "Interrupted. Longest path so far: {} of {} squares.",
            best.len(),
            board.len()
        ),
    }
}

/// The whole text output of `run`.
pub fn report_text(
    title: &str,
    board: &Board,
    closed: bool,
    report: &Report,
    force_grid: bool,
) -> String {
    written(|w| write_report_text(w, title, board, closed, report, force_grid))
}

/// What `write` writes, as a string (writing to memory cannot fail).
fn written(write: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> String {
    let mut out = Vec::new();
    let _ = write(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// [`report_text`], written to `w` as it is made: a 4096x4096 tour's move
/// list is over 100 MB and need not be held whole.
pub fn write_report_text(
    w: &mut dyn std::io::Write,
    title: &str,
    board: &Board,
    closed: bool,
    report: &Report,
    force_grid: bool,
) -> std::io::Result<()> {
    let mut out = String::new();
    let _ = writeln!(out, "{title}");
    let _ = writeln!(out, "{}", status_line(report, board, closed));
    let path = report.outcome.path();
    if !path.is_empty() {
        if force_grid || grid_fits(board) {
            out.push('\n');
            out.push_str(&grid(board, path));
        } else {
            let _ = writeln!(
                out,
                "(the {}x{} grid is too large to print; --grid prints it anyway)",
                board.width(),
                board.height()
            );
        }
        let label = if matches!(report.outcome, Outcome::Found(_)) {
            "Tour"
        } else {
            "Path"
        };
        let _ = write!(out, "\n{label}: ");
        w.write_all(out.as_bytes())?;
        out.clear();
        let mut failed = Ok(());
        each_move_list_part(board, path, |part| {
            if failed.is_ok() {
                failed = w.write_all(part.as_bytes());
            }
        });
        failed?;
        out.push('\n');
        if let Some(line) = stuck_line(report, board, closed) {
            let _ = writeln!(out, "{line}");
        }
    }
    let _ = writeln!(out, "\n{}", stats_line(report));
    if let Some(line) = starts_line(report, board) {
        let _ = writeln!(out, "{line}");
    }
    w.write_all(out.as_bytes())
}

/// The JSON object of a `run` result.
pub fn report_json(
    name: &str,
    board: &Board,
    piece: &Piece,
    closed: bool,
    report: &Report,
) -> String {
    written(|w| write_report_json(w, name, board, piece, closed, report, None))
}

/// [`report_json`], written to `w` as it is made. The two per-square arrays
/// (`squares`, the names, and `tour`, the `[x, y]` pairs) are streamed: for
/// a 4096x4096 tour a JSON value in memory would take gigabytes. `saved`
/// is the run's id in the archive, if it was saved.
pub fn write_report_json(
    w: &mut dyn std::io::Write,
    name: &str,
    board: &Board,
    piece: &Piece,
    closed: bool,
    report: &Report,
    saved: Option<i64>,
) -> std::io::Result<()> {
    let path = report.outcome.path();
    let status = match &report.outcome {
        Outcome::Found(_) => "found",
        Outcome::Impossible(_) => "impossible",
        Outcome::GaveUp { .. } => "gave_up",
        Outcome::Interrupted { .. } => "interrupted",
    };
    let reason = match &report.outcome {
        Outcome::Impossible(why) => Some(why.clone()),
        Outcome::GaveUp { limit, .. } => Some(limit.to_string()),
        _ => None,
    };
    let s = &report.stats;
    let head = serde_json::json!({
        "name": name,
        "status": status,
        "reason": reason,
        "closed": closed,
        "solver": report.solver.to_string(),
        "solver_kind": report.solver.kind(),
        "board": { "width": board.width(), "height": board.height(), "squares": board.len(),
                   "topology": board.topology().to_string() },
        "piece": piece.to_string(),
        "run_id": saved,
        "stats": {
            "nodes": s.nodes,
            "backtracks": s.backtracks,
            "generations": s.generations,
            "restarts": s.restarts,
            "repairs": s.repairs,
            "rotations": s.rotations,
            "time_ms": s.elapsed.as_secs_f64() * 1e3,
        },
        "starts": report.starts.as_ref().map(|st| serde_json::json!({
            "candidates": st.candidates,
            "searched": st.searched,
            "images": st.images,
            "ruled_out": st.ruled_out.iter().map(|&(sq, r)| serde_json::json!({
                "square": board.name(sq),
                "rule": r.name(),
            })).collect::<Vec<_>>(),
        })),
    })
    .to_string();
    // The object without its closing brace, then the two arrays.
    let head = head.strip_suffix('}').unwrap_or(&head);
    w.write_all(head.as_bytes())?;
    let mut failed = Ok(());
    let mut emit = |part: &str| {
        if failed.is_ok() {
            failed = w.write_all(part.as_bytes());
        }
    };
    // Square names are letters and digits: nothing to escape.
    emit(",\"squares\":[");
    let names = Names::of(board);
    each_part(
        board,
        path,
        ",",
        |out, c| {
            out.push('"');
            names.push(out, c);
            out.push('"');
        },
        &mut emit,
    );
    emit("],\"tour\":[");
    let xs: Vec<String> = (0..board.width()).map(|x| x.to_string()).collect();
    let ys: Vec<String> = (0..board.height()).map(|y| y.to_string()).collect();
    each_part(
        board,
        path,
        ",",
        |out, c| {
            out.push('[');
            out.push_str(&xs[c.x as usize]);
            out.push(',');
            out.push_str(&ys[c.y as usize]);
            out.push(']');
        },
        &mut emit,
    );
    emit("]}");
    failed
}

/// The letter of part `i` in `engine check`'s grid: A–Z, then a–z, then `*`.
pub fn part_letter(i: u32) -> char {
    match i {
        0..26 => (b'A' + i as u8) as char,
        26..52 => (b'a' + (i - 26) as u8) as char,
        _ => '*',
    }
}

/// The text of `engine check`: the board (each square lettered by its part
/// when the move graph falls apart; `parts` gives each square's part), the
/// piece and its moves, the square and move counts, what the parts and the
/// two classes of squares are, the theorems that apply, and the proof that
/// no tour exists or the lack of one.
pub fn check_report(
    title: &str,
    board: &Board,
    piece_text: &str,
    piece: &Piece,
    a: &Analysis,
    parts: Option<&[u32]>,
    force_grid: bool,
) -> String {
    let mut out = String::new();
    out.push_str(title);
    out.push_str("\n\n");
    if force_grid || grid_fits(board) {
        match parts.filter(|_| a.components > 1) {
            Some(label) => {
                out.push_str(&grid_with(board, file_name(board.width() - 1).len(), |s| {
                    part_letter(label[s as usize]).to_string()
                }))
            }
            None => out.push_str(&grid(board, &[])),
        }
    } else {
        out.push_str("(board too large to print; --grid prints it anyway)\n");
    }
    let _ = write!(
        out,
        "\nPiece: {piece_text}\nMoves: {piece}\n\n{}",
        move_diagram(piece)
    );
    let _ = writeln!(
        out,
        "\nSquares: {} ({} removed)\nMoves on this board: {}{}",
        a.squares,
        board.removed_count(),
        a.moves,
        if a.symmetric {
            ""
        } else {
            " (some cannot be made back)"
        }
    );
    let hist: Vec<String> = a
        .degree_histogram
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .map(|(d, c)| format!("{d}: {c}"))
        .collect();
    let _ = writeln!(out, "Degrees (moves: squares): {}", hist.join(", "));
    let stuck = a.degree_histogram.first().copied().unwrap_or(0);
    if stuck > 0 {
        let mut names: Vec<String> = a.no_moves.iter().map(|&s| board.name(s)).collect();
        if stuck > names.len() {
            names.push(format!("and {} more", stuck - names.len()));
        }
        let _ = writeln!(out, "Squares with no moves: {}", names.join(", "));
    }
    if a.components > 1 {
        let lettered = if parts.is_some() && (force_grid || grid_fits(board)) {
            ", lettered in the grid"
        } else {
            ""
        };
        let _ = writeln!(out, "Connected parts: {}{lettered}", a.components);
        for (i, p) in a.parts.iter().enumerate() {
            let _ = writeln!(
                out,
                "  {}  {}, from {}",
                part_letter(i as u32),
                counted(p.size as u64, "square"),
                board.name(p.first)
            );
        }
        if a.components > a.parts.len() {
            let _ = writeln!(out, "  … and {} more", a.components - a.parts.len());
        }
        if a.colour_bound {
            let _ = writeln!(
                out,
                "The piece ({piece_text}) is colour-bound: every move keeps the colour of its square, so it never reaches the other colour."
            );
        }
    } else {
        let _ = writeln!(out, "Connected parts: 1");
    }
    if let (Some(k), Some((x, y))) = (a.classes, a.bipartite) {
        let mut moves = k.moves().to_string();
        if let Some(first) = moves.get_mut(0..1) {
            first.make_ascii_uppercase();
        }
        let _ = writeln!(out, "{moves}: {x} {} and {y} {}", k.plural(0), k.plural(1));
    }
    for note in &a.notes {
        let mut note = note.clone();
        if let Some(first) = note.get_mut(0..1) {
            first.make_ascii_uppercase();
        }
        let _ = writeln!(out, "{note}.");
    }
    match &a.impossible {
        Some(proof) => {
            let _ = writeln!(out, "\nNo tour exists: {proof}.");
        }
        None => {
            out.push_str("\nNo quick proof that a tour is impossible; `engine run` searches.\n")
        }
    }
    out
}

/// The JSON object of `engine check` (keys in the README): the analysis,
/// or, when a limit or Ctrl-C stopped the checks (`Err`), what stopped them,
/// with every finding `null` and nothing proven.
pub fn check_json(
    name: &str,
    board: &Board,
    piece_text: &str,
    piece: &Piece,
    analysis: Result<&Analysis, Stop>,
) -> String {
    let header = serde_json::json!({
        "name": name,
        "board": { "width": board.width(), "height": board.height(), "squares": board.len(),
                   "removed": board.removed_count(), "topology": board.topology().to_string() },
        "piece": piece_text,
        "moves_of_piece": piece.to_string(),
    });
    let a = match analysis {
        Ok(a) => a,
        Err(stop) => {
            let mut v = header;
            if let Some(o) = v.as_object_mut() {
                for key in [
                    "moves",
                    "symmetric",
                    "degrees",
                    "no_moves",
                    "parts",
                    "colour_bound",
                    "classes",
                    "theorems",
                    "proof",
                ] {
                    o.insert(key.into(), serde_json::Value::Null);
                }
                o.insert("impossible".into(), false.into());
                o.insert("stopped".into(), stop.to_string().into());
            }
            return v.to_string();
        }
    };
    let degrees: Vec<serde_json::Value> = a
        .degree_histogram
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .map(|(d, c)| serde_json::json!({ "moves": d, "squares": c }))
        .collect();
    let classes = match (a.classes, a.bipartite) {
        (Some(k), Some((x, y))) => serde_json::json!({
            "kind": match k {
                Classes::BoardColours => "board_colours",
                Classes::Files => "files",
                Classes::Ranks => "ranks",
                Classes::Unnamed => "unnamed",
            },
            "sizes": [x, y],
            "names": [k.plural(0), k.plural(1)],
        }),
        _ => serde_json::Value::Null,
    };
    let findings = serde_json::json!({
        "moves": a.moves,
        "symmetric": a.symmetric,
        "degrees": degrees,
        "no_moves": {
            "count": a.degree_histogram.first().copied().unwrap_or(0),
            "squares": a.no_moves.iter().map(|&s| board.name(s)).collect::<Vec<_>>(),
        },
        "parts": {
            "count": a.components,
            "listed": a.parts.iter().map(|p| serde_json::json!({
                "first": board.name(p.first), "size": p.size,
            })).collect::<Vec<_>>(),
        },
        "colour_bound": a.colour_bound,
        "classes": classes,
        "theorems": a.notes,
        "impossible": a.impossible.is_some(),
        "proof": a.impossible,
        "stopped": null,
    });
    let mut v = header;
    if let (Some(o), serde_json::Value::Object(f)) = (v.as_object_mut(), findings) {
        o.extend(f);
    }
    v.to_string()
}

/// How a count ended, for [`count_json`].
pub enum CountEnd<'c> {
    /// A proof that there is no tour: the count is 0 without a search.
    Proven(&'c str),
    /// The count ran (to the end, or stopped with a lower bound).
    Counted(&'c Counted),
    /// Stopped before counting began (building the graph or the proofs).
    StoppedBefore(Stop),
    /// A frontier count ran (to the end, or stopped with no count).
    Frontier(&'c FrontierCounted),
    /// The clue search counted the solutions of a puzzle with this many
    /// clues (its `tours` are the solutions; no cycles).
    Clued(&'c Counted, usize),
    /// The tours a symmetry maps onto themselves were counted (or proved
    /// none, or stopped).
    Symmetric(&'c SymmetricCount, TourSymmetry),
}

/// The JSON object of `engine count` (keys in the README). Counts are
/// exact integers and may exceed 2^53.
pub fn count_json(
    name: &str,
    board: &Board,
    goal: &Goal,
    end: &CountEnd<'_>,
    shard: Option<Shard>,
) -> String {
    let (status, tours, cycles_x2, proof, stopped, counted) = match end {
        CountEnd::Proven(proof) => (
            "proven",
            0,
            goal.closed.then_some(0),
            Some(proof.to_string()),
            None,
            None,
        ),
        CountEnd::Counted(c) | CountEnd::Clued(c, _) => (
            if c.complete() { "complete" } else { "stopped" },
            c.tours,
            c.cycles_x2,
            None,
            c.stopped.map(|s| s.to_string()),
            Some(c),
        ),
        CountEnd::StoppedBefore(stop) => ("stopped", 0, None, None, Some(stop.to_string()), None),
        CountEnd::Frontier(c) => (
            if c.complete() { "complete" } else { "stopped" },
            c.tours,
            c.cycles_x2,
            None,
            c.stopped.map(|s| s.to_string()),
            None,
        ),
        CountEnd::Symmetric(c, _) => (
            match (&c.proof, c.stopped) {
                (Some(_), _) => "proven",
                (None, Some(_)) => "stopped",
                (None, None) => "complete",
            },
            c.tours,
            c.cycles_x2,
            c.proof.clone(),
            c.stopped.map(|s| s.to_string()),
            None,
        ),
    };
    let method = match end {
        CountEnd::Counted(_) => Some("dfs"),
        CountEnd::Frontier(_) => Some("frontier"),
        CountEnd::Clued(..) => Some("clues"),
        CountEnd::Symmetric(..) => Some("symmetric"),
        _ => None,
    };
    let symmetry = match end {
        CountEnd::Symmetric(c, sym) => Some(serde_json::json!({
            "name": format!("{sym:?}"),
            "turned": c.turned,
            "folded": c.folded,
            "searches": c.searches,
        })),
        _ => None,
    };
    // A symmetric count is one search on one thread, like a clue count.
    let one_search = match end {
        CountEnd::Symmetric(c, _) => Some(Counted::one_search(
            c.tours,
            c.cycles_x2,
            c.stopped,
            c.stats,
        )),
        _ => None,
    };
    let counted = counted.copied().or(one_search.as_ref());
    let clues = match end {
        CountEnd::Clued(_, k) => Some(*k),
        _ => None,
    };
    let frontier = match end {
        CountEnd::Frontier(c) => Some(serde_json::json!({
            "sweep": match c.sweep {
                crate::count::frontier::Sweep::Files => "files",
                crate::count::frontier::Sweep::Ranks => "ranks",
                crate::count::frontier::Sweep::Greedy => "greedy",
            },
            "width": c.width,
            "squares": c.squares_total,
            "squares_done": c.squares_done,
            "peak_states": c.peak_states,
            "peak_bytes": c.peak_bytes,
            "count_bits": c.count_bits,
            "threads": c.threads,
            "time_ms": c.elapsed.as_secs_f64() * 1e3,
        })),
        _ => None,
    };
    let exact = status != "stopped";
    // Halving is for the whole count only: a shard's half may be odd.
    let cycles = cycles_x2.filter(|_| shard.is_none()).map(|c| c.div_ceil(2));
    serde_json::json!({
        "name": name,
        "subject": match end {
            CountEnd::Symmetric(_, sym) => symmetric_subject(board, goal, *sym, false),
            _ => clues.map_or_else(
                || count_subject(board, goal, false),
                |k| clued_subject(goal.closed, k, false)
            ),
        },
        "closed": goal.closed,
        "start": goal.start.map(|s| board.name(s)),
        "end": goal.end.map(|s| board.name(s)),
        "status": status,
        "exact": exact,
        "tours": tours,
        "cycles": cycles,
        "cycles_x2": cycles_x2,
        "proof": proof,
        "stopped": stopped,
        "shard": shard.map(|s| serde_json::json!({ "k": s.k(), "n": s.n() })),
        "method": method,
        "clues": clues,
        "symmetry": symmetry,
        "frontier": frontier,
        "stats": counted.map(|c| serde_json::json!({
            "symmetries": c.symmetries,
            "tasks": c.listed.then_some(c.tasks),
            "tasks_done": c.tasks_done,
            "tasks_all": c.listed.then_some(c.tasks_all),
            "depth": c.depth,
            "threads": c.threads,
            "nodes": c.stats.nodes,
            "time_ms": c.stats.elapsed.as_secs_f64() * 1e3,
        })),
    })
    .to_string()
}

/// What `engine count` counts, in words: `directed open tours from a1`
/// (`one`: the singular).
pub fn count_subject(board: &Board, goal: &Goal, one: bool) -> String {
    format!(
        "directed {} {}{}",
        if goal.closed { "closed" } else { "open" },
        if one { "tour" } else { "tours" },
        count_ends(board, goal)
    )
}

/// Where the counted tours start and end: ` from a1`, `, summed over all
/// 25 start squares`.
fn count_ends(board: &Board, goal: &Goal) -> String {
    match (goal.start, goal.end) {
        (Some(s), Some(e)) => format!(" from {} to {}", board.name(s), board.name(e)),
        (Some(s), None) => format!(" from {}", board.name(s)),
        (None, Some(e)) => format!(" to {}, summed over every start square", board.name(e)),
        (None, None) if board.len() == 1 => ", from its one square".to_string(),
        (None, None) => format!(", summed over all {} start squares", board.len()),
    }
}

/// What a count of symmetric tours counts: `directed closed tours that the
/// half-turn maps onto themselves, summed over all 36 start squares`
/// (`one`: the singular).
fn symmetric_subject(board: &Board, goal: &Goal, sym: TourSymmetry, one: bool) -> String {
    format!(
        "directed {} {} that {} maps onto {}{}",
        if goal.closed { "closed" } else { "open" },
        if one { "tour" } else { "tours" },
        sym.describe(),
        if one { "itself" } else { "themselves" },
        count_ends(board, goal)
    )
}

/// The text of `engine count` on a puzzle with a symmetry: the tours it
/// maps onto themselves (or a lower bound, or the proof that there are
/// none), the distinct cycles of a closed goal, and a line on the search:
/// how many tours the symmetry turns and folds, the half-path searches.
pub fn count_symmetric_report(
    board: &Board,
    goal: &Goal,
    sym: TourSymmetry,
    c: &SymmetricCount,
) -> String {
    let what = symmetric_subject(board, goal, sym, c.tours == 1);
    let mut out = match (&c.proof, c.stopped) {
        (Some(proof), _) => format!("0 {what} (none exists: {proof})\n"),
        (None, Some(stop)) => format!("at least {} {what} (a lower bound: {stop})\n", c.tours),
        (None, None) => format!("{} {what}\n", c.tours),
    };
    if let Some(cycles) = c.cycles() {
        let _ = writeln!(
            out,
            "{}{} (each counted once, whatever its start and direction)",
            if c.stopped.is_some() { "at least " } else { "" },
            distinct_cycles(cycles)
        );
    }
    let how = match (c.turned, c.folded) {
        (Some(t), Some(f)) => format!(
            "the symmetric search · {t} {} it turns, {f} it folds · {} half-path {}",
            if t == 1 { "tour" } else { "tours" },
            c.searches,
            if c.searches == 1 {
                "search"
            } else {
                "searches"
            }
        ),
        _ => format!(
            "{} moves no square of this board, so every closed tour counts: the depth-first count",
            sym.describe()
        ),
    };
    let _ = writeln!(
        out,
        "count: {how} · {} nodes · {}",
        c.stats.nodes,
        duration(c.stats.elapsed)
    );
    out
}

/// The text of `engine count` after counting (`what` from
/// [`count_subject`]): the count or its lower bound, the distinct cycles,
/// how the work was split, and a shard's machine-readable line.
pub fn count_report(what: &str, counted: &Counted, shard: Option<Shard>) -> String {
    let mut out = String::new();
    let in_shard = shard.map_or(String::new(), |s| format!(" in shard {}/{}", s.k(), s.n()));
    match counted.stopped {
        None => {
            let _ = writeln!(out, "{} {what}{in_shard}", counted.tours);
            match (counted.cycles(), shard, counted.cycles_x2) {
                (Some(_), Some(_), Some(x2)) => {
                    let _ = writeln!(
                        out,
                        "{x2} = this shard's part of twice the distinct cycles (add up cycles_x2 over the shards, then halve)"
                    );
                }
                (Some(c), _, _) => {
                    let _ = writeln!(
                        out,
                        "{} (each counted once, whatever its start and direction)",
                        distinct_cycles(c)
                    );
                }
                _ => {}
            }
        }
        Some(stop) => {
            let when = if counted.listed {
                format!(
                    "after {} of {}",
                    counted.tasks_done,
                    counted_tasks(counted.tasks)
                )
            } else {
                "before counting began".to_string()
            };
            let _ = writeln!(
                out,
                "at least {} {what}{in_shard} (a lower bound: {stop} {when})",
                counted.tours
            );
            if let Some(c) = counted.cycles()
                && shard.is_none()
            {
                let _ = writeln!(out, "at least {}", distinct_cycles(c));
            }
        }
    }
    let plural = |n: usize, one: &str, many: &str| {
        if n == 1 {
            one.to_string()
        } else {
            many.to_string()
        }
    };
    let tasks = if counted.listed {
        format!(
            " · {}{}",
            counted_tasks(counted.tasks),
            if counted.depth > 0 {
                format!(
                    " (prefixes of up to {})",
                    crate::words::counted(counted.depth as u64, "square")
                )
            } else {
                String::new()
            }
        )
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "count: {} {}{tasks} · {} {} · {} nodes · {}",
        counted.symmetries,
        plural(counted.symmetries, "symmetry", "symmetries"),
        counted.threads,
        plural(counted.threads, "thread", "threads"),
        counted.stats.nodes,
        duration(counted.stats.elapsed)
    );
    if let Some(s) = shard {
        out.push_str(&shard_line(
            s,
            counted.tours,
            counted.cycles_x2,
            counted.complete(),
            counted
                .listed
                .then_some((counted.tasks_done, counted.tasks)),
        ));
    }
    out
}

/// `N task(s)`.
fn counted_tasks(n: usize) -> String {
    counted(n as u64, "task")
}

/// The machine-readable line a shard ends with: `shard=K/N tours=T
/// [cycles_x2=C] status=complete|partial tasks=D/T`, the tasks `0/?` when
/// a stop came before they were listed (`tasks` is `None`).
pub fn shard_line(
    shard: Shard,
    tours: u128,
    cycles_x2: Option<u128>,
    complete: bool,
    tasks: Option<(usize, usize)>,
) -> String {
    format!(
        "shard={}/{} tours={tours}{} status={} tasks={}\n",
        shard.k(),
        shard.n(),
        cycles_x2.map_or(String::new(), |c| format!(" cycles_x2={c}")),
        if complete { "complete" } else { "partial" },
        tasks.map_or("0/?".to_string(), |(d, t)| format!("{d}/{t}"))
    )
}

/// What a count with clues counts: `directed open tours that fit the 20
/// clues` (`one`: the singular).
fn clued_subject(closed: bool, clues: usize, one: bool) -> String {
    format!(
        "directed {} {} the {clues} {}",
        if closed { "closed" } else { "open" },
        if one {
            "tour that fits"
        } else {
            "tours that fit"
        },
        if clues == 1 { "clue" } else { "clues" }
    )
}

/// The text of `engine count` on a puzzle with `clues` clues, after the
/// clue search: the solutions (each a directed tour numbered as the clues
/// say), or a lower bound when it stopped, and a line on the search.
pub fn count_clued_report(closed: bool, clues: usize, counted: &Counted) -> String {
    let what = clued_subject(closed, clues, counted.tours == 1);
    let mut out = match counted.stopped {
        None => format!("{} {what}\n", counted.tours),
        Some(stop) => format!(
            "at least {} {what} (a lower bound: {stop})\n",
            counted.tours
        ),
    };
    let _ = writeln!(
        out,
        "count: the clue search · 1 thread · {} nodes · {}",
        counted.stats.nodes,
        duration(counted.stats.elapsed)
    );
    out
}

/// The text of `engine count` after a frontier count (`what` from
/// [`count_subject`], `why` the reason it was chosen): the count, or what
/// stopped it (a frontier count has no partial lower bound), and a line on
/// the sweep, its states and time.
pub fn count_frontier_report(what: &str, c: &FrontierCounted, why: &str) -> String {
    let mut out = String::new();
    match c.stopped {
        None => {
            let _ = writeln!(out, "{} {what}", c.tours);
            if let Some(cycles) = c.cycles() {
                let _ = writeln!(
                    out,
                    "{} (each counted once, whatever its start and direction)",
                    distinct_cycles(cycles)
                );
            }
        }
        Some(stop) => {
            let _ = writeln!(
                out,
                "no count: {stop} after {} of {} squares (a frontier count has no partial lower bound)",
                c.squares_done, c.squares_total
            );
        }
    }
    let _ = writeln!(
        out,
        "count: frontier, {} · at most {} squares in the frontier · at most {} ({}) · {} {} · {}",
        c.sweep.describe(),
        c.width,
        many(c.peak_states, "state"),
        crate::budget::bytes(c.peak_bytes),
        c.threads,
        if c.threads == 1 { "thread" } else { "threads" },
        duration(c.elapsed)
    );
    let _ = writeln!(out, "method: frontier ({why})");
    out
}

/// The text of `engine count` for a puzzle a proof settles at once.
pub fn count_proven(what: &str, proof: &str, closed: bool, shard: Option<Shard>) -> String {
    let mut out = format!("0 {what} (no tour exists: {proof})\n");
    if closed {
        out.push_str("0 distinct cycles\n");
    }
    if let Some(s) = shard {
        out.push_str(&shard_line(s, 0, closed.then_some(0), true, Some((0, 0))));
    }
    out
}

/// The widest of `texts`, in the columns a terminal shows (a wide
/// character such as `日` takes two), and at least `least`.
fn widest<'t>(least: usize, texts: impl Iterator<Item = &'t str>) -> usize {
    texts.map(UnicodeWidthStr::width).fold(least, usize::max)
}

/// `text` with spaces after it to fill `width` terminal columns (`{:<w$}`
/// counts characters, which wide characters outgrow).
fn pad_right(text: &str, width: usize) -> String {
    format!("{text}{}", " ".repeat(width.saturating_sub(text.width())))
}

/// `text` with spaces before it to fill `width` terminal columns.
fn pad_left(text: &str, width: usize) -> String {
    format!("{}{text}", " ".repeat(width.saturating_sub(text.width())))
}

/// The table of `engine archive stats`: one line per puzzle (its tour kind,
/// start and end as grouped) and solver kind; each column as wide as its
/// widest entry.
pub fn archive_stats(rows: &[StatsRow]) -> String {
    struct Line {
        puzzle: String,
        tour: String,
        solver: String,
        runs: String,
        success: String,
        distinct: String,
        mean: String,
        median: String,
        time: String,
        generations: Option<String>,
    }
    let header = Line {
        puzzle: "puzzle".into(),
        tour: "tour".into(),
        solver: "solver".into(),
        runs: "runs".into(),
        success: "success".into(),
        distinct: "distinct".into(),
        mean: "mean n/gen".into(),
        median: "median".into(),
        time: "mean time".into(),
        generations: None,
    };
    let mut lines = vec![header];
    for r in rows {
        let generations = r.generations.iter().any(|&g| g > 0);
        let values = if generations {
            &r.generations
        } else {
            &r.nodes
        };
        let (mean, median) = StatsRow::mean_median(values);
        lines.push(Line {
            puzzle: r.puzzle.clone(),
            tour: r.tour.clone(),
            solver: r.solver.clone(),
            runs: r.runs.to_string(),
            success: format!("{:.0}%", r.success_rate() * 100.0),
            distinct: r.distinct.to_string(),
            mean: format!("{mean:.1}"),
            median: format!("{median:.1}"),
            time: duration(std::time::Duration::from_secs_f64(r.mean_time_ms() / 1e3)),
            generations: generations.then(|| {
                format!(
                    "  found {} with an average of {:.1} generations",
                    counted(r.distinct, "different tour"),
                    mean
                )
            }),
        });
    }
    // The old fixed widths stay the least, so short tables look as before.
    let w = |least: usize, f: fn(&Line) -> &str| widest(least, lines.iter().map(f));
    let widths = [
        w(28, |l| &l.puzzle),
        w(18, |l| &l.tour),
        w(10, |l| &l.solver),
        w(5, |l| &l.runs),
        w(8, |l| &l.success),
        w(8, |l| &l.distinct),
        w(12, |l| &l.mean),
        w(12, |l| &l.median),
        w(10, |l| &l.time),
    ];
    let mut out = String::new();
    for l in &lines {
        let cells = [
            pad_right(&l.puzzle, widths[0]),
            pad_right(&l.tour, widths[1]),
            pad_right(&l.solver, widths[2]),
            pad_left(&l.runs, widths[3]),
            pad_left(&l.success, widths[4]),
            pad_left(&l.distinct, widths[5]),
            pad_left(&l.mean, widths[6]),
            pad_left(&l.median, widths[7]),
            pad_left(&l.time, widths[8]),
        ];
        let _ = writeln!(out, "{}", cells.join(" "));
        if let Some(g) = &l.generations {
            out.push_str(g);
            out.push('\n');
        }
    }
    out
}

/// The lines of `engine archive list`, each column as wide as its widest
/// entry.
pub fn archive_list(rows: &[RunRow]) -> String {
    let ids: Vec<String> = rows.iter().map(|r| r.id.to_string()).collect();
    let id_w = widest(5, ids.iter().map(String::as_str));
    let name_w = widest(24, rows.iter().map(|r| r.name.as_str()));
    let tour_w = widest(18, rows.iter().map(|r| r.tour.as_str()));
    let status_w = widest(10, rows.iter().map(|r| r.status.as_str()));
    let solver_w = widest(32, rows.iter().map(|r| r.solver.as_str()));
    let mut out = String::new();
    for (r, id) in rows.iter().zip(&ids) {
        let work = if r.generations > 0 {
            counted(r.generations, "generation")
        } else {
            counted(r.nodes, "node")
        };
        let _ = writeln!(
            out,
            "{}  {}  {} {} {} {} {work}, {}{}",
            pad_left(id, id_w),
            r.created,
            pad_right(&r.name, name_w),
            pad_right(&r.tour, tour_w),
            pad_right(&r.status, status_w),
            pad_right(&r.solver, solver_w),
            duration(std::time::Duration::from_secs_f64(r.time_ms.max(0.0) / 1e3)),
            r.tour_id
                .map(|t| format!(", tour #{t}"))
                .unwrap_or_default()
        );
    }
    out
}

/// A small diagram of the piece's moves: `@` the piece, `1`…`9`, `a`… the
/// leaps in move order, `*` further squares of a ride.
pub fn move_diagram(piece: &Piece) -> String {
    const LABELS: &[u8] = b"123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let reach = |m: &crate::model::Move| -> i64 {
        let step = i64::from(m.dx.abs().max(m.dy.abs()));
        step * i64::from(m.range.min(2))
    };
    let r = piece.moves().iter().map(reach).max().unwrap_or(1).min(8);
    let side = (2 * r + 1) as usize;
    let mut cells = vec![vec!['.'; side]; side];
    cells[r as usize][r as usize] = '@';
    for (i, m) in piece.moves().iter().enumerate() {
        for k in 1..=i64::from(m.range.min(8)) {
            let (x, y) = (i64::from(m.dx) * k, i64::from(m.dy) * k);
            if x.abs() > r || y.abs() > r {
                break;
            }
            let (cx, cy) = ((x + r) as usize, (r - y) as usize);
            if cells[cy][cx] == '.' {
                cells[cy][cx] = if k == 1 {
                    LABELS.get(i).map_or('o', |&b| b as char)
                } else {
                    '*'
                };
            }
        }
    }
    let mut out = String::new();
    for row in cells {
        let line: Vec<String> = row.iter().map(char::to_string).collect();
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    out
}

/// `n` distinct cycles, in the singular when one.
fn distinct_cycles(n: u128) -> String {
    format!("{n} distinct {}", if n == 1 { "cycle" } else { "cycles" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_arrays_list_every_square() {
        let b = Board::rectangle(30, 4);
        let piece = Piece::leaper(1, 2, 1);
        for len in [0usize, 3, 300_000] {
            let path: Vec<u32> = (0..len as u32).map(|i| (i * 7919) % 120).collect();
            let report = Report {
                outcome: Outcome::GaveUp {
                    limit: crate::solve::Limit::Time,
                    best: path.clone(),
                },
                stats: crate::solve::Stats::default(),
                solver: crate::solve::SolverId::default(),
                starts: None,
            };
            let text = report_json("test \"quoted\"", &b, &piece, false, &report);
            let v: serde_json::Value = match serde_json::from_str(&text) {
                Ok(v) => v,
                Err(e) => panic!("{e}: {}", &text[..text.len().min(300)]),
            };
            let names: Vec<String> = path.iter().map(|&s| b.name(s)).collect();
            let pairs: Vec<[u32; 2]> = path.iter().map(|&s| [b.cell(s).x, b.cell(s).y]).collect();
            assert_eq!(v["squares"], serde_json::json!(names));
            assert_eq!(v["tour"], serde_json::json!(pairs));
            assert_eq!(v["status"], "gave_up");
            assert_eq!(v["name"], "test \"quoted\"");
            assert_eq!(v["solver"], "none (stopped before any solver ran)");
            assert_eq!(v["board"]["squares"], 120);
        }
    }

    #[test]
    fn long_move_lists_match_the_names() {
        // Wide enough for two-letter files, long enough for the table path
        // and for several chunks.
        let b = Board::rectangle(40, 3);
        let path: Vec<u32> = (0..300_000u32).map(|i| (i * 7919) % 120).collect();
        let names: Vec<String> = path.iter().map(|&s| b.name(s)).collect();
        assert_eq!(move_list(&b, &path), names.join(" "));
        assert_eq!(move_list(&b, &path[..5]), names[..5].join(" "));
        assert_eq!(move_list(&b, &[]), "");
    }

    #[test]
    fn grid_marks_removed_and_steps() {
        let b = Board::new(2, 2, crate::model::Topology::Plain, |c| {
            c != Cell::new(1, 1)
        });
        let g = grid(&b, &[0, 2]);
        assert_eq!(g, "2 |  2 ##\n1 |  1  .\n     a  b\n");
    }

    #[test]
    fn diagram_of_a_knight() {
        let d = move_diagram(&Piece::leaper(1, 2, 1));
        assert_eq!(d, ". 8 . 1 .\n7 . . . 2\n. . @ . .\n6 . . . 3\n. 5 . 4 .\n");
    }
}
