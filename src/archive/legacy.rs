//! Reading what schema 1 kept as text for people: the solver label, such as
//! `warnsdorff (tie-break: lookahead; 4 repairs, 56 rotations), then
//! backtrack (order: warnsdorff)`, and the requested solver as `{:?}` of
//! [`SolverSpec`]. Schema 2 keeps both as data; the migration rebuilds the
//! data from the text as well as the text allows.

use crate::halt::Limit;
use crate::puzzle::Puzzle;
use crate::solve::backtrack::{BacktrackOptions, Order};
use crate::solve::genetic::{GeneticOptions, Preset, Repair, Selection};
use crate::solve::warnsdorff::{DEFAULT_RESTARTS, TieBreak, WarnsdorffOptions};
use crate::solve::{AutoPick, SolverId, SolverSpec};

/// What an old solver label says.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// The kind of the solver that produced the outcome (the last of a
    /// `, then ` chain; `check` reads as `proofs`).
    pub kind: String,
    /// The solvers and options, as far as the label names them.
    pub id: SolverId,
    /// Stuck walks repaired, from `; N repairs, M rotations`.
    pub repairs: u64,
    /// Pósa rotations, from the same.
    pub rotations: u64,
}

/// The spec a run asked for, from schema 1's `options` column (the `{:?}`
/// of its [`SolverSpec`]). The old `run` could only ask for the file's own
/// spec or a kind's defaults (`--solver`), so those are the candidates;
/// failing them, the named kind with default options, else `Auto`.
pub fn read_requested(options: &str, file: Option<&SolverSpec>) -> SolverSpec {
    let candidates = [
        SolverSpec::Auto,
        SolverSpec::Backtrack(BacktrackOptions::default()),
        SolverSpec::Warnsdorff(WarnsdorffOptions::default()),
        SolverSpec::Genetic(GeneticOptions::default()),
    ];
    if let Some(s) = file
        .into_iter()
        .chain(candidates.iter())
        .find(|c| format!("{c:?}") == options.trim())
    {
        return *s;
    }
    let name = options.split('(').next().unwrap_or_default().trim();
    candidates
        .into_iter()
        .find(|c| format!("{c:?}").starts_with(name) && !name.is_empty())
        .unwrap_or(SolverSpec::Auto)
}

/// The sizes up to which `Auto` picked backtracking when schema 1 archives
/// were written (open and closed tours).
const V1_SMALL_OPEN: usize = 64;
const V1_SMALL_CLOSED: usize = 30;

/// What `Auto` picked for `p` when schema 1 archives were written (as
/// `runner::auto_choice` did then, without building the move graph: it
/// has one node per square).
pub fn auto_pick(p: &Puzzle) -> AutoPick {
    let squares = p.board.len();
    let small = if p.goal.closed {
        V1_SMALL_CLOSED
    } else {
        V1_SMALL_OPEN
    };
    if squares <= small {
        AutoPick::Small {
            squares,
            first_nodes: None,
        }
    } else {
        AutoPick::Large {
            squares,
            fallback_nodes: None,
        }
    }
}

/// Reads an old solver label. `requested` is the spec the run asked for
/// (its options fill what the label leaves out); `auto` is what `Auto`
/// picked, when the run asked for `Auto` and its puzzle is known (old
/// archives dropped the `[auto picked …]` note; one still in the label wins).
pub fn read_label(label: &str, requested: &SolverSpec, auto: Option<AutoPick>) -> Label {
    let (body, note) = match label.split_once(" [") {
        Some((b, n)) => (b, Some(n)),
        None => (label, None),
    };
    let mut out = Label {
        kind: "none".to_string(),
        id: SolverId::default(),
        repairs: 0,
        rotations: 0,
    };
    for part in body.split(", then ") {
        let part = part.trim();
        let (clean, results) = split_results(part);
        if let Some((repairs, rotations)) = results {
            out.repairs += repairs;
            out.rotations += rotations;
        }
        let name = clean.split(" (").next().unwrap_or_default().trim();
        out.kind = match name {
            "check" | "proofs" => "proofs".to_string(),
            "" => "none".to_string(),
            other => other.to_string(),
        };
        match name {
            "check" | "proofs" => out.id.proofs = true,
            "none" | "" => {}
            _ => {
                if let Some(spec) = read_spec(&clean, requested) {
                    out.id.ran.push(spec);
                }
            }
        }
    }
    if !out.id.ran.is_empty() {
        out.id.auto = note.and_then(read_note).or(match requested {
            SolverSpec::Auto => auto,
            _ => None,
        });
    }
    out
}

/// `warnsdorff (tie-break: random; 1 repairs, 2 rotations)` as
/// `warnsdorff (tie-break: random)` and (1, 2).
fn split_results(part: &str) -> (String, Option<(u64, u64)>) {
    let Some((head, rest)) = part.split_once("; ") else {
        return (part.to_string(), None);
    };
    let rest = rest.trim_end_matches(')');
    let mut counts = rest.split(", ").map(|c| {
        let mut w = c.split_whitespace();
        (w.next().and_then(|n| n.parse::<u64>().ok()), w.next())
    });
    let results = match (counts.next(), counts.next()) {
        (Some((Some(r), Some("repairs"))), Some((Some(t), Some("rotations")))) => Some((r, t)),
        _ => None,
    };
    (format!("{head})"), results)
}

/// `auto picked warnsdorff: 64 squares is too many…`.
fn read_note(note: &str) -> Option<AutoPick> {
    let rest = note.strip_prefix("auto picked ")?;
    let (solver, rest) = rest.split_once(": ")?;
    let squares = rest.split_whitespace().next()?.parse().ok()?;
    if solver.starts_with("backtrack") {
        Some(AutoPick::Small {
            squares,
            first_nodes: None,
        })
    } else if solver.starts_with("warnsdorff") {
        Some(AutoPick::Large {
            squares,
            fallback_nodes: None,
        })
    } else {
        None
    }
}

/// One solver of a label, results stripped: `backtrack (order: given)`.
fn read_spec(text: &str, requested: &SolverSpec) -> Option<SolverSpec> {
    if *requested != SolverSpec::Auto && requested.to_string() == text {
        return Some(*requested);
    }
    let (name, fields) = text.split_once(" (")?;
    let fields = fields.strip_suffix(')')?;
    let field = |key: &str| {
        fields
            .split(", ")
            .find_map(|f| f.strip_prefix(key)?.strip_prefix(": "))
    };
    match name {
        "backtrack" => {
            let mut o = match requested {
                SolverSpec::Backtrack(o) => *o,
                _ => BacktrackOptions::default(),
            };
            o.order = match field("order")? {
                "given" => Order::Given,
                "warnsdorff" => Order::Warnsdorff,
                _ => return None,
            };
            Some(SolverSpec::Backtrack(o))
        }
        "warnsdorff" => {
            let mut o = match requested {
                SolverSpec::Warnsdorff(o) => *o,
                _ => WarnsdorffOptions::default(),
            };
            o.tie_break = match field("tie-break")? {
                "first" => TieBreak::First,
                "random" => TieBreak::Random,
                "lookahead" => TieBreak::Lookahead,
                _ => return None,
            };
            Some(SolverSpec::Warnsdorff(o))
        }
        "genetic" => {
            let generations = match requested {
                SolverSpec::Genetic(o) => o.generations,
                _ => None,
            };
            Some(SolverSpec::Genetic(GeneticOptions {
                preset: match field("preset")? {
                    "classic" => Preset::Classic,
                    "tuned" => Preset::Tuned,
                    _ => return None,
                },
                population: Some(field("population")?.parse().ok()?),
                mutation: Some(field("mutation")?.parse().ok()?),
                generations,
                selection: Some(match field("selection")? {
                    "roulette" => Selection::Roulette,
                    "tournament" => Selection::Tournament,
                    _ => return None,
                }),
                repair: Some(match field("repair")? {
                    "cycle" => Repair::Cycle,
                    "warnsdorff" => Repair::Warnsdorff,
                    _ => return None,
                }),
                elitism: Some(field("elitism")?.parse().ok()?),
            }))
        }
        _ => None,
    }
}

/// Which limit most likely ended a run schema 1 saved as given up (it kept
/// no reason): the solver's own limit when the figures reach it, else the
/// time limit. Warnsdorff's rule alone, outside `Auto`, gives up on its
/// restarts (under `Auto` that would have started the fallback).
pub fn gave_up_limit(id: &SolverId, nodes: u64, generations: u64) -> Limit {
    match id.ran.last() {
        Some(SolverSpec::Warnsdorff(_)) if id.ran.len() == 1 && id.auto.is_none() => {
            Limit::Restarts
        }
        Some(SolverSpec::Genetic(o)) if generations >= o.params().generations => Limit::Generations,
        Some(SolverSpec::Backtrack(o)) if o.node_limit.is_some_and(|l| nodes >= l) => Limit::Nodes,
        _ => Limit::Time,
    }
}

/// Restarts a schema-1 run made, where the run shows them: a Warnsdorff
/// stage that ran out of restarts (before `Auto`'s fallback, or giving up
/// on `limit`) made all it was allowed; otherwise unknown, and 0.
pub fn restarts(id: &SolverId, limit: Option<Limit>) -> u64 {
    match id.ran.first() {
        Some(SolverSpec::Warnsdorff(o)) if id.ran.len() > 1 || limit == Some(Limit::Restarts) => {
            u64::from(o.restarts.unwrap_or(DEFAULT_RESTARTS))
        }
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const AUTO_NOTE: &str = " [auto picked warnsdorff: 100 squares is too many to search exhaustively, and the rule finds tours in linear time; if it gives up, backtracking follows]";

    #[test]
    fn a_fallback_chain_reads_as_its_solvers() {
        let label = format!(
            "warnsdorff (tie-break: lookahead; 0 repairs, 3 rotations), then backtrack (order: warnsdorff){AUTO_NOTE}"
        );
        let l = read_label(&label, &SolverSpec::Auto, None);
        assert_eq!(l.kind, "backtrack");
        assert_eq!((l.repairs, l.rotations), (0, 3));
        assert_eq!(
            l.id,
            SolverId {
                ran: vec![
                    SolverSpec::Warnsdorff(WarnsdorffOptions::default()),
                    SolverSpec::Backtrack(BacktrackOptions::default()),
                ],
                proofs: false,
                auto: Some(AutoPick::Large {
                    squares: 100,
                    fallback_nodes: None,
                }),
                clause_learning: false,
                magic: false,
                annealed: false,
                balanced: false,
            }
        );
        assert_eq!(
            l.id.to_string(),
            label.replace("; 0 repairs, 3 rotations", "")
        );
        assert_eq!(restarts(&l.id, None), 20);
    }

    #[test]
    fn labels_without_search() {
        let check = read_label("check (no search needed)", &SolverSpec::Auto, None);
        assert_eq!(check.kind, "proofs");
        assert_eq!(check.id, SolverId::proofs());
        let none = read_label(
            "none (stopped while building the move graph)",
            &SolverSpec::Auto,
            Some(AutoPick::Small {
                squares: 9,
                first_nodes: None,
            }),
        );
        assert_eq!(none.kind, "none");
        assert_eq!(none.id, SolverId::default());
    }

    #[test]
    fn options_come_from_the_label_and_the_request() {
        let requested = SolverSpec::Warnsdorff(WarnsdorffOptions {
            tie_break: TieBreak::Lookahead,
            restarts: Some(5),
            repair: None,
        });
        let l = read_label(
            "warnsdorff (tie-break: random; 12 repairs, 40 rotations)",
            &requested,
            None,
        );
        assert_eq!(l.kind, "warnsdorff");
        assert_eq!((l.repairs, l.rotations), (12, 40));
        assert_eq!(
            l.id,
            SolverId::of(SolverSpec::Warnsdorff(WarnsdorffOptions {
                tie_break: TieBreak::Random,
                restarts: Some(5),
                repair: None,
            }))
        );
        assert_eq!(gave_up_limit(&l.id, 0, 0), Limit::Restarts);
        assert_eq!(restarts(&l.id, Some(Limit::Restarts)), 5);
        let text = "genetic (preset: classic, population: 30, mutation: 0.05, selection: tournament, repair: warnsdorff, elitism: 1)";
        let g = read_label(text, &SolverSpec::Auto, None);
        assert_eq!(g.kind, "genetic");
        assert_eq!(g.id.to_string(), text);
        let bt = SolverSpec::Backtrack(BacktrackOptions {
            order: Order::Given,
            node_limit: Some(1000),
        });
        let b = read_label("backtrack (order: given)", &bt, None);
        assert_eq!(b.id, SolverId::of(bt));
        assert_eq!(gave_up_limit(&b.id, 4096, 0), Limit::Nodes);
        assert_eq!(gave_up_limit(&b.id, 999, 0), Limit::Time);
    }

    #[test]
    fn unknown_text_keeps_its_kind() {
        let l = read_label("oracle (mood: good)", &SolverSpec::Auto, None);
        assert_eq!(l.kind, "oracle");
        assert_eq!(l.id, SolverId::default());
        let l = read_label("", &SolverSpec::Auto, None);
        assert_eq!(l.kind, "none");
        let l = read_label(
            "warnsdorff (tie-break: sideways; x repairs)",
            &SolverSpec::Auto,
            None,
        );
        assert_eq!((l.kind.as_str(), l.repairs), ("warnsdorff", 0));
        assert!(l.id.ran.is_empty());
    }

    #[test]
    fn requested_specs_read_back() {
        let file = SolverSpec::Genetic(GeneticOptions {
            preset: Preset::Classic,
            generations: Some(1),
            ..GeneticOptions::default()
        });
        for spec in [
            SolverSpec::Auto,
            SolverSpec::Backtrack(BacktrackOptions::default()),
            SolverSpec::Warnsdorff(WarnsdorffOptions::default()),
            SolverSpec::Genetic(GeneticOptions::default()),
            file,
        ] {
            assert_eq!(read_requested(&format!("{spec:?}"), Some(&file)), spec);
        }
        assert_eq!(
            read_requested(
                "Backtrack(BacktrackOptions { order: Given, node_limit: Some(7) })",
                None
            ),
            SolverSpec::Backtrack(BacktrackOptions::default())
        );
        assert_eq!(read_requested("", None), SolverSpec::Auto);
        assert_eq!(read_requested("Quantum", None), SolverSpec::Auto);
    }
}
