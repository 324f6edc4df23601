//! The JSON report of `engine run` ([`RunJson`]), written as it is made
//! ([`RunJson::write`]), and of `engine run --unique` ([`UniqueJson`]): the
//! run's report with the second solution and where the two first differ.

use serde::ser::{Serialize, SerializeSeq, Serializer};

use super::millis;
use crate::model::{Board, Piece, file_name};
use crate::render::text::board::{Pieces, each_part};
use crate::solve::{Outcome, Report};

/// The report of `engine run --format json`. Its fields serialize in the
/// order it prints them: the head's keys sorted, then the two per-square
/// arrays.
#[derive(Clone, Debug, serde::Serialize)]
pub struct RunJson<'a> {
    /// Everything but the per-square arrays.
    #[serde(flatten)]
    pub head: RunHead,
    /// The path's squares by name (`a1`): the tour found, or the longest
    /// path of a search that stopped; empty when there is none.
    pub squares: SquareNames<'a>,
    /// The same squares as `[x, y]` pairs from a1 = `[0, 0]`.
    pub tour: SquarePairs<'a>,
}

/// The fields of a run's report but its per-square arrays (keys sorted).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RunHead {
    /// The board's size and kind.
    pub board: RunBoard,
    /// Whether a closed tour was asked for.
    pub closed: bool,
    /// The puzzle's name.
    pub name: String,
    /// The piece's moves, as `(dx,dy)` pairs (or Betza text for riders).
    pub piece: String,
    /// Why no tour exists (`impossible`), or the limit that ran out
    /// (`gave_up`); else null.
    pub reason: Option<String>,
    /// The run's id in the archive when it was saved, else null.
    pub run_id: Option<i64>,
    /// The solvers that ran, as the stats line writes them.
    pub solver: String,
    /// The kind of the solver that settled it: `backtrack`, `warnsdorff`,
    /// `genetic`, `symmetric`, `proofs` or `none`.
    pub solver_kind: &'static str,
    /// What a search from every start square did with them; null for a
    /// search from a fixed start.
    pub starts: Option<RunStarts>,
    /// The search's counters and time.
    pub stats: RunStats,
    /// `found`, `impossible`, `gave_up` or `interrupted`; with `--unique`
    /// also `unique` or `multiple`.
    pub status: &'static str,
}

/// A board in a run's report.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RunBoard {
    /// Ranks.
    pub height: u32,
    /// Squares on the board (removed ones left out).
    pub squares: usize,
    /// `plain`, `cylinder`, `torus`, … as a puzzle file writes it.
    pub topology: String,
    /// Files.
    pub width: u32,
}

/// The counters of a run.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RunStats {
    /// Steps taken back.
    pub backtracks: u64,
    /// Generations of the genetic solver.
    pub generations: u64,
    /// Squares entered.
    pub nodes: u64,
    /// Stuck walks repaired (Warnsdorff).
    pub repairs: u64,
    /// Restarts, or further start squares tried.
    pub restarts: u64,
    /// Pósa rotations (Warnsdorff).
    pub rotations: u64,
    /// Wall time in milliseconds.
    pub time_ms: f64,
}

/// What a search from every start square did with them.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RunStarts {
    /// Squares to search from: neither ruled out nor images of others.
    pub candidates: usize,
    /// Squares left out as mirror images of searched ones.
    pub images: usize,
    /// Squares proved to start no tour, with the rule, in order.
    pub ruled_out: Vec<RuledOut>,
    /// Of the candidates, the squares searched from.
    pub searched: usize,
}

/// A start square ruled out before the search.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RuledOut {
    /// The rule: `colours`, `one move`, ….
    pub rule: &'static str,
    /// The square, by name.
    pub square: String,
}

/// A path's squares by name, serialized as a list without building it.
#[derive(Clone, Copy, Debug)]
pub struct SquareNames<'a> {
    board: &'a Board,
    path: &'a [u32],
}

/// A path's squares as `[x, y]` pairs, serialized as a list without
/// building it.
#[derive(Clone, Copy, Debug)]
pub struct SquarePairs<'a> {
    board: &'a Board,
    path: &'a [u32],
}

impl Serialize for SquareNames<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.path.len()))?;
        for &q in self.path {
            seq.serialize_element(&self.board.name(q))?;
        }
        seq.end()
    }
}

impl Serialize for SquarePairs<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.path.len()))?;
        for &q in self.path {
            let c = self.board.cell(q);
            seq.serialize_element(&[c.x, c.y])?;
        }
        seq.end()
    }
}

impl<'a> RunJson<'a> {
    /// The report of `report`, a run of the puzzle `name` (`piece` on
    /// `board`, `closed` or open); `saved` is the run's id in the archive,
    /// if it was saved.
    pub fn new(
        name: &str,
        board: &'a Board,
        piece: &Piece,
        closed: bool,
        report: &'a Report,
        saved: Option<i64>,
    ) -> RunJson<'a> {
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
        let path = report.outcome.path();
        RunJson {
            head: RunHead {
                board: RunBoard {
                    height: board.height(),
                    squares: board.len(),
                    topology: board.topology().to_string(),
                    width: board.width(),
                },
                closed,
                name: name.to_string(),
                piece: piece.to_string(),
                reason,
                run_id: saved,
                solver: report.solver.to_string(),
                solver_kind: report.solver.kind(),
                starts: report.starts.as_ref().map(|st| RunStarts {
                    candidates: st.candidates,
                    images: st.images,
                    ruled_out: st
                        .ruled_out
                        .iter()
                        .map(|&(sq, r)| RuledOut {
                            rule: r.name(),
                            square: board.name(sq),
                        })
                        .collect(),
                    searched: st.searched,
                }),
                stats: RunStats {
                    backtracks: s.backtracks,
                    generations: s.generations,
                    nodes: s.nodes,
                    repairs: s.repairs,
                    restarts: s.restarts,
                    rotations: s.rotations,
                    time_ms: millis(s.elapsed),
                },
                status,
            },
            squares: SquareNames { board, path },
            tour: SquarePairs { board, path },
        }
    }

    /// Writes the report to `w` as one line without its newline, as
    /// serde would, but with the two per-square arrays formatted in chunks
    /// on every core and streamed: a 4096x4096 tour has 16 million squares.
    pub fn write(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        let head = serde_json::to_value(&self.head).map_err(std::io::Error::other)?;
        let head = head.to_string();
        // The object without its closing brace, then the two arrays.
        let head = head.strip_suffix('}').unwrap_or(&head);
        w.write_all(head.as_bytes())?;
        let (board, path) = (self.squares.board, self.squares.path);
        let mut failed = Ok(());
        let mut emit = |part: &str| {
            if failed.is_ok() {
                failed = w.write_all(part.as_bytes());
            }
        };
        // Square names are letters and digits: nothing to escape.
        emit(",\"squares\":[");
        let names = Pieces::new(
            board,
            |x| format!("\"{}", file_name(x)),
            |y| format!("{}\"", y + 1),
            ",",
        );
        each_part(board, path, &names, &mut emit);
        emit("],\"tour\":[");
        let pairs = Pieces::new(board, |x| format!("[{x}"), |y| format!(",{y}]"), ",");
        each_part(board, path, &pairs, &mut emit);
        emit("]}");
        failed
    }

    /// [`RunJson::write`] into a string.
    pub fn to_line(&self) -> String {
        let mut out = Vec::new();
        // Writing to memory cannot fail.
        let _ = self.write(&mut out);
        String::from_utf8_lossy(&out).into_owned()
    }
}

/// The report of `engine run --unique --format json`: the run's, with its
/// `status` `unique` or `multiple` when a solution was found, the second
/// solution and where the two first differ. Printed with every key sorted
/// ([`super::line`]).
#[derive(Clone, Debug, serde::Serialize)]
pub struct UniqueJson<'a> {
    /// The run's report.
    #[serde(flatten)]
    pub run: RunJson<'a>,
    /// The first step at which the two solutions differ, when there are
    /// two.
    pub differ: Option<Differ>,
    /// The second solution, when there is one.
    pub second: Option<SecondJson<'a>>,
}

/// Where two solutions first differ.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Differ {
    /// The square of the first solution at that step.
    pub first: String,
    /// The square of the second.
    pub second: String,
    /// The step, from 1.
    pub step: usize,
}

/// A second solution, as the run's arrays give a path.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SecondJson<'a> {
    /// Its squares by name.
    pub squares: SquareNames<'a>,
    /// Its squares as `[x, y]` pairs.
    pub tour: SquarePairs<'a>,
}

impl<'a> UniqueJson<'a> {
    /// The report of `run` with `status` (`unique`, `multiple`, or the
    /// run's), the `second` solution on `board`, if one was found, and the
    /// step (from 0) at which the two first `differ`.
    pub fn new(
        mut run: RunJson<'a>,
        status: &'static str,
        board: &'a Board,
        first: &'a [u32],
        second: Option<&'a [u32]>,
        differ: Option<usize>,
    ) -> UniqueJson<'a> {
        run.head.status = status;
        let name = |k: usize, t: &[u32]| t.get(k).map(|&s| board.name(s)).unwrap_or_default();
        UniqueJson {
            run,
            differ: second.zip(differ).map(|(b, k)| Differ {
                first: name(k, first),
                second: name(k, b),
                step: k + 1,
            }),
            second: second.map(|path| SecondJson {
                squares: SquareNames { board, path },
                tour: SquarePairs { board, path },
            }),
        }
    }
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
            let json = RunJson::new("test \"quoted\"", &b, &piece, false, &report, None);
            let text = json.to_line();
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
            // The streamed line is what serde writes, byte for byte: the
            // head's fields are declared in sorted order.
            assert_eq!(
                serde_json::to_string(&json).ok().as_deref(),
                Some(&text[..])
            );
        }
    }
}
