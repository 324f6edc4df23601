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
use engine::search::event::{Event, Observer, Skip, Skipped, Why};
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

/// Every event of a search with the length before it, restarts aside (as
/// a recorder counts).
#[derive(Default)]
struct Log {
    kinds: Vec<Event>,
    before: Vec<usize>,
    after: Vec<Vec<u32>>,
    len: usize,
}

impl Log {
    /// Advances and retreats among the events in `range`.
    fn moves(&self, range: std::ops::Range<usize>) -> (u64, u64) {
        let kinds = &self.kinds[range];
        let count = |f: fn(&Event) -> bool| kinds.iter().filter(|e| f(e)).count() as u64;
        (
            count(|e| *e == Event::Advance),
            count(|e| matches!(e, Event::Retreat(..))),
        )
    }
}

impl Observer for Log {
    fn event(&mut self, event: Event, path: &[u32]) {
        if event != Event::Restart {
            self.kinds.push(event);
            self.before.push(self.len);
            self.after.push(path.to_vec());
        }
        self.len = path.len();
    }
}

/// Takes advances and retreats in sums: stretches of varied lengths under
/// varied ceilings, drawn from its own count of events so that a search
/// run twice gives it the same stretches. Logs what it is told and the
/// sums, each with the skip it was allowed.
#[derive(Default)]
struct Skipper {
    seen: u64,
    len: usize,
    granted: std::cell::Cell<Option<Skip>>,
    told: Vec<(u64, Event, Vec<u32>)>,
    sums: Vec<(u64, Skipped, Option<Skip>)>,
}

impl Observer for Skipper {
    const SKIPS: bool = true;

    fn event(&mut self, event: Event, path: &[u32]) {
        if event != Event::Restart {
            self.told.push((self.seen, event, path.to_vec()));
            self.seen += 1;
        }
        self.len = path.len();
    }

    fn skip(&self) -> Skip {
        let x = self.seen.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56;
        let skip = Skip {
            events: x % 64,
            above: self.len + (x % 5) as usize,
        };
        self.granted.set(Some(skip));
        skip
    }

    fn skipped(&mut self, s: Skipped) {
        self.sums.push((self.seen, s, self.granted.get()));
        self.seen += s.events;
    }
}

/// A recorder told every event, as observers that do not skip are.
struct EveryEvent(Recorder);

impl Observer for EveryEvent {
    fn event(&mut self, event: Event, path: &[u32]) {
        self.0.event(event, path);
    }
    fn wants_why(&self) -> bool {
        self.0.wants_why()
    }
}

/// A recorder that skips as it would, counting the events it is told.
struct Counted {
    rec: Recorder,
    told: u64,
}

impl Observer for Counted {
    const SKIPS: bool = true;
    fn event(&mut self, event: Event, path: &[u32]) {
        self.told += 1;
        self.rec.event(event, path);
    }
    fn wants_why(&self) -> bool {
        self.rec.wants_why()
    }
    fn skip(&self) -> Skip {
        self.rec.skip()
    }
    fn skipped(&mut self, skipped: Skipped) {
        self.rec.skipped(skipped);
    }
}

/// Everything a recorder hands back, owned.
fn kept(rec: &Recorder) -> Vec<String> {
    let mut out = vec![format!(
        "events {} nodes {} backtracks {} restarts {} best {}",
        rec.events(),
        rec.nodes(),
        rec.backtracks(),
        rec.restarts(),
        rec.best()
    )];
    let r = rec.replay(|s| {
        out.push(format!("{s:?}"));
        Ok::<(), ()>(())
    });
    assert_eq!(r, Ok(()));
    out
}

/// The depth-first searches the skipping tests run, by number: plain,
/// in Warnsdorff's order from every start in rounds (the path jumps
/// between paused searches: rewrites and restarts), symmetric, a closed
/// search that counts its first square, each stopped by a node limit or
/// run to its end. Runs search `which` watched by `obs`; None past the
/// last.
fn skipping_search<O: Observer>(which: usize, obs: O) -> Option<(String, Report)> {
    let holed = Board::new(7, 4, engine::model::Topology::Plain, |c| {
        (c.x, c.y) != (6, 2)
    });
    let given = BacktrackOptions {
        order: Order::Given,
        node_limit: Some(300_000),
    };
    let warnsdorff = BacktrackOptions {
        order: Order::Warnsdorff,
        node_limit: Some(300_000),
    };
    let piece = knight();
    let progress = Progress::new();
    let run = Run::new(Limits::none(), &progress, obs);
    let (what, board, goal) = match which {
        0 => ("plain 5x5 from b1", Board::rectangle(5, 5), open_from(1)),
        1 => ("plain 6x6 closed", Board::rectangle(6, 6), closed()),
        2 => (
            "plain 4x4 from every start",
            Board::rectangle(4, 4),
            Goal::default(),
        ),
        3 => (
            "Warnsdorff's order 7x4 - g3 in rounds",
            holed,
            Goal::default(),
        ),
        4 => (
            "Warnsdorff's order 9x9 closed",
            Board::rectangle(9, 9),
            closed(),
        ),
        5 => ("symmetric 6x6 half turn", Board::rectangle(6, 6), closed()),
        _ => return None,
    };
    let Ok(g) = MoveGraph::build(&board, &piece, &Never);
    let c = Constraints {
        clues: vec![],
        symmetry: Some(TourSymmetry::Rotate180),
        ..Constraints::default()
    };
    let task = Task::new(&g, &board, &piece, goal);
    let r = match which {
        0..=2 => given.solve(&task, run),
        3 | 4 => warnsdorff.solve(&task, run),
        _ => SymmetricOptions::default().solve(&task.with_constraints(&c), run),
    };
    if let Outcome::Found(t) = &r.outcome {
        assert_eq!(engine::verify::verify(&board, &piece, &goal, t), Ok(()));
    }
    Some((what.to_string(), r))
}

#[test]
fn skipped_stretches_sum_up_exactly_the_events_left_out() {
    let mut sums = 0;
    for which in 0.. {
        let mut log = Log::default();
        let Some((what, _)) = skipping_search(which, &mut log) else {
            break;
        };
        let mut sk = Skipper::default();
        skipping_search(which, &mut sk);
        assert_eq!(sk.seen, log.after.len() as u64, "{what}: events in all");
        // What was told is what happened, at its place in the search.
        for (i, event, path) in &sk.told {
            assert_eq!(
                &log.after[*i as usize], path,
                "{what}: told event {i} {event:?}"
            );
        }
        // The stretches and the told events cover the search once, in order.
        let mut next = 0u64;
        let mut told = sk.told.iter().peekable();
        let mut stretches = sk.sums.iter().peekable();
        while next < sk.seen {
            if let Some((i, _, _)) = told.peek()
                && *i == next
            {
                next += 1;
                told.next();
                continue;
            }
            let Some((first, s, skip)) = stretches.next() else {
                panic!("{what}: event {next} neither told nor summed");
            };
            assert_eq!(*first, next, "{what}: a stretch out of place");
            let skip = skip.unwrap_or_else(|| panic!("{what}: a stretch never allowed"));
            assert!(
                s.events > 0 && s.events <= skip.events,
                "{what}: {s:?} under {skip:?}"
            );
            let range = *first as usize..(*first + s.events) as usize;
            let lens = || log.after[range.clone()].iter().map(Vec::len);
            let (advances, retreats) = log.moves(range.clone());
            assert_eq!(
                (s.advances, s.events - s.advances),
                (advances, retreats),
                "{what}: advances and retreats in {range:?}"
            );
            let low = lens().min().unwrap_or(0).min(log.before[range.start]);
            assert_eq!(s.low, low, "{what}: the least length in {range:?}");
            // Advances past the ceiling are told, never summed; nothing but
            // advances and retreats is summed.
            for e in range.clone() {
                let (b, a) = (log.before[e], log.after[e].len());
                assert!(a <= skip.above.max(b), "{what}: event {e} past {skip:?}");
            }
            next += s.events;
            sums += 1;
        }
        assert!(
            told.next().is_none() && stretches.next().is_none(),
            "{what}"
        );
    }
    assert!(sums > 1000, "{sums} stretches");
}

#[test]
fn a_recorder_told_in_sums_keeps_exactly_what_it_keeps_told_every_event() {
    for which in 0.. {
        for (samples, steps) in [(999, 0..500), (7, 0..0), (60, 100..130)] {
            let mut every = EveryEvent(Recorder::with_steps(samples, steps.clone()));
            let Some((what, told)) = skipping_search(which, &mut every) else {
                return;
            };
            let mut summed = Counted {
                rec: Recorder::with_steps(samples, steps.clone()),
                told: 0,
            };
            let Some((_, r)) = skipping_search(which, &mut summed) else {
                panic!("{what} ran once only");
            };
            assert_eq!(told.stats.nodes, r.stats.nodes);
            assert_eq!(summed.rec.nodes(), r.stats.nodes, "{what}");
            assert_eq!(
                kept(&summed.rec),
                kept(&every.0),
                "{what}, {samples} samples, steps {steps:?}"
            );
            // Most of a long search goes untold.
            let events = summed.rec.events();
            assert!(
                events < 50_000 || summed.told * 5 < events,
                "{what}: {} of {events} events told",
                summed.told
            );
        }
    }
}

#[test]
fn a_live_tap_told_in_sums_replays_to_the_search_it_watched() {
    use engine::render::html::live::{Control, Tap};
    for which in 0.. {
        let board = Board::rectangle(9, 9);
        let control = Control::new();
        let (tx, rx) = std::sync::mpsc::channel();
        let mut tap = Tap::new(&board, &control, tx);
        let mut log = Log::default();
        let Some((what, r)) = skipping_search(which, (&mut tap, &mut log)) else {
            break;
        };
        assert_eq!(tap.events(), log.after.len() as u64, "{what}");
        drop(tap);
        let samples: Vec<_> = rx.iter().collect();
        assert!(samples.len() >= 2, "{what}");
        let mut path: Vec<u32> = Vec::new();
        let mut next = 0;
        for s in &samples {
            // Each sample stands for the events since the last, and is the
            // path after its own event, its counters those at that event.
            assert_eq!(s.f, next, "{what}");
            next = s.l + 1;
            path.truncate(s.p);
            path.extend_from_slice(&s.t);
            assert_eq!(path, log.after[s.i as usize], "{what}: sample at {}", s.i);
            let upto = &log.after[..=s.i as usize];
            assert_eq!((s.n, s.b), log.moves(0..s.i as usize + 1), "{what}");
            assert_eq!(
                s.best,
                upto.iter().map(Vec::len).max().unwrap_or(0),
                "{what}"
            );
            // The squares it says stayed did stay, from the path before
            // its first event on.
            let before =
                s.f.checked_sub(1)
                    .map_or(&[][..], |e| &log.after[e as usize][..]);
            for p in std::iter::once(before).chain(
                log.after[s.f as usize..=s.l as usize]
                    .iter()
                    .map(|p| &p[..]),
            ) {
                assert!(
                    p.len() >= s.lo && p[..s.lo] == path[..s.lo],
                    "{what}: low {}",
                    s.lo
                );
            }
        }
        assert!(r.stats.nodes > 0);
    }
}
