//! The recorded searches as the player's data: the board, and for each
//! search its samples (as the recorder kept them and the search GIF tells
//! them), its fitness chart and how it ended, serialised to JSON.

use serde::Serialize;

use crate::model::file_name;
use crate::render::gif::{Scene, Style, palette};
use crate::render::record::{Recorder, Sample};
use crate::search::event::{Change, Event};
use crate::solve::{Outcome, Report};

/// The page's data.
#[derive(Serialize)]
pub(super) struct Page {
    pub(super) title: String,
    pub(super) subtitle: String,
    closed: bool,
    width: u32,
    height: u32,
    files: Vec<String>,
    ranks: Vec<String>,
    /// Each square's cell, `[x, y]` from a1; left out when the board has
    /// every cell, numbered rank by rank from a1 (a million-square board's
    /// cells were 40 % of its page).
    #[serde(skip_serializing_if = "Option::is_none")]
    cells: Option<Vec<[u32; 2]>>,
    /// The palette's colours as CSS, by index (proof fills, legends).
    colours: Vec<String>,
    runs: Vec<RunData>,
}

/// One recorded search.
#[derive(Serialize)]
struct RunData {
    solver: String,
    /// Events seen.
    events: u64,
    samples: Vec<SampleData>,
    /// A genetic run's chart: first generation, how many, best, mean.
    chart: Vec<(u64, u64, usize, f64)>,
    end: EndData,
}

/// One sample: the recorder's and the search GIF's account of it.
#[derive(Serialize)]
struct SampleData {
    /// Event index, first and last event of its interval.
    i: u64,
    f: u64,
    l: u64,
    /// One event of the step window.
    s: bool,
    /// Kind: `a`dvance, `r`etreat, re`w`rite, `g`eneration.
    k: &'static str,
    /// The path: the previous sample's first `p` squares, then `t`.
    p: usize,
    t: Vec<u32>,
    /// Squares that stayed all through the interval.
    lo: usize,
    /// Nodes, backtracks, restarts, the longest path so far.
    n: u64,
    b: u64,
    r: u64,
    best: usize,
    /// What happened, in words (the search GIF's caption).
    text: String,
    /// More lines: a genetic walk's genes and fitness.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    more: Vec<String>,
    /// A retreat: the square left and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    sq: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<&'static str>,
    /// A rewrite: how.
    #[serde(skip_serializing_if = "Option::is_none")]
    how: Option<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    ring: Vec<u32>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    dead: Vec<u32>,
    /// Warnsdorff's candidates: square, onward count, 1 if the least.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    cand: Vec<(u32, u32, u8)>,
    /// A genetic walk: squares entered by a repaired gene, legal prefix,
    /// generation and fitness.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    rep: Vec<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    legal: Option<usize>,
    #[serde(rename = "gen", skip_serializing_if = "Option::is_none")]
    generation: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fit: Option<usize>,
    /// The part of the path that stayed (a rewrite's or a time-lapse's).
    #[serde(skip_serializing_if = "Option::is_none")]
    settled: Option<usize>,
}

/// How the search ended.
#[derive(Serialize)]
struct EndData {
    /// `found`, `impossible`, `gave_up` or `interrupted`.
    status: &'static str,
    lines: Vec<String>,
    /// The tour, or the longest path.
    path: Vec<u32>,
    /// A proof drawn: each square's fill (a palette index).
    #[serde(skip_serializing_if = "Option::is_none")]
    fills: Option<Vec<u8>>,
    /// The proof's legend: a line and its palette index.
    legend: Vec<(String, u8)>,
    ring: Vec<u32>,
}

impl Page {
    /// The page of `scene`'s board with no search yet.
    pub(super) fn new(scene: &Scene) -> Page {
        let board = scene.board;
        let rgb = palette(Style::Numbers);
        Page {
            title: scene.title.clone(),
            subtitle: scene.subtitle.clone(),
            closed: scene.closed,
            width: board.width(),
            height: board.height(),
            files: (0..board.width()).map(file_name).collect(),
            ranks: (1..=board.height()).map(|r| r.to_string()).collect(),
            cells: {
                let cells: Vec<[u32; 2]> = (0..board.len() as u32)
                    .map(|s| {
                        let c = board.cell(s);
                        [c.x, c.y]
                    })
                    .collect();
                let w = board.width();
                let plain = cells.len() as u64 == u64::from(w) * u64::from(board.height())
                    && cells
                        .iter()
                        .enumerate()
                        .all(|(i, &[x, y])| i as u64 == u64::from(y) * u64::from(w) + u64::from(x));
                (!plain).then_some(cells)
            },
            colours: rgb
                .chunks(3)
                .map(|c| format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2]))
                .collect(),
            runs: Vec::new(),
        }
    }

    /// Adds the search `rec` recorded, which ended as `report` (the scene
    /// must carry the move graph for candidates, dead ends and proofs).
    pub(super) fn add_run(&mut self, scene: &Scene, rec: &Recorder, report: &Report) {
        let mut samples = Vec::with_capacity(rec.len());
        let told = crate::render::gif::tell(scene, rec, report, |s: &Sample, told| {
            samples.push(sample(s, told));
            Ok::<(), std::convert::Infallible>(())
        });
        let Ok(ending) = told;
        let status = match report.outcome {
            Outcome::Found(_) => "found",
            Outcome::Impossible(_) => "impossible",
            Outcome::GaveUp { .. } => "gave_up",
            Outcome::Interrupted { .. } => "interrupted",
        };
        let path = match &report.outcome {
            Outcome::Found(t) => t.clone(),
            Outcome::Impossible(_) => Vec::new(),
            Outcome::GaveUp { best, .. } | Outcome::Interrupted { best } => {
                if best.is_empty() {
                    rec.last_path().to_vec()
                } else {
                    best.clone()
                }
            }
        };
        let solver = if report.solver.ran.is_empty() {
            report.solver.to_string()
        } else {
            let names: Vec<String> = report.solver.ran.iter().map(|s| s.to_string()).collect();
            names.join(", then ")
        };
        self.runs.push(RunData {
            solver,
            events: rec.events(),
            samples,
            chart: rec
                .lineage()
                .chart()
                .iter()
                .map(|p| (p.first, p.count, p.best, p.mean))
                .collect(),
            end: EndData {
                status,
                lines: ending.lines,
                path,
                fills: ending.fills,
                legend: ending.legend,
                ring: ending.rings,
            },
        });
    }
}

/// One sample's data.
fn sample(s: &Sample, told: crate::render::gif::Told) -> SampleData {
    let mut lines = told.lines.into_iter();
    let text = lines.next().unwrap_or_default();
    let genetic = matches!(s.event, Event::Generation { .. });
    let (k, sq, why, how, generation, fit) = match s.event {
        Event::Advance | Event::Restart => ("a", None, None, None, None, None),
        Event::Retreat(sq, why) => ("r", Some(sq), Some(why.name()), None, None, None),
        Event::Rewrite { how, .. } => (
            "w",
            None,
            None,
            Some(match how {
                Change::Reversal => "reversal",
                Change::Splice => "splice",
                Change::Rotation => "rotation",
                Change::Resume => "resume",
            }),
            None,
            None,
        ),
        Event::Generation {
            generation,
            fitness,
            ..
        } => ("g", None, None, None, Some(generation), Some(fitness)),
    };
    // A time-lapse sample's event is the one that copied its path in: not
    // one to describe or mark.
    let one = s.first == s.last;
    SampleData {
        i: s.index,
        f: s.first,
        l: s.last,
        s: s.step,
        k,
        p: s.keep,
        t: s.path[s.keep.min(s.path.len())..].to_vec(),
        lo: s.low,
        n: s.nodes,
        b: s.backtracks,
        r: s.restarts,
        best: s.best,
        text,
        more: if genetic { lines.collect() } else { Vec::new() },
        sq: sq.filter(|_| one),
        why: why.filter(|_| one),
        how: how.filter(|_| one),
        ring: told.rings,
        dead: told.dead,
        cand: told
            .candidates
            .into_iter()
            .map(|(sq, count, best)| (sq, count, u8::from(best)))
            .collect(),
        rep: told.repaired,
        legal: told.legal,
        generation,
        fit,
        settled: told.settled,
    }
}
