//! The search GIF: the recorded window of steps and the time-lapse of the
//! rest, each frame captioned with what happened and the counters, a strip
//! of the path's depth over the whole search under the board, then the
//! outcome (for an impossible puzzle, the proof drawn).

use crate::halt::{Halt, Stop};
use std::io::Write;

use crate::model::MoveGraph;
use crate::render::text::thousands;
use crate::solve::backtrack::{BacktrackOptions, Order};
use crate::solve::event::{Change, Event};
use crate::solve::record::{Recorder, Sample};
use crate::solve::{Outcome, Report, SolverSpec};

use super::encoder::{FINAL_DELAY, encode, frame_delay};
use super::font::wrap;
use super::layout::{Caption, Layout};
use super::painter::{Column, Mark, Painter, Target};
use super::palette::{PART, PARTS};
use super::{GifError, GifInfo, GifOptions, Scene, Style};

/// A step frame's default delay, in hundredths of a second.
const STEP_DELAY: u16 = 25;
/// A time-lapse frame's default delay.
const LAPSE_DELAY: u16 = 8;
/// Boards of at most this many squares show Warnsdorff's candidates.
const CANDIDATES_MAX: usize = 400;

/// Writes the GIF of a search: one frame per sample `rec` kept (see
/// [`GifOptions::recorder`]), then the outcome of `report` (the tour; the
/// longest path; or, for a puzzle the proofs rule out, the proof drawn),
/// held two seconds.
pub fn search_gif<W: Write + Send>(
    out: W,
    scene: &Scene,
    rec: &Recorder,
    report: &Report,
    opts: &GifOptions,
    halt: &impl Halt<Stop = Stop>,
) -> Result<GifInfo, GifError> {
    let board = scene.board;
    let n = board.len();
    // The layout's width does not depend on its status lines: wrap the
    // outcome to it, then make room for its lines.
    let searched = rec.events() > 0;
    let probe = search_layout(scene, opts, 0, searched);
    let room = probe.status_room();
    let scale = probe.status_scale;
    let mut last_lines = outcome_lines(report, rec, n);
    last_lines = last_lines
        .iter()
        .flat_map(|l| wrap(l, scale, room))
        .collect();
    let lay = search_layout(scene, opts, last_lines.len().max(3), searched);
    let mut painter = Painter::new(scene, lay.clone());
    let (step_delay, lapse_delay) = match opts.fps {
        Some(fps) => (frame_delay(fps), frame_delay(fps)),
        None => (STEP_DELAY, LAPSE_DELAY),
    };
    let graph = scene.graph;
    let warnsdorff = report.solver.ran.iter().any(|s| {
        matches!(
            s,
            SolverSpec::Warnsdorff(_)
                | SolverSpec::Backtrack(BacktrackOptions {
                    order: Order::Warnsdorff,
                    ..
                })
        )
    });
    let candidates =
        graph.filter(|_| warnsdorff && n <= CANDIDATES_MAX && lay.style != Style::Gradient);
    let total = rec.events().max(1);
    let strip = lay.strip;
    let strip_x = |e: u64| {
        let w = (strip.x1 - strip.x0).max(0) as f64;
        strip.x0 + (e as f64 / total as f64 * w).round() as i64
    };
    let count = encode(out, &lay, halt, |frames| {
        let mut visited = vec![
            false;
            if candidates.is_some() || graph.is_some() {
                n
            } else {
                0
            }
        ];
        let mut restarts = 0u64;
        rec.replay(|s| {
            let single = s.first == s.last;
            let mut head = String::new();
            if s.restarts > restarts {
                head = format!("restart {}: ", thousands(s.restarts));
                restarts = s.restarts;
            }
            let mut marks: Vec<Mark> = Vec::new();
            let (legal, genetic) = match s.event {
                Event::Generation { legal, .. } => (legal, true),
                _ => (s.path.len(), false),
            };
            let what = if single {
                describe(s, board, graph, &mut visited, &mut marks)
            } else {
                format!(
                    "time-lapse: events {}-{}, deepest path shown",
                    thousands(s.first + 1),
                    thousands(s.last + 1)
                )
            };
            if single
                && let Some(g) = candidates
                && matches!(s.event, Event::Advance | Event::Rewrite { .. })
            {
                candidate_marks(g, s.path, &mut visited, &mut marks);
            }
            let [a, b] = counters(s, n, genetic);
            let status = [format!("{head}{what}"), a, b];
            let changed = painter.show(&Target {
                keep: s.keep,
                legal,
                genetic,
                head: !genetic,
                flash: match s.event {
                    Event::Retreat(sq) if single => Some(sq),
                    _ => None,
                },
                settled: if single { usize::MAX } else { s.low },
                marks: &marks,
                column: Some(Column {
                    x0: strip_x(s.first),
                    x1: strip_x(s.last + 1),
                    low: s.low as f64 / n.max(1) as f64,
                    high: s.path.len() as f64 / n.max(1) as f64,
                }),
                status: &status,
                ..Target::plain(s.path)
            });
            frames.emit(
                &painter,
                changed,
                if single { step_delay } else { lapse_delay },
            )
        })?;
        if !searched {
            // Nothing was searched: the bare board first, then the answer.
            let lines = ["no search: the proofs come first".to_string()];
            let changed = painter.show(&Target {
                status: &lines,
                ..Target::plain(&[])
            });
            frames.emit(&painter, changed, FINAL_DELAY / 2)?;
        }
        // The outcome.
        let found = matches!(report.outcome, Outcome::Found(_));
        let proven = matches!(report.outcome, Outcome::Impossible(_));
        let path: &[u32] = match &report.outcome {
            Outcome::Found(t) => t,
            Outcome::Impossible(_) => &[],
            Outcome::GaveUp { best, .. } | Outcome::Interrupted { best } => {
                if best.is_empty() {
                    rec.last_path()
                } else {
                    best
                }
            }
        };
        let mut marks = Vec::new();
        let fills = match graph {
            Some(g) if proven && report.solver.proofs => Some(proof_fills(g, &mut marks)),
            _ => None,
        };
        let changed = painter.show(&Target {
            closing: found && scene.closed,
            head: found && lay.style != Style::Gradient,
            marks: &marks,
            fills: fills.as_deref(),
            status: &last_lines,
            accent: last_lines.len().saturating_sub(1).max(1),
            ..Target::plain(path)
        });
        frames.emit(
            &painter,
            changed,
            if proven { 2 * FINAL_DELAY } else { FINAL_DELAY },
        )
    })?;
    Ok(lay.info(count))
}

/// The search GIF's layout with `status_lines` lines of status, and the
/// depth strip if there was a search to chart.
pub fn search_layout(scene: &Scene, opts: &GifOptions, status_lines: usize, strip: bool) -> Layout {
    Layout::new(
        scene.board,
        opts.cell_for(scene.board),
        opts.style_for(scene.board),
        &Caption {
            title: &scene.title,
            subtitle: &scene.subtitle,
            status_lines,
            strip,
        },
    )
}

/// `count` and the noun, in the plural unless one.
fn plural(count: u64, one: &str, many: &str) -> String {
    format!(
        "{} {}",
        thousands(count),
        if count == 1 { one } else { many }
    )
}

/// The counters under a frame, on two lines.
fn counters(s: &Sample, n: usize, genetic: bool) -> [String; 2] {
    if genetic
        && let Event::Generation {
            generation,
            fitness,
            ..
        } = s.event
    {
        return [
            format!("generation {}", thousands(generation)),
            format!(
                "best fitness {} of {} squares",
                thousands(fitness as u64),
                thousands(n as u64)
            ),
        ];
    }
    let mut first = vec![plural(s.nodes, "node", "nodes")];
    if s.backtracks > 0 {
        first.push(plural(s.backtracks, "backtrack", "backtracks"));
    }
    let mut second = vec![
        format!("depth {}", thousands(s.path.len() as u64)),
        format!(
            "best {} of {}",
            thousands(s.best as u64),
            thousands(n as u64)
        ),
    ];
    if s.restarts > 0 {
        second.push(plural(s.restarts, "restart", "restarts"));
    }
    [first.join(" \u{b7} "), second.join(" \u{b7} ")]
}

/// What one event did, for people; dead ends marked in `marks`.
fn describe(
    s: &Sample,
    board: &crate::model::Board,
    graph: Option<&MoveGraph>,
    visited: &mut [bool],
    marks: &mut Vec<Mark>,
) -> String {
    let name = |sq: u32| board.name(sq);
    let at = format!("{}.", thousands(s.index + 1));
    let path = s.path;
    match s.event {
        Event::Advance => match path {
            [] => format!("{at} start"),
            [only] => format!("{at} start on {}", name(*only)),
            [.., a, b] => format!("{at} {} to {}", name(*a), name(*b)),
        },
        Event::Retreat(sq) => {
            let dead = graph.is_some_and(|g| onward(g, sq, path, visited) == 0);
            let to = path
                .last()
                .map(|&t| format!(" to {}", name(t)))
                .unwrap_or_default();
            if dead {
                marks.push(Mark::DeadEnd(sq));
                format!("{at} back from {}{to}: a dead end, no move on", name(sq))
            } else {
                format!("{at} back from {}{to}: nothing left to try there", name(sq))
            }
        }
        Event::Rewrite { from, how } => {
            let end = path.last().map(|&t| name(t)).unwrap_or_default();
            // A walk over every square is rotated to close; else it was stuck.
            let why = if path.len() == board.len() {
                "to close"
            } else {
                "stuck"
            };
            match how {
                Change::Rotation => format!(
                    "{at} {why}: rotation at {}, new end {end}",
                    path.get(from.saturating_sub(1))
                        .map(|&t| name(t))
                        .unwrap_or_default()
                ),
                Change::Splice => format!("{at} stuck: a stranded square spliced into the path"),
                Change::Reversal => {
                    format!("{at} stuck: the path turned round, now ending on {end}")
                }
            }
        }
        Event::Generation {
            generation,
            fitness,
            ..
        } => {
            let n = board.len();
            let mut line = format!(
                "generation {}: the best walk covers {} of {}",
                thousands(generation),
                thousands(fitness as u64),
                thousands(n as u64)
            );
            if fitness < n
                && let Some(&end) = path.last()
            {
                marks.push(Mark::Stuck(end));
                line.push_str(&format!(", stuck on {}", name(end)));
            }
            if generation == 1 && fitness == n {
                line = "solved in generation 1: a walk of the first, random population is a tour"
                    .to_string();
            }
            line
        }
        Event::Restart => format!("{at} restart"),
    }
}

/// Unvisited squares one move on from `sq`, with `path` (and `sq`)
/// visited. `visited` is all false before and after.
fn onward(g: &MoveGraph, sq: u32, path: &[u32], visited: &mut [bool]) -> usize {
    for &p in path {
        visited[p as usize] = true;
    }
    visited[sq as usize] = true;
    let count = g.neighbours(sq).filter(|&t| !visited[t as usize]).count();
    for &p in path {
        visited[p as usize] = false;
    }
    visited[sq as usize] = false;
    count
}

/// Warnsdorff's candidates from the path's end: its unvisited neighbours,
/// each with its own unvisited neighbours counted.
fn candidate_marks(g: &MoveGraph, path: &[u32], visited: &mut [bool], marks: &mut Vec<Mark>) {
    let Some(&end) = path.last() else {
        return;
    };
    for &p in path {
        visited[p as usize] = true;
    }
    let mut cands: Vec<(u32, u32)> = g
        .neighbours(end)
        .filter(|&t| !visited[t as usize])
        .map(|t| {
            let c = g.neighbours(t).filter(|&u| !visited[u as usize]).count();
            (t, c as u32)
        })
        .collect();
    cands.dedup();
    let least = cands.iter().map(|c| c.1).min().unwrap_or(0);
    for (square, count) in cands {
        marks.push(Mark::Candidate {
            square,
            count,
            best: count == least,
        });
    }
    for &p in path {
        visited[p as usize] = false;
    }
}

/// The final frame's status: the outcome and what it cost.
fn outcome_lines(report: &Report, rec: &Recorder, n: usize) -> Vec<String> {
    let stats = &report.stats;
    let effort = if report.solver.proofs {
        "proved without searching".to_string()
    } else if stats.generations > 0 {
        plural(stats.generations, "generation", "generations")
    } else {
        let mut e = plural(stats.nodes.max(rec.nodes()), "node", "nodes");
        if stats.backtracks > 0 {
            e.push_str(&format!(
                " \u{b7} {}",
                plural(stats.backtracks, "backtrack", "backtracks")
            ));
        }
        e
    };
    let longest = |best: &[u32]| {
        format!(
            "the longest path: {} of {} squares",
            thousands(best.len() as u64),
            thousands(n as u64)
        )
    };
    match &report.outcome {
        Outcome::Found(t) => vec![
            format!("found: a tour of {} squares", thousands(t.len() as u64)),
            effort,
        ],
        Outcome::Impossible(why) => vec![format!("no tour: {why}"), effort],
        Outcome::GaveUp { best, .. } => vec![format!("gave up: {}", longest(best)), effort],
        Outcome::Interrupted { best } => {
            vec![format!("interrupted: {}", longest(best)), effort]
        }
    }
}

/// The proofs drawn: squares coloured by the part of the move graph they
/// are in when it falls apart, else by colour class when every move
/// changes colour; squares with no moves ringed red.
fn proof_fills(g: &MoveGraph, marks: &mut Vec<Mark>) -> Vec<u8> {
    let n = g.len();
    // Parts (moves taken both ways) and a two-colouring, by search.
    let mut part = vec![u32::MAX; n];
    let mut colour = vec![0u8; n];
    let mut bipartite = true;
    let mut back: Vec<Vec<u32>> = vec![Vec::new(); n];
    for s in 0..n as u32 {
        for t in g.neighbours(s) {
            back[t as usize].push(s);
        }
    }
    let mut parts = 0u32;
    let mut stack = Vec::new();
    for s in 0..n as u32 {
        if part[s as usize] != u32::MAX {
            continue;
        }
        part[s as usize] = parts;
        stack.push(s);
        while let Some(v) = stack.pop() {
            for t in g.neighbours(v).chain(back[v as usize].iter().copied()) {
                if part[t as usize] == u32::MAX {
                    part[t as usize] = parts;
                    colour[t as usize] = colour[v as usize] ^ 1;
                    stack.push(t);
                } else if colour[t as usize] == colour[v as usize] {
                    bipartite = false;
                }
            }
        }
        parts += 1;
    }
    for s in 0..n as u32 {
        if g.degree(s) == 0 {
            marks.push(Mark::Stuck(s));
        }
    }
    (0..n)
        .map(|s| {
            if parts > 1 {
                PART + (part[s] % u32::from(PARTS)) as u8
            } else if bipartite {
                PART + colour[s]
            } else {
                0
            }
        })
        .collect()
}
