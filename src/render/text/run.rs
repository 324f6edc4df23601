//! The text of `engine run` (and of `engine archive show`): the headline,
//! the numbered grid and the move list, where the textbook rule got stuck,
//! the stats line and what a search from every start did with them.

use std::fmt::Write as _;

use super::board::{GridChoice, each_move_list_part, grid};
use super::format::duration;
use crate::model::Board;
use crate::solve::starts::StartRule;
use crate::solve::{Outcome, Report, SolverSpec};
use crate::words::counted;

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

/// The whole text output of `run`; `grid` says whether the numbered grid
/// is printed.
pub fn report_text(
    title: &str,
    board: &Board,
    closed: bool,
    report: &Report,
    grid: GridChoice<'_>,
) -> String {
    written(|w| write_report_text(w, title, board, closed, report, grid))
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
    shown: GridChoice<'_>,
) -> std::io::Result<()> {
    let mut out = String::new();
    let _ = writeln!(out, "{title}");
    let _ = writeln!(out, "{}", status_line(report, board, closed));
    let path = report.outcome.path();
    if !path.is_empty() {
        if shown.shows(board) {
            out.push('\n');
            out.push_str(&grid(board, path));
        } else {
            out.push_str(&shown.left_out(&format!(
                "the {}x{} grid is",
                board.width(),
                board.height()
            )));
        }
        let label = if matches!(report.outcome, Outcome::Found(_)) {
            "Tour"
        } else {
            "Path"
        };
        if shown.lists(board) {
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
        } else {
            out.push('\n');
            out.push_str(&shown.moves_left_out(board, label, path));
        }
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
