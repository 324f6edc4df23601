//! The search GIF: the recorded window of steps and the time-lapse of the
//! rest, each frame captioned with what happened and the counters, a strip
//! of the path's depth over the whole search under the board, then the
//! outcome (for an impossible puzzle, the proof drawn).

use crate::halt::{Halt, Stop};
use std::io::Write;

use crate::model::MoveGraph;
use crate::render::record::{Recorder, Sample};
use crate::render::why::why_words;
use crate::search::event::{Change, Event, Why};
use crate::solve::backtrack::{BacktrackOptions, Order};
use crate::solve::{Outcome, Report, SolverSpec};
use crate::words::{many, thousands};

use super::encoder::{FINAL_DELAY, encode, frame_delay};
use super::font::wrap;
use super::layout::{Caption, Layout};
use super::painter::{Column, Mark, Painter, Target};
use super::palette::{CAPTION_FG, PART, PARTS};
use super::{GifError, GifInfo, GifOptions, Scene, Style};
use crate::analysis::shape;
use crate::halt::Never;
use crate::model::graph::walks;
use crate::render::lineage::Individual;

/// A step frame's default delay, in hundredths of a second.
const STEP_DELAY: u16 = 25;
/// A time-lapse frame's default delay.
const LAPSE_DELAY: u16 = 8;
/// Boards of at most this many squares show Warnsdorff's candidates.
const CANDIDATES_MAX: usize = 400;

/// Writes the GIF of a search: one frame per sample `rec` kept (see
/// [`GifOptions::recorder`]), then the outcome of `report` (the tour; the
/// longest path; or, for a puzzle the proofs rule out, the proof drawn),
/// held two seconds. A genetic run solved in generation 1 first shows
/// walks of its random population.
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
    let searched = rec.events() > 0;
    // Every frame's status is worked out first and wrapped to the image's
    // width (which does not depend on its status lines), so the caption
    // has room for the longest and no line is ever cut.
    let probe = search_layout(scene, opts, 0, searched);
    let (room, scale) = (probe.status_room(), probe.status_scale);
    let story = Story::new(scene, rec, report, &probe);
    let outcome = story.outcome(report).wrapped(scale, room);
    let mut most = outcome.status.len();
    {
        let mut state = State::new(n, story.needs_scratch());
        for (k, ind) in rec.lineage().population().iter().enumerate() {
            most = most.max(story.individual(k, ind).wrapped(scale, room).status.len());
        }
        // Replaying into a closure that never fails.
        let _ = rec.replay(|s| {
            let f = story.sample(s, &mut state).wrapped(scale, room);
            most = most.max(f.status.len());
            Ok::<(), ()>(())
        });
    }
    let lay = search_layout(scene, opts, most.max(3), searched);
    let mut painter = Painter::new(scene, lay.clone());
    let (step_delay, lapse_delay) = match opts.fps {
        Some(fps) => (frame_delay(fps), frame_delay(fps)),
        None => (STEP_DELAY, LAPSE_DELAY),
    };
    let count = encode(out, &lay, halt, |frames| {
        let mut state = State::new(n, story.needs_scratch());
        for (k, ind) in rec.lineage().population().iter().enumerate() {
            let f = story.individual(k, ind).wrapped(scale, room);
            let changed = painter.show(&f.target(&ind.walk, 0));
            frames.emit(&painter, changed, fps_or(opts, INDIVIDUAL_DELAY))?;
        }
        rec.replay(|s| {
            let f = story.sample(s, &mut state).wrapped(scale, room);
            let changed = painter.show(&f.target(s.path, s.keep));
            let single = s.first == s.last;
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
        let found = matches!(report.outcome, Outcome::Found(_));
        let proven = matches!(report.outcome, Outcome::Impossible(_));
        let changed = painter.show(&Target {
            closing: found && scene.closed,
            head: found && lay.style != Style::Gradient,
            ..outcome.target(path, 0)
        });
        frames.emit(
            &painter,
            changed,
            if proven { 2 * FINAL_DELAY } else { FINAL_DELAY },
        )
    })?;
    Ok(lay.info(count))
}

/// One recorded sample as the search GIF tells it, for the HTML player:
/// its caption's lines (unwrapped) and what is drawn on the board.
pub(crate) struct Told {
    /// What happened, then the counters (or a genetic run's genes and
    /// fitness).
    pub(crate) lines: Vec<String>,
    /// Warnsdorff's candidates: square, onward count, whether the least.
    pub(crate) candidates: Vec<(u32, u32, bool)>,
    /// Squares left as dead ends.
    pub(crate) dead: Vec<u32>,
    /// Squares ringed: where a walk got stuck, what a reason names.
    pub(crate) rings: Vec<u32>,
    /// A genetic walk's squares entered by a repaired gene.
    pub(crate) repaired: Vec<usize>,
    /// A genetic walk's legal prefix.
    pub(crate) legal: Option<usize>,
    /// The part of the path that stayed (a time-lapse's or a rewrite's).
    pub(crate) settled: Option<usize>,
}

/// How a search ended, as the search GIF's last frame tells it.
pub(crate) struct Ending {
    /// The outcome and what it cost.
    pub(crate) lines: Vec<String>,
    /// For a proof drawn: each square's fill, as a palette index.
    pub(crate) fills: Option<Vec<u8>>,
    /// The proof's legend: a line and its palette index.
    pub(crate) legend: Vec<(String, u8)>,
    /// Squares ringed (no moves).
    pub(crate) rings: Vec<u32>,
}

/// Tells every sample `rec` kept as the search GIF would caption it,
/// oldest first, and how the search ended (the scene must carry the move
/// graph for candidates, dead ends and proofs).
pub(crate) fn tell<E>(
    scene: &Scene,
    rec: &Recorder,
    report: &Report,
    mut f: impl FnMut(&Sample, Told) -> Result<(), E>,
) -> Result<Ending, E> {
    let probe = search_layout(scene, &GifOptions::default(), 0, true);
    let story = Story::new(scene, rec, report, &probe);
    let mut state = State::new(scene.board.len(), story.needs_scratch());
    rec.replay(|s| {
        let frame = story.sample(s, &mut state);
        let mut told = Told {
            lines: frame.status,
            candidates: Vec::new(),
            dead: Vec::new(),
            rings: Vec::new(),
            repaired: frame.repaired,
            legal: frame.legal,
            settled: frame.settled,
        };
        for m in frame.marks {
            match m {
                Mark::Candidate {
                    square,
                    count,
                    best,
                } => told.candidates.push((square, count, best)),
                Mark::DeadEnd(sq) => told.dead.push(sq),
                Mark::Stuck(sq) => told.rings.push(sq),
            }
        }
        f(s, told)
    })?;
    let end = story.outcome(report);
    let mut rings = Vec::new();
    for m in end.marks {
        if let Mark::Stuck(sq) = m {
            rings.push(sq);
        }
    }
    let legend = end
        .status
        .iter()
        .skip(1)
        .zip(&end.colours)
        .filter(|(_, c)| **c != CAPTION_FG)
        .map(|(l, &c)| (l.clone(), c))
        .collect();
    let lines = end
        .status
        .iter()
        .enumerate()
        .filter(|&(i, _)| i == 0 || end.colours.get(i - 1) == Some(&CAPTION_FG))
        .map(|(_, l)| l.clone())
        .collect();
    Ok(Ending {
        lines,
        fills: end.fills,
        legend,
        rings,
    })
}

/// A genetic walk of generation 1's population stays this long, in
/// hundredths of a second.
const INDIVIDUAL_DELAY: u16 = 60;

/// `delay`, or every frame's delay at `--fps`.
fn fps_or(opts: &GifOptions, delay: u16) -> u16 {
    opts.fps.map_or(delay, frame_delay)
}

/// What a search GIF tells, frame by frame: the fixed facts it needs.
struct Story<'a> {
    board: &'a crate::model::Board,
    graph: Option<&'a MoveGraph>,
    /// The graph, when Warnsdorff's candidates are drawn.
    candidates: Option<&'a MoveGraph>,
    rec: &'a Recorder,
    /// The genetic solver's population, when it ran.
    population: Option<usize>,
    /// Where the strip under the board is.
    strip: super::layout::Rect,
    /// A genetic run's chart starts at this fitness.
    floor: usize,
}

/// What changes from frame to frame while a story is told.
struct State {
    /// Scratch: all false between uses.
    visited: Vec<bool>,
    restarts: u64,
    /// The next point of the fitness chart to draw.
    chart: usize,
}

impl State {
    fn new(n: usize, scratch: bool) -> State {
        State {
            visited: vec![false; if scratch { n } else { 0 }],
            restarts: 0,
            chart: 0,
        }
    }
}

/// One frame's content, before it is drawn.
#[derive(Default)]
struct Frame {
    status: Vec<String>,
    /// The status lines' colours after the first (none: the caption's).
    colours: Vec<u8>,
    marks: Vec<Mark>,
    repaired: Vec<usize>,
    columns: Vec<Column>,
    settled: Option<usize>,
    flash: Option<u32>,
    legal: Option<usize>,
    genetic: bool,
    fills: Option<Vec<u8>>,
}

impl Frame {
    /// The frame as the painter's target for `path`.
    fn target<'p>(&'p self, path: &'p [u32], keep: usize) -> Target<'p> {
        Target {
            keep,
            legal: self.legal.unwrap_or(path.len()),
            genetic: self.genetic,
            head: !self.genetic,
            flash: self.flash,
            settled: self.settled.unwrap_or(usize::MAX),
            marks: &self.marks,
            repaired: &self.repaired,
            fills: self.fills.as_deref(),
            columns: &self.columns,
            status: &self.status,
            accent: 1,
            colours: &self.colours,
            ..Target::plain(path)
        }
    }

    /// Wraps the status lines to `room` pixels at `scale`, each wrapped
    /// line keeping its colour.
    fn wrapped(mut self, scale: i64, room: i64) -> Frame {
        let mut status = Vec::new();
        let mut colours = Vec::new();
        for (i, line) in self.status.iter().enumerate() {
            for (j, part) in wrap(line, scale, room, usize::MAX).into_iter().enumerate() {
                if i > 0 || j > 0 {
                    colours.push(if i == 0 {
                        super::palette::STATUS
                    } else {
                        self.colours.get(i - 1).copied().unwrap_or(CAPTION_FG)
                    });
                }
                status.push(part);
            }
        }
        self.status = status;
        self.colours = colours;
        self
    }
}

impl<'a> Story<'a> {
    /// The story of the search `rec` recorded, drawn in `lay`.
    fn new(scene: &Scene<'a>, rec: &'a Recorder, report: &Report, lay: &Layout) -> Story<'a> {
        let n = scene.board.len();
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
        let population = report.solver.ran.iter().find_map(|s| match s {
            SolverSpec::Genetic(o) => Some(o.params().population),
            _ => None,
        });
        let graph = scene.graph;
        Story {
            board: scene.board,
            graph,
            candidates: graph
                .filter(|_| warnsdorff && n <= CANDIDATES_MAX && lay.style != Style::Gradient),
            rec,
            population,
            strip: lay.strip,
            floor: chart_floor(rec, n),
        }
    }

    fn needs_scratch(&self) -> bool {
        self.graph.is_some()
    }

    fn n(&self) -> usize {
        self.board.len()
    }

    /// The strip's x for `e` events (generations) into the search.
    fn strip_x(&self, e: u64) -> i64 {
        let total = self.rec.events().max(1);
        let w = (self.strip.x1 - self.strip.x0).max(0) as f64;
        self.strip.x0 + (e as f64 / total as f64 * w).round() as i64
    }

    /// A fitness as a height in the chart.
    fn chart_y(&self, v: f64) -> f64 {
        let span = self.n().saturating_sub(self.floor).max(1) as f64;
        (v - self.floor as f64) / span
    }

    /// The frame of one recorded sample.
    fn sample(&self, s: &Sample, st: &mut State) -> Frame {
        let n = self.n();
        let single = s.first == s.last;
        let mut f = Frame::default();
        let mut head = String::new();
        if s.restarts > st.restarts {
            head = format!("restart {}: ", thousands(s.restarts));
            st.restarts = s.restarts;
        }
        if let Event::Generation { fitness, legal, .. } = s.event {
            f.genetic = true;
            f.legal = Some(legal);
            f.repaired = self.rec.lineage().repaired_of(s.index);
            let first = if single {
                describe(s, self.board, self.graph, &mut st.visited, &mut f.marks)
            } else {
                let mut line = format!(
                    "generations {}-{}: the longest best walk, {} of {}",
                    thousands(s.first + 1),
                    thousands(s.last + 1),
                    thousands(fitness as u64),
                    thousands(n as u64)
                );
                if fitness < n
                    && let Some(&end) = s.path.last()
                {
                    f.marks.push(Mark::Stuck(end));
                    line.push_str(&format!(", stuck on {}", self.board.name(end)));
                }
                line
            };
            f.status.push(format!("{head}{first}"));
            f.status.push(genes_line(s.path.len(), f.repaired.len()));
            // The chart, up to this sample's last generation.
            let upto = s.last + 1;
            let chart = self.rec.lineage().chart();
            let mut mean = None;
            while let Some(p) = chart.get(st.chart).filter(|p| p.first <= upto) {
                f.columns.push(Column {
                    x0: self.strip_x(p.first - 1),
                    x1: self.strip_x(p.first - 1 + p.count),
                    low: self.chart_y(p.mean),
                    high: self.chart_y(p.best as f64),
                });
                mean = Some(p.mean);
                st.chart += 1;
            }
            let mean = mean
                .or_else(|| {
                    st.chart
                        .checked_sub(1)
                        .and_then(|i| chart.get(i))
                        .map(|p| p.mean)
                })
                .map(|m| format!(" \u{b7} mean {m:.1} (blue)"))
                .unwrap_or_default();
            f.status.push(format!(
                "fitness: best {} (violet){mean} \u{b7} chart {}-{}",
                thousands(fitness as u64),
                thousands(self.floor as u64),
                thousands(n as u64)
            ));
            f.colours = vec![CAPTION_FG, CAPTION_FG];
            return f;
        }
        let what = if single {
            describe(s, self.board, self.graph, &mut st.visited, &mut f.marks)
        } else {
            format!(
                "time-lapse: events {}-{}, deepest path shown",
                thousands(s.first + 1),
                thousands(s.last + 1)
            )
        };
        if single
            && let Some(g) = self.candidates
            && matches!(s.event, Event::Advance | Event::Rewrite { .. })
        {
            candidate_marks(g, s.path, &mut st.visited, &mut f.marks);
        }
        let [a, b] = counters(s, n);
        f.status = vec![format!("{head}{what}"), a, b];
        f.flash = match s.event {
            Event::Retreat(sq, _) if single => Some(sq),
            _ => None,
        };
        // A rewrite's new part churns; a time-lapse's unsettled part too.
        f.settled = match s.event {
            Event::Rewrite { from, .. } if single => Some(from),
            _ if single => None,
            _ => Some(s.low),
        };
        f.columns = vec![Column {
            x0: self.strip_x(s.first),
            x1: self.strip_x(s.last + 1),
            low: s.low as f64 / n.max(1) as f64,
            high: s.path.len() as f64 / n.max(1) as f64,
        }];
        f
    }

    /// The frame of walk `k` of generation 1's population.
    fn individual(&self, k: usize, ind: &Individual) -> Frame {
        let n = self.n();
        let mut f = Frame {
            genetic: true,
            repaired: (1..ind.repaired.len())
                .filter(|&i| ind.repaired[i])
                .collect(),
            ..Frame::default()
        };
        let of = self
            .population
            .map(|p| format!(" of {}", thousands(p as u64)))
            .unwrap_or_default();
        f.status.push(format!(
            "solved in generation 1; its random population, walk {}{of}:",
            k + 1
        ));
        let mut line = format!(
            "covers {} of {} squares",
            thousands(ind.walk.len() as u64),
            thousands(n as u64)
        );
        if ind.fitness == n {
            line.push_str(": a tour");
        } else if let Some(&end) = ind.walk.last() {
            f.marks.push(Mark::Stuck(end));
            line.push_str(&format!(", stuck on {}", self.board.name(end)));
        }
        f.status.push(line);
        f.status.push(genes_line(ind.walk.len(), f.repaired.len()));
        f.colours = vec![CAPTION_FG, CAPTION_FG];
        f
    }

    /// The last frame: the outcome and what it cost; a proof drawn.
    fn outcome(&self, report: &Report) -> Frame {
        let n = self.n();
        let mut f = Frame::default();
        let lines = outcome_lines(report, self.rec, n);
        let proven = matches!(report.outcome, Outcome::Impossible(_));
        f.status.push(lines[0].clone());
        if let Some(g) = self.graph.filter(|_| proven && report.solver.proofs) {
            let (fills, legend) = proof_fills(g, self.board, &mut f.marks);
            f.fills = Some(fills);
            for (line, colour) in legend {
                f.status.push(line);
                f.colours.push(colour);
            }
        }
        for line in &lines[1..] {
            f.status.push(line.clone());
            f.colours.push(CAPTION_FG);
        }
        f
    }
}

/// The line on how many of a walk's moves were made by repaired genes.
fn genes_line(squares: usize, repaired: usize) -> String {
    let moves = squares.saturating_sub(1);
    format!(
        "genes: {} kept (green), {} repaired (orange)",
        thousands(moves.saturating_sub(repaired) as u64),
        thousands(repaired as u64)
    )
}

/// Where a genetic run's fitness chart starts: a round number at or below
/// the least mean fitness charted (0 when there is no chart).
fn chart_floor(rec: &Recorder, n: usize) -> usize {
    let chart = rec.lineage().chart();
    let least = chart.iter().map(|p| p.mean).fold(f64::INFINITY, f64::min);
    if !least.is_finite() {
        return 0;
    }
    let step = if n >= 200 {
        50
    } else if n >= 40 {
        10
    } else {
        5
    };
    let floor = (least.max(0.0) as usize) / step * step;
    floor.min(n.saturating_sub(step))
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
fn counters(s: &Sample, n: usize) -> [String; 2] {
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
        Event::Retreat(sq, why) => {
            let to = path
                .last()
                .map(|&t| format!(" to {}", name(t)))
                .unwrap_or_default();
            if let Some(words) = why_words(why, &name(sq), name) {
                if why == Why::NoMoves {
                    marks.push(Mark::DeadEnd(sq));
                }
                for w in why.squares() {
                    marks.push(Mark::Stuck(w));
                }
                return format!("{at} back from {}{to}: {words}", name(sq));
            }
            let dead = graph.is_some_and(|g| onward(g, sq, path, visited) == 0);
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
                    "{at} {why}: rotation at {}, the part after it reversed (violet), new end {end}",
                    path.get(from.saturating_sub(1))
                        .map(|&t| name(t))
                        .unwrap_or_default()
                ),
                Change::Splice => {
                    format!(
                        "{at} stuck: a stranded square spliced into the path (violet: what changed)"
                    )
                }
                Change::Reversal => {
                    format!("{at} stuck: the path turned round (violet), now ending on {end}")
                }
                Change::Resume => format!(
                    "{at} back to the search from {}, where it paused",
                    path.first().map(|&t| name(t)).unwrap_or_default()
                ),
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
            format!("found: a tour of {}", many(t.len() as u64, "square")),
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
/// are in when it falls apart, else by class when every move goes between
/// two classes; squares with no moves ringed red. Returns the colours and
/// the legend: a line per colour, in that colour.
fn proof_fills(
    g: &MoveGraph,
    board: &crate::model::Board,
    marks: &mut Vec<Mark>,
) -> (Vec<u8>, Vec<(String, u8)>) {
    let n = g.len();
    let mut legend = Vec::new();
    let (label, parts) = shape::parts(g, &Never).unwrap_or_else(|never| match never {});
    let fills: Vec<u8> = if parts.len() > 1 {
        for (i, p) in parts.iter().enumerate().take(usize::from(PARTS)) {
            legend.push((
                format!(
                    "part {}: {} from {}",
                    part_letter(i),
                    plural(p.size as u64, "square", "squares"),
                    board.name(p.first)
                ),
                PART + i as u8,
            ));
        }
        if parts.len() > usize::from(PARTS) {
            legend.push((
                format!(
                    "{} more parts, their colours repeating",
                    thousands((parts.len() - usize::from(PARTS)) as u64)
                ),
                CAPTION_FG,
            ));
        }
        label
            .iter()
            .map(|&l| PART + (l % u32::from(PARTS)) as u8)
            .collect()
    } else {
        match walks::parts_and_colours(g, &Never).unwrap_or_else(|never| match never {}) {
            (_, Some(colour)) if n > 0 => {
                let classes = shape::name_classes(board, &colour);
                let class: Vec<u8> = (0..n as u32)
                    .map(|s| classes.class_of(board, s, &colour))
                    .collect();
                for c in 0..2u8 {
                    let size = class.iter().filter(|&&k| k == c).count();
                    legend.push((
                        format!("{} {}", thousands(size as u64), classes.plural(c)),
                        PART + c,
                    ));
                }
                class.iter().map(|&c| PART + c).collect()
            }
            _ => vec![0; n],
        }
    };
    let mut none = Vec::new();
    for s in 0..n as u32 {
        if g.degree(s) == 0 {
            marks.push(Mark::Stuck(s));
            none.push(s);
        }
    }
    if !none.is_empty() {
        let mut names: Vec<String> = none.iter().take(8).map(|&s| board.name(s)).collect();
        if none.len() > 8 {
            names.push("\u{2026}".to_string());
        }
        legend.push((
            format!("ringed: no moves ({})", names.join(" ")),
            super::palette::RED,
        ));
    }
    (fills, legend)
}

/// Part `i`'s letter, as `check` letters them: A to Z, then a to z.
fn part_letter(i: usize) -> char {
    match i {
        0..26 => (b'A' + i as u8) as char,
        26..52 => (b'a' + (i - 26) as u8) as char,
        _ => '*',
    }
}
