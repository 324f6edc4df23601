//! The trace: a search's events as JSON lines (`--trace OUT.jsonl`), for
//! loading into a notebook.
//!
//! The first line names the format and the board; then one line per event,
//! in order; the last line gives the outcome. Squares are `[x, y]`, zero-based
//! from a1. Replaying the events from an empty path gives the path the solver
//! held after each one:
//!
//! ```text
//! {"trace":"engine search events","version":1,"width":5,"height":5,"squares":25}
//! {"i":0,"event":"advance","square":[0,0]}
//! {"i":1,"event":"advance","square":[1,2]}
//! {"i":2,"event":"retreat","square":[1,2],"why":"no_entry","at":[[0,1]]}
//! {"i":3,"event":"rewrite","how":"rotation","from":7,"tail":[[3,4],[1,3]]}
//! {"event":"restart"}
//! {"i":4,"event":"generation","generation":2,"fitness":40,"legal":40,"walk":[[0,0],[1,2]],"mean":31.5,"repaired":[1]}
//! {"event":"end","status":"found","path":[[0,0],[1,2]]}
//! ```
//!
//! - `advance`: append `square`; `retreat`: remove the last square (it is
//!   `square`; `why` names the reason and `at` the squares it is about,
//!   see [`Why`](crate::search::event::Why)); `rewrite`: keep the first `from` squares and put `tail`
//!   after them (`how`: `rotation`, `splice` or `reversal`); `restart`: the
//!   path is empty (restarts are not numbered); `generation`: the path is
//!   `walk`, the best walk of that generation; `mean` is the population's
//!   mean fitness and `repaired` the indices `i` of the squares of `walk`
//!   whose move into them was made by a repaired gene.
//! - `end`: `status` as `run --format json` says it; `path` the tour, or the
//!   longest path found.
//!
//! A sampled trace (`--trace-sampled`) holds instead the samples a search GIF
//! draws, each a whole path: `{"sample":k,"first":a,"last":b,"step":true,
//! "low":l,"nodes":..,"backtracks":..,"restarts":..,"path":[..]}` — events
//! `first..=last`, the deepest path among them, whose first `low` squares
//! stayed in place throughout.

use std::io::{self, Write};

use crate::model::Board;
use crate::render::record::Recorder;
use crate::search::event::{Event, Observer};
use crate::solve::{Outcome, Report};

/// An [`Observer`] writing every event as a line of JSON. Writing stops at
/// the first error, which [`Trace::finish`] returns.
pub struct Trace<'b, W: Write> {
    w: W,
    board: &'b Board,
    index: u64,
    error: Option<io::Error>,
    /// A generation's line is written but not closed: the solver's
    /// account of it ([`Observer::generation`]) may follow.
    open: bool,
}

impl<'b, W: Write> Trace<'b, W> {
    /// A trace of a search on `board` into `w`, its header written.
    pub fn new(mut w: W, board: &'b Board) -> Trace<'b, W> {
        let error = header(&mut w, board).err();
        Trace {
            w,
            board,
            index: 0,
            error,
            open: false,
        }
    }

    /// Writes the outcome line; the first error met, if any.
    pub fn finish(mut self, report: &Report) -> io::Result<()> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.close()?;
        end(&mut self.w, self.board, report)?;
        self.w.flush()
    }

    /// Ends a generation's line left open.
    fn close(&mut self) -> io::Result<()> {
        if std::mem::take(&mut self.open) {
            writeln!(self.w, "}}")?;
        }
        Ok(())
    }

    fn line(&mut self, event: Event, path: &[u32]) -> io::Result<()> {
        self.close()?;
        let w = &mut self.w;
        let board = self.board;
        if event == Event::Restart {
            return writeln!(w, r#"{{"event":"restart"}}"#);
        }
        let i = self.index;
        self.index += 1;
        match event {
            Event::Advance => {
                write!(w, r#"{{"i":{i},"event":"advance","square":"#)?;
                square(w, board, path.last().copied().unwrap_or(0))?;
            }
            Event::Retreat(s, why) => {
                write!(w, r#"{{"i":{i},"event":"retreat","square":"#)?;
                square(w, board, s)?;
                write!(w, r#","why":"{}""#, why.name())?;
                if why.squares().next().is_some() {
                    w.write_all(br#","at":["#)?;
                    for (k, at) in why.squares().enumerate() {
                        if k > 0 {
                            w.write_all(b",")?;
                        }
                        square(w, board, at)?;
                    }
                    w.write_all(b"]")?;
                }
            }
            Event::Rewrite { from, how } => {
                write!(
                    w,
                    r#"{{"i":{i},"event":"rewrite","how":"{}","from":{from},"tail":"#,
                    how.name()
                )?;
                squares(w, board, path.get(from..).unwrap_or(&[]))?;
            }
            Event::Generation {
                generation,
                fitness,
                legal,
            } => {
                write!(
                    w,
                    r#"{{"i":{i},"event":"generation","generation":{generation},"fitness":{fitness},"legal":{legal},"walk":"#
                )?;
                squares(w, board, path)?;
                self.open = true;
                return Ok(());
            }
            Event::Restart => {}
        }
        writeln!(w, "}}")
    }

    /// Adds a generation's mean fitness and repaired moves to its line.
    fn detail(&mut self, mean: f64, repaired: &[bool]) -> io::Result<()> {
        if !std::mem::take(&mut self.open) {
            return Ok(());
        }
        let mean = if mean.is_finite() { mean } else { 0.0 };
        write!(self.w, r#","mean":{mean},"repaired":["#)?;
        let mut first = true;
        for (i, _) in repaired.iter().enumerate().filter(|(_, r)| **r) {
            write!(self.w, "{}{i}", if first { "" } else { "," })?;
            first = false;
        }
        writeln!(self.w, "]}}")
    }
}

impl<W: Write> Observer for Trace<'_, W> {
    fn event(&mut self, event: Event, path: &[u32]) {
        if self.error.is_none()
            && let Err(e) = self.line(event, path)
        {
            self.error = Some(e);
        }
    }

    fn generation(&mut self, mean: f64, repaired: &[bool]) {
        if self.error.is_none()
            && let Err(e) = self.detail(mean, repaired)
        {
            self.error = Some(e);
        }
    }
}

/// Writes the samples `rec` kept as a sampled trace, with the outcome.
pub fn write_samples<W: Write>(
    w: &mut W,
    board: &Board,
    rec: &Recorder,
    report: &Report,
) -> io::Result<()> {
    header(w, board)?;
    let mut k = 0u64;
    rec.replay(|s| {
        write!(
            w,
            r#"{{"sample":{k},"first":{},"last":{},"step":{},"low":{},"nodes":{},"backtracks":{},"restarts":{},"path":"#,
            s.first, s.last, s.step, s.low, s.nodes, s.backtracks, s.restarts
        )?;
        squares(w, board, s.path)?;
        k += 1;
        writeln!(w, "}}")
    })?;
    end(w, board, report)?;
    w.flush()
}

/// How every trace begins: its first line's first key.
const MARK: &str = r#"{"trace":"engine search events""#;

/// A trace, as an output file: one whose first line begins with its mark
/// (any version), replaced by a new trace where another file is not.
pub const KIND: crate::output::Kind = crate::output::Kind {
    name: "a search trace",
    is: |b| crate::output::starts_text(b, MARK),
};

fn header<W: Write>(w: &mut W, board: &Board) -> io::Result<()> {
    writeln!(
        w,
        r#"{MARK},"version":1,"width":{},"height":{},"squares":{}}}"#,
        board.width(),
        board.height(),
        board.len()
    )
}

fn end<W: Write>(w: &mut W, board: &Board, report: &Report) -> io::Result<()> {
    let status = match report.outcome {
        Outcome::Found(_) => "found",
        Outcome::Impossible(_) => "impossible",
        Outcome::GaveUp { .. } => "gave_up",
        Outcome::Interrupted { .. } => "interrupted",
    };
    write!(w, r#"{{"event":"end","status":"{status}","path":"#)?;
    squares(w, board, report.outcome.path())?;
    writeln!(w, "}}")
}

fn square<W: Write>(w: &mut W, board: &Board, s: u32) -> io::Result<()> {
    let c = board.cell(s);
    write!(w, "[{},{}]", c.x, c.y)
}

fn squares<W: Write>(w: &mut W, board: &Board, path: &[u32]) -> io::Result<()> {
    w.write_all(b"[")?;
    for (i, &s) in path.iter().enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        square(w, board, s)?;
    }
    w.write_all(b"]")
}
