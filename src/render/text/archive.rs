//! The tables of `engine archive`: `stats`, per puzzle and solver, and
//! `list`, the most recent runs; each column as wide as its widest entry.

use std::fmt::Write as _;

use super::format::{duration, pad_left, pad_right, widest};
use crate::archive::{RunRow, StatsRow};
use crate::error::escape_controls;
use crate::words::counted;

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
            puzzle: escape_controls(&r.puzzle).into_owned(),
            tour: escape_controls(&r.tour).into_owned(),
            solver: escape_controls(&r.solver).into_owned(),
            runs: r.runs.to_string(),
            success: format!("{:.0}%", r.success_rate() * 100.0),
            distinct: r.distinct.to_string(),
            mean: format!("{mean:.1}"),
            median: format!("{median:.1}"),
            time: duration(millis(r.mean_time_ms())),
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

/// `ms` milliseconds as a duration; a time no run takes (negative, not a
/// number, past [`MAX_TIME_MS`](crate::archive::MAX_TIME_MS)) as the
/// nearest that is.
fn millis(ms: f64) -> std::time::Duration {
    let ms = if ms.is_nan() { 0.0 } else { ms };
    std::time::Duration::from_secs_f64(ms.clamp(0.0, crate::archive::MAX_TIME_MS) / 1e3)
}

/// The lines of `engine archive list`, each column as wide as its widest
/// entry.
pub fn archive_list(rows: &[RunRow]) -> String {
    let rows: Vec<RunRow> = rows
        .iter()
        .map(|r| RunRow {
            created: escape_controls(&r.created).into_owned(),
            name: escape_controls(&r.name).into_owned(),
            solver: escape_controls(&r.solver).into_owned(),
            status: escape_controls(&r.status).into_owned(),
            tour: escape_controls(&r.tour).into_owned(),
            ..r.clone()
        })
        .collect();
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
            duration(millis(r.time_ms)),
            r.tour_id
                .map(|t| format!(", tour #{t}"))
                .unwrap_or_default()
        );
    }
    out
}
