//! The generator of clue puzzles (`engine make`): a random tour, every one
//! of its steps a clue, then clues taken out one at a time, in random
//! order, while the puzzle stays unique (and, with a difficulty asked, in
//! its band); then the puzzle file and its pictures.
//!
//! Clues 1 and n are never taken out, as in a published Hidato. A clue is
//! taken out when the puzzle without it is still unique, proved either by
//! the deductions of [`difficulty`] (when they place every step, there is
//! one solution) or by searches within budgets for a second solution
//! (`second_solution`: a short turn of the complete search over the steps
//! of [`crate::solve::clued`], then the clause-learning search of [`sat`](crate::solve::clued::sat)).
//! A second solution found is kept: a later clue whose removal it also
//! fits is kept without a search. A search that runs out of nodes proves
//! nothing, and the clue stays.
//!
//! Taking out clues only ever adds solutions, so one pass over the clues
//! leaves a *minimal* puzzle: none of its clues can be taken out on its own
//! (the ones kept because a search ran out of nodes excepted, and counted).

pub mod difficulty;
pub mod file;
mod magic;
pub mod sheet;
pub mod svg;
pub mod tour;
pub mod words;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::error::{Fields, Names, called};
use crate::halt::{Halt, Limit, Limits, Stop};
use crate::model::{Constraints, MoveGraph};
use crate::progress::Progress;
use crate::puzzle::Puzzle;
use crate::search::event::NoObserver;
use crate::solve::backtrack::{BacktrackOptions, Order};
use crate::solve::clued::deduce;
use crate::solve::runner::{self, InvalidTour};
use crate::solve::{Outcome, Run, SolverSpec, Task, clued};
use crate::words::counted;
pub use difficulty::Difficulty;

/// When to stop taking clues out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// When no clue can be taken out.
    Minimal,
    /// When this many clues are left (or none can be taken out).
    Clues(usize),
}

/// What to make.
#[derive(Clone, Copy, Debug)]
pub struct MakeOptions {
    /// Seed of every random choice.
    pub seed: u64,
    /// When to stop taking clues out.
    pub target: Target,
    /// The band the measured difficulty must fall in, if any.
    pub difficulty: Option<Difficulty>,
    /// Nodes each search for a second solution may take (the search over
    /// the steps at most [`STEPS_FIRST`] of them, the clause-learning search
    /// an eighth of it in conflicts, at least one), and conflicts the final
    /// proof may take.
    pub node_limit: u64,
    /// Tours to try before giving up on the target.
    pub attempts: u32,
}

/// The node budget of each search for a second solution, by default.
pub const DEFAULT_NODE_LIMIT: u64 = 1_000_000;

/// The most nodes of the search over the steps in each search for a second
/// solution, before the clause-learning search takes over.
pub const STEPS_FIRST: u64 = 1 << 16;

/// The time `make` takes by default, in seconds: when it runs out, the
/// puzzle as it stands (unique, perhaps not minimal) is the answer.
pub const DEFAULT_SECONDS: f64 = 60.0;

/// Tours tried, by default, before the target is given up.
pub const DEFAULT_ATTEMPTS: u32 = 20;

/// Seeded walks tried for a random tour before the complete search.
const WALKS: u32 = 16;

/// What became of the clues tried.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checks {
    /// Taken out: the deductions alone still solve the puzzle.
    pub deduced: u32,
    /// Taken out: the search proved the puzzle still unique.
    pub searched: u32,
    /// Kept: a second solution found before fits without it.
    pub known: u32,
    /// Kept: the search found a second solution.
    pub multiple: u32,
    /// Kept: without it the puzzle would be outside the difficulty band.
    pub band: u32,
    /// Kept: the searches ran out of nodes and conflicts (nothing proven).
    pub unknown: u32,
    /// Nodes and conflicts of every search.
    pub nodes: u64,
}

/// A puzzle made.
#[derive(Clone, Debug)]
pub struct Made {
    /// The solution, verified.
    pub tour: Vec<u32>,
    /// The clues, `(step, square)` sorted by step, steps from 1.
    pub clues: Vec<(u32, u32)>,
    /// Squares the deductions fill, clues included.
    pub filled: usize,
    /// The band that puts it in.
    pub difficulty: Difficulty,
    /// How the puzzle was proved unique at the end.
    pub proof: Proof,
    /// The attempt (from 1) that made it.
    pub attempt: u32,
    /// What became of the clues tried in that attempt.
    pub checks: Checks,
    /// What stopped the taking out of clues before every clue was tried
    /// (the time limit): the puzzle is unique, as each clue taken out was
    /// proved, but may not be minimal.
    pub stopped: Option<Stop>,
}

/// How a puzzle made was proved unique.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The deductions alone place every step.
    Deductions,
    /// The clause-learning search ([`sat`](crate::solve::clued::sat)), in this many conflicts.
    Sat(u64),
    /// The search for a second solution when its last clue was taken out,
    /// in this many nodes and conflicts (a puzzle whose making the time
    /// limit stopped, and whose final proof did not run).
    Search(u64),
    /// The magic search for a second magic solution when its last clue was
    /// taken out, in this many nodes (a puzzle that asks for a magic tour).
    Magic(u64),
}

/// Why no puzzle was made.
#[derive(Debug)]
pub enum Failure {
    /// Proven: the puzzle has no tour (the reason, for people).
    NoTour(String),
    /// A limit (time) or Ctrl-C stopped the work.
    Stopped(Stop),
    /// No attempt met the target; why, for people.
    Missed(Miss),
    /// A tour or a deduction failed its check: a bug.
    Bug(InvalidTour),
}

/// Why no attempt met the target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Miss {
    /// No attempt had the clues or the difficulty asked: why, in words.
    Target(String),
    /// The proof that the puzzle made is unique ran out of this many
    /// conflicts (its `node_limit`).
    Proof(u64),
}

impl Miss {
    /// Why, for people, with options named as `names` calls them (a larger
    /// `node_limit` settles a proof that ran out).
    pub fn words(&self, names: &dyn Names) -> String {
        match self {
            Miss::Target(why) => why.clone(),
            Miss::Proof(conflicts) => format!(
                "the proof that the puzzle made is unique ran out of {}; a larger {} may settle it",
                counted(*conflicts, "conflict"),
                called(names, "node_limit")
            ),
        }
    }
}

impl std::fmt::Display for Miss {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.words(&Fields))
    }
}

impl From<Stop> for Failure {
    fn from(s: Stop) -> Failure {
        Failure::Stopped(s)
    }
}

/// Makes a puzzle of `puzzle` (its board, piece and goal; it has no clues
/// and no symmetry) on its move graph `graph`, within `limits`; `progress`
/// shows the searches' nodes. A puzzle that asks for a magic tour (which
/// may give clues that narrow it) is made by the magic search's rules.
pub fn make(
    puzzle: &Puzzle,
    graph: &MoveGraph,
    opts: &MakeOptions,
    limits: Limits<'_>,
    progress: &Progress,
) -> Result<Made, Failure> {
    if puzzle.constraints.magic.is_some() {
        return magic::make(puzzle, graph, opts, limits, progress);
    }
    let n = graph.len();
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    let walk_nodes = (64 * n as u64).max(100_000);
    let mut fallback: Option<Vec<u32>> = None;
    let mut closest: Option<(usize, usize)> = None;
    for attempt in 1..=opts.attempts.max(1) {
        let tour =
            match tour::random_tour(graph, &puzzle.goal, &mut rng, WALKS, walk_nodes, &limits)? {
                Some(t) => t,
                None => match &fallback {
                    Some(t) => t.clone(),
                    None => {
                        let t = complete_tour(puzzle, graph, limits, progress)?;
                        fallback = Some(t.clone());
                        t
                    }
                },
            };
        check(puzzle, "the random walk", &tour, &[])?;
        let reduced = reduce(puzzle, graph, &tour, opts, &mut rng, limits, progress)?;
        let clues = reduced.clues;
        let filled = deduced(graph, puzzle, &clues, &tour)?.filled();
        let band = Difficulty::of(filled, n);
        let count_ok = match opts.target {
            Target::Minimal => true,
            Target::Clues(k) => clues.len() <= k,
        };
        let band_ok = opts.difficulty.is_none_or(|d| d == band);
        let made = |proof, stopped| Made {
            tour: tour.clone(),
            clues: clues.clone(),
            filled,
            difficulty: band,
            proof,
            attempt,
            checks: reduced.checks,
            stopped,
        };
        match reduced.stopped {
            // Out of time: the puzzle as it stands is the best attempt, when
            // it meets the target; each clue taken out was proved.
            Some(stop @ Stop::Limit(_)) if count_ok && band_ok => {
                let proof = if filled == n {
                    Proof::Deductions
                } else {
                    reduced.proof
                };
                return Ok(made(proof, Some(stop)));
            }
            Some(stop) => return Err(Failure::Stopped(stop)),
            None => {}
        }
        if count_ok && band_ok {
            return match prove(puzzle, graph, &clues, &tour, opts, limits) {
                Ok(proof) => Ok(made(proof, None)),
                Err(Failure::Stopped(stop @ Stop::Limit(_))) => Ok(made(reduced.proof, Some(stop))),
                Err(e) => Err(e),
            };
        }
        // The attempt nearest the target: fewest clues, then fewest filled.
        let key = (clues.len(), filled);
        if closest.is_none_or(|c| key < c) {
            closest = Some(key);
        }
    }
    let (clues, filled) = closest.unwrap_or((n, n));
    let tries = opts.attempts.max(1);
    let tours = counted(tries as u64, "tour");
    Err(Failure::Missed(Miss::Target(
        match (opts.target, opts.difficulty) {
            (Target::Clues(k), _) if clues > k => format!(
                "no puzzle with {} or fewer from {tours}: the fewest was {clues} (no clue could be taken out of it)",
                counted(k as u64, "clue")
            ),
            (_, Some(d)) => format!(
                "no {} puzzle from {tours}: the nearest had its deductions fill {filled} of {} ({})",
                d.name(),
                counted(n as u64, "square"),
                Difficulty::of(filled, n).name()
            ),
            _ => format!("no puzzle from {tours}"),
        },
    )))
}

/// A tour by the runner's complete search (when no random walk found one):
/// a proof that there is none, or a limit, ends the making.
fn complete_tour(
    puzzle: &Puzzle,
    graph: &MoveGraph,
    limits: Limits<'_>,
    progress: &Progress,
) -> Result<Vec<u32>, Failure> {
    let mut p = puzzle.clone();
    p.solver = SolverSpec::Auto;
    let report = runner::solve(
        &p.task(graph),
        p.solver,
        Run::new(limits, progress, NoObserver),
    )
    .map_err(Failure::Bug)?;
    match report.outcome {
        Outcome::Found(t) => Ok(t),
        Outcome::Impossible(why) => Err(Failure::NoTour(why)),
        Outcome::GaveUp { limit, .. } => Err(Failure::Stopped(Stop::Limit(limit))),
        Outcome::Interrupted { .. } => Err(Failure::Stopped(Stop::Interrupted)),
    }
}

/// The verifier's answer on `tour` with `clues`, as a bug when it fails.
fn check(puzzle: &Puzzle, who: &str, tour: &[u32], clues: &[(u32, u32)]) -> Result<(), Failure> {
    let c = Constraints {
        clues: clues.to_vec(),
        symmetry: None,
        ..Constraints::default()
    };
    check_with(puzzle, who, tour, &c)
}

/// The verifier's answer on `tour` with the constraints `c`, as a bug when
/// it fails.
fn check_with(puzzle: &Puzzle, who: &str, tour: &[u32], c: &Constraints) -> Result<(), Failure> {
    crate::verify::verify(&puzzle.board, &puzzle.piece, &puzzle.goal, tour)
        .and_then(|()| {
            crate::verify::verify_constraints(&puzzle.board, puzzle.goal.closed, c, tour)
        })
        .map_err(|problem| {
            Failure::Bug(InvalidTour {
                solver: who.to_string(),
                problem,
            })
        })
}

/// The deductions on `clues`, checked against the solution `tour`: what
/// they place must be where the tour has it.
fn deduced(
    graph: &MoveGraph,
    puzzle: &Puzzle,
    clues: &[(u32, u32)],
    tour: &[u32],
) -> Result<deduce::Deduced, Failure> {
    let d = deduce::deduce(graph, puzzle.goal.closed, clues);
    let wrong = d
        .placed
        .iter()
        .zip(tour)
        .position(|(p, &t)| p.is_some_and(|p| p != t));
    if d.contradiction || wrong.is_some() {
        return Err(Failure::Bug(InvalidTour {
            solver: "the deductions".to_string(),
            problem: match wrong {
                Some(k) => format!("they put step {} off the tour", k + 1),
                None => "they found no solution where there is one".to_string(),
            },
        }));
    }
    Ok(d)
}

/// What one attempt's pass left.
struct Reduced {
    /// The clues left.
    clues: Vec<(u32, u32)>,
    /// What became of the clues tried.
    checks: Checks,
    /// What proved the clues left unique: the deductions, or the search
    /// when the last clue was taken out.
    proof: Proof,
    /// What stopped the pass before every clue was tried.
    stopped: Option<Stop>,
}

/// One attempt's pass: every clue but 1 and n, in random order, taken out
/// if the puzzle stays unique (and in the band). A stop (the time limit,
/// Ctrl-C) ends the pass with the clues it has, which are unique: each
/// clue taken out was proved. `progress` counts the clues tried.
fn reduce(
    puzzle: &Puzzle,
    graph: &MoveGraph,
    tour: &[u32],
    opts: &MakeOptions,
    rng: &mut ChaCha8Rng,
    limits: Limits<'_>,
    progress: &Progress,
) -> Result<Reduced, Failure> {
    let n = tour.len();
    let floor = opts.difficulty.map_or(0, |d| d.floor(n));
    let mut present = vec![true; n];
    let mut left = n;
    let mut order: Vec<usize> = (1..n.saturating_sub(1)).collect();
    for i in (1..order.len()).rev() {
        let j = rng.random_range(0..=i);
        order.swap(i, j);
    }
    let mut checks = Checks::default();
    // Every step a clue: the deductions place them all.
    let mut proof = Proof::Deductions;
    let mut stopped = None;
    // The searches report to a channel of their own: the display counts
    // clues.
    let searches = Progress::new();
    progress.start(crate::progress::Unit::Clues, Some(order.len() as u64));
    // Second solutions found so far.
    let mut others: Vec<Vec<u32>> = Vec::new();
    let clues_of = |present: &[bool]| -> Vec<(u32, u32)> {
        (0..n)
            .filter(|&k| present[k])
            .map(|k| (k as u32 + 1, tour[k]))
            .collect()
    };
    for k in order {
        if let Target::Clues(target) = opts.target
            && left <= target
        {
            break;
        }
        if let Err(stop) = limits.check() {
            stopped = Some(stop);
            break;
        }
        present[k] = false;
        let clues = clues_of(&present);
        let d = deduced(graph, puzzle, &clues, tour)?;
        let removed = if d.filled() < floor {
            checks.band += 1;
            None
        } else if d.solved() {
            checks.deduced += 1;
            Some(Proof::Deductions)
        } else if others
            .iter()
            .any(|o| clues.iter().all(|&(s, q)| o[s as usize - 1] == q))
        {
            checks.known += 1;
            None
        } else {
            let removed = (k as u32 + 1, tour[k]);
            let searched = second_solution(
                puzzle, graph, &clues, removed, tour, opts, limits, &searches,
            );
            match searched {
                Ok((Verdict::Unique, nodes)) => {
                    checks.nodes += nodes;
                    checks.searched += 1;
                    Some(Proof::Search(nodes))
                }
                Ok((Verdict::Other(o), nodes)) => {
                    checks.nodes += nodes;
                    checks.multiple += 1;
                    others.push(o);
                    None
                }
                Ok((Verdict::Unknown, nodes)) => {
                    checks.nodes += nodes;
                    checks.unknown += 1;
                    None
                }
                Err(Failure::Stopped(stop)) => {
                    present[k] = true;
                    stopped = Some(stop);
                    break;
                }
                Err(e) => return Err(e),
            }
        };
        match removed {
            Some(p) => {
                left -= 1;
                proof = p;
            }
            None => present[k] = true,
        }
        progress.add(1);
    }
    Ok(Reduced {
        clues: clues_of(&present),
        checks,
        proof,
        stopped,
    })
}

/// What a search for a second solution found.
enum Verdict {
    /// None exists.
    Unique,
    /// This one.
    Other(Vec<u32>),
    /// The node budget ran out.
    Unknown,
}

/// Looks for a second solution of the puzzle with `clues`, of which `tour`
/// is one and from which the clue `removed` was just taken out: the
/// complete search over the steps asked for two solutions, for at most
/// [`STEPS_FIRST`] nodes of `--node-limit`; if that settles nothing, the
/// clause-learning search of [`sat`](crate::solve::clued::sat) with an eighth of `--node-limit` in
/// conflicts, at least one (each costs far more than a node). A solution that puts
/// `removed`'s step on its square fits every clue of the puzzle before the
/// removal, which only `tour` does, so the second search keeps that step off
/// that square. With the nodes and conflicts they took.
#[allow(clippy::too_many_arguments)]
fn second_solution(
    puzzle: &Puzzle,
    graph: &MoveGraph,
    clues: &[(u32, u32)],
    removed: (u32, u32),
    tour: &[u32],
    opts: &MakeOptions,
    limits: Limits<'_>,
    progress: &Progress,
) -> Result<(Verdict, u64), Failure> {
    let first = opts.node_limit.min(STEPS_FIRST);
    let (v, nodes) = steps(puzzle, graph, clues, tour, first, limits, progress)?;
    if !matches!(v, Verdict::Unknown) {
        return Ok((v, nodes));
    }
    let (found, conflicts) = crate::solve::clued::sat::solutions(
        graph,
        puzzle.goal.closed,
        clues,
        Some(removed),
        (1, (opts.node_limit / 8).max(1)),
        &limits,
    )?;
    let v = match found {
        crate::solve::clued::sat::Answer::Tours(tours) => match tours.into_iter().next() {
            None => Verdict::Unique,
            Some(other) => {
                check(puzzle, "the search for a second solution", &other, clues)?;
                Verdict::Other(other)
            }
        },
        crate::solve::clued::sat::Answer::OutOfNodes => Verdict::Unknown,
    };
    Ok((v, nodes + conflicts))
}

/// The complete search over the steps, asked for two solutions.
fn steps(
    puzzle: &Puzzle,
    graph: &MoveGraph,
    clues: &[(u32, u32)],
    tour: &[u32],
    budget: u64,
    limits: Limits<'_>,
    progress: &Progress,
) -> Result<(Verdict, u64), Failure> {
    let c = Constraints {
        clues: clues.to_vec(),
        symmetry: None,
        ..Constraints::default()
    };
    let task = Task::new(graph, &puzzle.board, &puzzle.piece, puzzle.goal).with_constraints(&c);
    let search = BacktrackOptions {
        order: Order::Warnsdorff,
        node_limit: Some(budget),
    };
    let (report, second) =
        clued::unique_by_steps(search, &task, Run::new(limits, progress, NoObserver));
    let nodes = report.stats.nodes;
    let verdict = match (report.outcome, second) {
        (Outcome::Found(a), None) if a == tour => Verdict::Unique,
        (Outcome::Found(a), Some(b)) => {
            let other = if a == tour { b } else { a };
            check(puzzle, "the search for a second solution", &other, clues)?;
            Verdict::Other(other)
        }
        (Outcome::Found(a), None) => {
            check(puzzle, "the search for a second solution", &a, clues)?;
            Verdict::Other(a)
        }
        (
            Outcome::GaveUp {
                limit: Limit::Nodes,
                ..
            },
            _,
        ) => Verdict::Unknown,
        (Outcome::GaveUp { limit, .. }, _) => return Err(Failure::Stopped(Stop::Limit(limit))),
        (Outcome::Interrupted { .. }, _) => return Err(Failure::Stopped(Stop::Interrupted)),
        (Outcome::Impossible(why), _) => {
            return Err(Failure::Bug(InvalidTour {
                solver: "the search for a second solution".to_string(),
                problem: format!("it found no solution where there is one: {why}"),
            }));
        }
    };
    Ok((verdict, nodes))
}

/// The last word on the puzzle made: the deductions alone, or else the
/// clause-learning search of [`sat`](crate::solve::clued::sat) within `--node-limit` conflicts, must
/// find `tour` and no other.
fn prove(
    puzzle: &Puzzle,
    graph: &MoveGraph,
    clues: &[(u32, u32)],
    tour: &[u32],
    opts: &MakeOptions,
    limits: Limits<'_>,
) -> Result<Proof, Failure> {
    let closed = puzzle.goal.closed;
    if deduce::deduce(graph, closed, clues).solved() {
        return Ok(Proof::Deductions);
    }
    match crate::solve::clued::sat::solutions(
        graph,
        closed,
        clues,
        None,
        (2, opts.node_limit),
        &limits,
    )? {
        (crate::solve::clued::sat::Answer::Tours(t), conflicts) if t == [tour] => {
            Ok(Proof::Sat(conflicts))
        }
        (crate::solve::clued::sat::Answer::Tours(_), _) => Err(Failure::Bug(InvalidTour {
            solver: "the generator".to_string(),
            problem: "the clause-learning search finds a solution other than its tour, or none"
                .to_string(),
        })),
        (crate::solve::clued::sat::Answer::OutOfNodes, _) => {
            Err(Failure::Missed(Miss::Proof(opts.node_limit)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Report;

    /// The final proof that runs out of conflicts on a puzzle the
    /// deductions do not solve is a missed target (exit 3), not a failed
    /// check: with clues 1 and n only, a 5x5 knight puzzle has many
    /// solutions, and the clause-learning search meets a conflict before
    /// it has found two.
    #[test]
    fn a_final_proof_out_of_nodes_is_a_miss_not_a_bug() {
        let Ok(puzzle) = Puzzle::parse("p.ron", r#"Puzzle(board: "5x5", piece: "knight")"#) else {
            panic!("the puzzle parses")
        };
        let Ok(graph) = puzzle.graph(&crate::halt::Never);
        let progress = Progress::new();
        let run = Run::new(Limits::none(), &progress, NoObserver);
        let Ok(Report {
            outcome: Outcome::Found(tour),
            ..
        }) = runner::solve(&puzzle.task(&graph), puzzle.solver, run)
        else {
            panic!("5x5 has a tour")
        };
        let n = tour.len() as u32;
        let clues = [(1, tour[0]), (n, tour[n as usize - 1])];
        assert!(!deduce::deduce(&graph, false, &clues).solved());
        let opts = MakeOptions {
            seed: 0,
            target: Target::Minimal,
            difficulty: None,
            node_limit: 1,
            attempts: 1,
        };
        let r = prove(&puzzle, &graph, &clues, &tour, &opts, Limits::none());
        assert!(matches!(r, Err(Failure::Missed(Miss::Proof(1)))), "{r:?}");
    }
}
