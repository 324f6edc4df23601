//! The search-event contract, solver by solver: every event is checked
//! against the path the solver reports with it (an advance appends exactly
//! one square, a retreat removes exactly the last, a rewrite keeps the
//! prefix it names, a restart empties the path), and a recorder beside a
//! plain log of every full path must hand back exactly the logged path at
//! every snapshot it kept.

use engine::halt::{Limits, Never};
use engine::model::{Board, Constraints, Goal, MoveGraph, Piece, TourSymmetry};
use engine::progress::Progress;
use engine::render::record::Recorder;
use engine::search::event::{Event, Observer, Why};
use engine::solve::backtrack::{BacktrackOptions, Order};
use engine::solve::genetic::{GeneticOptions, Preset};
use engine::solve::symmetric::SymmetricOptions;
use engine::solve::warnsdorff::{TieBreak, WarnsdorffOptions};
use engine::solve::{Outcome, Report, Run, Solver, Task};

/// Watches a search three ways: replays the events by the contract, keeps
/// every full path reported (restarts aside, as the recorder counts), and
/// records it with a [`Recorder`].
struct Witness {
    replayed: Vec<u32>,
    log: Vec<Vec<u32>>,
    recorder: Recorder,
    breaches: Vec<String>,
    rewrites: u64,
}

impl Witness {
    fn new(snapshots: usize) -> Witness {
        Witness {
            replayed: Vec::new(),
            log: Vec::new(),
            recorder: Recorder::new(snapshots),
            breaches: Vec::new(),
            rewrites: 0,
        }
    }

    /// Every kept snapshot is the logged path of its event, and the events
    /// kept the contract.
    fn check(&self, what: &str) {
        self.check_at_least(what, 2);
    }

    /// [`Witness::check`], with at least `least` snapshots.
    fn check_at_least(&self, what: &str, least: usize) {
        assert!(
            self.breaches.is_empty(),
            "{what}: {} events break the contract, the first: {}",
            self.breaches.len(),
            self.breaches[0]
        );
        let mut kept = 0;
        let mut wrong = 0;
        let r = self.recorder.replay(|s| {
            kept += 1;
            if s.path != &self.log[s.index as usize][..] {
                wrong += 1;
            }
            Ok::<(), ()>(())
        });
        assert_eq!(r, Ok(()));
        assert!(kept >= least, "{what}: only {kept} snapshots");
        assert_eq!(
            wrong, 0,
            "{what}: {wrong} of {kept} snapshots differ from the path the solver held"
        );
    }
}

impl Observer for Witness {
    fn event(&mut self, event: Event, path: &[u32]) {
        if let Err(e) = event.apply(&mut self.replayed, path) {
            self.breaches.push(format!("event {}: {e}", self.log.len()));
            // Carry on from what the solver says it holds.
            self.replayed = path.to_vec();
        }
        if self.replayed != path {
            self.breaches.push(format!(
                "event {}: replay and report differ",
                self.log.len()
            ));
            self.replayed = path.to_vec();
        }
        if matches!(event, Event::Rewrite { .. }) {
            self.rewrites += 1;
        }
        if event != Event::Restart {
            self.log.push(path.to_vec());
        }
        self.recorder.event(event, path);
    }
}

fn knight() -> Piece {
    Piece::leaper(1, 2, 1)
}

/// Runs `solver` on `board` for `goal`, watched, and verifies any tour.
fn watched(
    solver: &impl Solver,
    board: &Board,
    goal: Goal,
    seed: u64,
    snapshots: usize,
) -> (Report, Witness) {
    let piece = knight();
    let Ok(g) = MoveGraph::build(board, &piece, &Never);
    let task = Task::new(&g, board, &piece, goal).with_seed(seed);
    let mut w = Witness::new(snapshots);
    let progress = Progress::new();
    let r = solver.solve(&task, Run::new(Limits::none(), &progress, &mut w));
    if let Outcome::Found(t) = &r.outcome {
        assert_eq!(engine::verify::verify(board, &piece, &goal, t), Ok(()));
    }
    (r, w)
}

fn open_from(s: u32) -> Goal {
    Goal {
        start: Some(s),
        ..Goal::default()
    }
}

fn closed() -> Goal {
    Goal {
        closed: true,
        ..Goal::default()
    }
}

#[test]
fn backtracking_keeps_the_contract() {
    for order in [Order::Given, Order::Warnsdorff] {
        let opts = BacktrackOptions {
            order,
            node_limit: Some(200_000),
        };
        // 5x5 from b1 has no tour (wrong colour is not proven by search
        // rules alone with Given): a long search full of retreats.
        for (w, h, goal) in [
            (5, 5, open_from(1)),
            (5, 5, open_from(0)),
            (6, 6, closed()),
            (4, 4, Goal::default()),
        ] {
            let (r, wit) = watched(&opts, &Board::rectangle(w, h), goal, 0, 99);
            wit.check(&format!(
                "backtrack {order:?} {w}x{h} {goal:?} ({:?})",
                r.outcome.path().len()
            ));
        }
    }
    // Searches from several start squares in rounds: the path jumps from
    // one paused search to another (a rewrite from 0), and a new start
    // begins with a restart.
    // 7x4 without g3 has no tour; 14 start squares take 48,526 nodes.
    let board = Board::new(7, 4, engine::model::Topology::Plain, |c| {
        (c.x, c.y) != (6, 2)
    });
    let (r, wit) = watched(
        &BacktrackOptions::default(),
        &board,
        Goal::default(),
        0,
        999,
    );
    assert!(matches!(r.outcome, Outcome::Impossible(_)));
    assert!(r.stats.restarts > 0 && wit.rewrites > 0, "{:?}", r.stats);
    wit.check("backtrack in rounds from every start");
}

#[test]
fn warnsdorff_keeps_the_contract_through_repairs_and_rotations() {
    let mut rewrites = 0;
    for tie_break in [TieBreak::First, TieBreak::Random, TieBreak::Lookahead] {
        let opts = WarnsdorffOptions {
            tie_break,
            restarts: None,
            repair: None,
        };
        for n in [8u32, 13, 20, 31, 50] {
            for goal in [open_from(0), closed()] {
                for seed in 0..3 {
                    let (r, wit) = watched(&opts, &Board::rectangle(n, n), goal, seed, 199);
                    let what = format!(
                        "warnsdorff {tie_break:?} {n}x{n} closed={} seed {seed}",
                        goal.closed
                    );
                    wit.check(&what);
                    assert_eq!(
                        r.stats.rotations + r.stats.repairs > 0,
                        wit.rewrites > 0,
                        "{what}"
                    );
                    rewrites += wit.rewrites;
                }
            }
        }
    }
    assert!(
        rewrites > 100,
        "the boards chosen should make repairs and rotations: {rewrites}"
    );
}

#[test]
fn the_symmetric_solver_keeps_the_contract() {
    let piece = knight();
    let mut rewrites = 0;
    let mut retreats = 0;
    // Searches with retreats (one proving none), walks with rotations.
    for (board, goal, sym) in [
        ("8x8", closed(), TourSymmetry::Rotate180),
        ("5x5 - c3", closed(), TourSymmetry::Rotate90),
        ("6x5", closed(), TourSymmetry::MirrorFiles),
        ("7x7", open_from(0), TourSymmetry::Rotate180),
        ("30x30", closed(), TourSymmetry::Rotate180),
        ("30x30", closed(), TourSymmetry::Rotate90),
        ("98x98", closed(), TourSymmetry::Rotate90),
    ] {
        let p = engine::puzzle::Puzzle::parse(
            "e.ron",
            &format!(r#"Puzzle(board: "{board}", piece: "knight")"#),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let Ok(g) = MoveGraph::build(&p.board, &piece, &Never);
        let c = Constraints {
            clues: vec![],
            symmetry: Some(sym),
            ..Constraints::default()
        };
        let task = Task::new(&g, &p.board, &piece, goal).with_constraints(&c);
        let mut w = Witness::new(199);
        let progress = Progress::new();
        let r =
            SymmetricOptions::default().solve(&task, Run::new(Limits::none(), &progress, &mut w));
        if let Outcome::Found(t) = &r.outcome {
            assert_eq!(engine::verify::verify(&p.board, &piece, &goal, t), Ok(()));
        }
        w.check_at_least(&format!("symmetric {board} {sym:?}"), 1);
        assert_eq!(r.stats.rotations > 0, w.rewrites > 0, "{board} {sym:?}");
        rewrites += w.rewrites;
        retreats += r.stats.backtracks;
    }
    assert!(
        rewrites > 0 && retreats > 0,
        "{rewrites} rewrites, {retreats} retreats"
    );
}

/// The case where half the snapshots were wrong: a closed 31x31 knight's
/// tour with the textbook tie-break, recorded at every event.
#[test]
fn a_closed_31x31_textbook_search_is_recorded_exactly() {
    let opts = WarnsdorffOptions {
        tie_break: TieBreak::First,
        restarts: None,
        repair: None,
    };
    let (r, wit) = watched(&opts, &Board::rectangle(31, 31), closed(), 0, 100_001);
    assert!(r.stats.rotations > 0 && wit.rewrites > 0, "{:?}", r.stats);
    // Every event kept: no thinning.
    assert_eq!(wit.recorder.len() as u64, wit.recorder.events());
    wit.check("warnsdorff First 31x31 closed, every event");
}

#[test]
fn the_genetic_solver_keeps_the_contract() {
    for preset in [Preset::Classic, Preset::Tuned] {
        let opts = GeneticOptions {
            preset,
            generations: Some(300),
            ..GeneticOptions::default()
        };
        for (n, goal) in [(6u32, open_from(0)), (6, closed()), (8, open_from(0))] {
            let (r, wit) = watched(&opts, &Board::rectangle(n, n), goal, 3, 49);
            // A run solved in generation 1 has one generation to show.
            let least = r.stats.generations.min(2) as usize;
            let what = format!("genetic {preset:?} {n}x{n} closed={}", goal.closed);
            wit.check_at_least(&what, least);
        }
    }
}

/// The runner's fallback (Warnsdorff gives up, backtracking follows)
/// restarts the path between the two.
#[test]
fn auto_fallback_restarts_the_path() {
    let p = engine::puzzle::Puzzle::parse(
        "k.ron",
        r#"Puzzle(board: "3x3 - b2", piece: "knight", tour: Closed, solver: Auto)"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let Ok(g) = p.graph(&Never);
    let mut w = Witness::new(99);
    let progress = Progress::new();
    let r = engine::solve::runner::solve(
        &p.task(&g),
        p.solver,
        Run::new(Limits::none(), &progress, &mut w),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    if let Outcome::Found(t) = &r.outcome {
        assert_eq!(
            engine::verify::verify(&p.board, &p.piece, &p.goal, t),
            Ok(())
        );
    }
    assert!(w.breaches.is_empty(), "{:?}", w.breaches);
}

/// Checks each retreat's reason against the move graph: what it says of
/// the squares it names holds in the position the search stepped back
/// from (moves can all be made back here, as a knight's can).
struct Reasons<'g> {
    g: &'g MoveGraph,
    path: Vec<u32>,
    kinds: std::collections::BTreeMap<&'static str, u64>,
    wrong: Vec<String>,
}

impl Observer for Reasons<'_> {
    fn event(&mut self, event: Event, path: &[u32]) {
        if let Event::Retreat(h, why) = event {
            *self.kinds.entry(why.name()).or_default() += 1;
            let before = &self.path;
            let n = self.g.len();
            let mut visited = vec![false; n];
            for &s in before {
                visited[s as usize] = true;
            }
            let open = |w: u32| !visited[w as usize];
            // Squares that could still enter `w`: unvisited, or the end.
            let inh = |w: u32| self.g.neighbours(w).filter(|&u| open(u) || u == h).count();
            let reach = || {
                let mut seen = vec![false; n];
                let mut stack = vec![h];
                while let Some(s) = stack.pop() {
                    for t in self.g.neighbours(s) {
                        if open(t) && !seen[t as usize] {
                            seen[t as usize] = true;
                            stack.push(t);
                        }
                    }
                }
                seen
            };
            let r = visited.iter().filter(|v| !**v).count();
            let ok = before.last() == Some(&h)
                && match why {
                    Why::NoMoves => self.g.neighbours(h).all(|t| !open(t)),
                    Why::WrongEnd | Why::Tour => r == 0,
                    Why::NoEntry(w) => open(w) && inh(w) == 0,
                    Why::TwoForced(a, b) => {
                        a != b
                            && [a, b]
                                .iter()
                                .all(|&w| open(w) && self.g.has_edge(h, w) && inh(w) == 1)
                    }
                    Why::TwoLast(a, b) => {
                        a != b && open(a) && open(b) && inh(a) <= 1 && inh(b) <= 1
                    }
                    Why::LastNotEnd(w) => open(w) && (inh(w) <= 1 || r == 1),
                    Why::Split(w) => open(w) && !reach()[w as usize],
                    Why::OnlyLast(w) => open(w) && self.g.has_edge(h, w),
                    Why::Pairs(w) => (w as usize) < n,
                    Why::Tried | Why::Cached | Why::Unsaid | Why::Clue(_) | Why::NoEnd => true,
                };
            if !ok {
                self.wrong
                    .push(format!("back from {h} after {before:?}: {why:?}"));
            }
        }
        self.path = path.to_vec();
    }
}

#[test]
fn every_reason_given_for_a_retreat_holds() {
    let piece = knight();
    let mut all: std::collections::BTreeMap<&'static str, u64> = Default::default();
    let holed = Board::new(7, 4, engine::model::Topology::Plain, |c| {
        (c.x, c.y) != (6, 2)
    });
    let boards = [
        (Board::rectangle(5, 5), open_from(1)),
        (Board::rectangle(4, 5), open_from(6)),
        (Board::rectangle(6, 6), closed()),
        (Board::rectangle(4, 4), Goal::default()),
        (holed, Goal::default()),
        (Board::rectangle(9, 9), closed()),
    ];
    for order in [Order::Given, Order::Warnsdorff] {
        let opts = BacktrackOptions {
            order,
            node_limit: Some(300_000),
        };
        for (board, goal) in &boards {
            let Ok(g) = MoveGraph::build(board, &piece, &Never);
            let task = Task::new(&g, board, &piece, *goal);
            let mut obs = Reasons {
                g: &g,
                path: Vec::new(),
                kinds: Default::default(),
                wrong: Vec::new(),
            };
            let progress = Progress::new();
            let r = opts.solve(&task, Run::new(Limits::none(), &progress, &mut obs));
            if let Outcome::Found(t) = &r.outcome {
                assert_eq!(engine::verify::verify(board, &piece, goal, t), Ok(()));
            }
            assert!(
                obs.wrong.is_empty(),
                "{order:?} {goal:?}: {} reasons do not hold, the first: {}",
                obs.wrong.len(),
                obs.wrong[0]
            );
            for (k, v) in obs.kinds {
                *all.entry(k).or_default() += v;
            }
        }
    }
    // The textbook search steps back from dead ends and tried squares; the
    // kernel's search gives its rules' reasons too.
    for kind in [
        "tried",
        "no_moves",
        "two_last",
        "last_not_end",
        "only_last",
        "pairs",
        "split",
    ] {
        assert!(
            all.get(kind).copied().unwrap_or(0) > 0,
            "no {kind}: {all:?}"
        );
    }
    assert_eq!(all.get("unsaid"), None, "{all:?}");
}
