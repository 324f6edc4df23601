//! Every pruning rule of `engine count`, alone and together, against plain
//! enumeration on random small boards, holes, topologies, pieces and goals.
//!
//! The reference enumerator here is deliberately independent of the code
//! under test: it decides moves with `verify::legal` (coordinate arithmetic
//! on the board and the piece), not with the move graph, tries every start
//! itself (also for closed tours), checks every tour it finds with
//! `verify::verify`, and counts distinct cycles by putting each closed tour
//! in a canonical form and collecting the forms.

use std::collections::BTreeSet;

use engine::count::{self, CountOptions, Counted, Shard};
use engine::model::Symmetries;
use engine::model::{Board, Cell, Move, MoveGraph, Piece, Topology, UNLIMITED};
use engine::search::Pruning;
use engine::solve::{Goal, Limits};
use engine::verify::verify;
use proptest::prelude::*;

/// What plain enumeration finds.
#[derive(Debug)]
pub struct Truth {
    pub tours: u128,
    pub cycles: Option<u128>,
}

/// Enumerates every tour of `goal` (every start when the start is `any`),
/// or None when that takes more than `budget` steps.
pub fn enumerate(board: &Board, piece: &Piece, goal: &Goal, budget: u64) -> Option<Truth> {
    let n = board.len();
    let adj = crate::util::legal_moves(board, piece);
    let starts = crate::util::start_squares(goal, n);
    let mut tours = 0u128;
    let mut forms: BTreeSet<Vec<u32>> = BTreeSet::new();
    let mut steps = 0u64;
    for s in starts {
        let mut path = vec![s];
        let mut seen = vec![false; n];
        seen[s as usize] = true;
        let mut found: Vec<Vec<u32>> = Vec::new();
        if !walk(
            &adj, goal, &mut path, &mut seen, &mut found, &mut steps, budget,
        ) {
            return None;
        }
        for t in found {
            let mut g = *goal;
            g.start = Some(s);
            if let Err(e) = verify(board, piece, &g, &t) {
                panic!("the reference enumerator produced a bad tour {t:?}: {e}");
            }
            tours += 1;
            if goal.closed {
                forms.insert(canonical_cycle(&t));
            }
        }
    }
    Some(Truth {
        tours,
        cycles: goal.closed.then_some(forms.len() as u128),
    })
}

fn walk(
    adj: &[Vec<bool>],
    goal: &Goal,
    path: &mut Vec<u32>,
    seen: &mut [bool],
    found: &mut Vec<Vec<u32>>,
    steps: &mut u64,
    budget: u64,
) -> bool {
    *steps += 1;
    if *steps > budget {
        return false;
    }
    let n = adj.len();
    let head = path[path.len() - 1] as usize;
    if path.len() == n {
        let ok = if goal.closed {
            adj[head][path[0] as usize]
        } else {
            goal.end.is_none_or(|e| e as usize == head)
        };
        if ok {
            found.push(path.clone());
        }
        return true;
    }
    for t in 0..n {
        if adj[head][t] && !seen[t] {
            seen[t] = true;
            path.push(t as u32);
            let ok = walk(adj, goal, path, seen, found, steps, budget);
            path.pop();
            seen[t] = false;
            if !ok {
                return false;
            }
        }
    }
    true
}

/// A closed tour as a cycle: rotated to start at its least square, in the
/// direction whose second square is smaller.
fn canonical_cycle(t: &[u32]) -> Vec<u32> {
    let m = (0..t.len()).min_by_key(|&i| t[i]).unwrap_or(0);
    let forward: Vec<u32> = (0..t.len()).map(|i| t[(m + i) % t.len()]).collect();
    let backward: Vec<u32> = (0..t.len())
        .map(|i| t[(m + t.len() - i) % t.len()])
        .collect();
    forward.min(backward)
}

/// A random puzzle: board, piece and goal.
#[derive(Clone, Debug)]
pub struct Case {
    pub board: Board,
    pub piece: Piece,
    pub goal: Goal,
}

fn piece_strategy() -> impl Strategy<Value = Piece> {
    let leaper = (0i32..=2, 1i32..=3).prop_map(|(a, b)| Piece::leaper(a, b, 1));
    let rider = (0i32..=1, 1i32..=2, prop_oneof![Just(2u32), Just(UNLIMITED)])
        .prop_map(|(a, b, r)| Piece::leaper(a, b, r));
    let union = ((0i32..=1, 1i32..=1), (0i32..=2, 1i32..=3))
        .prop_map(|((a, b), (c, d))| Piece::leaper(a, b, 1).union(&Piece::leaper(c, d, 1)));
    prop_oneof![3 => leaper, 1 => rider, 4 => union, 4 => jumps_strategy()]
}

/// One-way jumps: a directed move graph.
fn jumps_strategy() -> impl Strategy<Value = Piece> {
    prop::collection::vec((-2i32..=2, -2i32..=2), 3..=10).prop_map(|v| {
        Piece::new(
            v.into_iter()
                .filter(|&(dx, dy)| (dx, dy) != (0, 0))
                .map(|(dx, dy)| Move::leap(dx, dy)),
        )
    })
}

pub fn case_strategy() -> impl Strategy<Value = Case> {
    cases(piece_strategy().boxed())
}

/// Closed tours of pieces with one-way moves, where distinct cycles need
/// the second count, of the cycles that can be run both ways.
fn closed_one_way_strategy() -> impl Strategy<Value = Case> {
    cases(jumps_strategy().boxed()).prop_map(|mut c| {
        c.goal.closed = true;
        c.goal.end = None;
        c
    })
}

fn cases(pieces: BoxedStrategy<Piece>) -> impl Strategy<Value = Case> {
    (1u32..=5, 1u32..=4)
        .prop_filter("4 to 12 cells", |(w, h)| (4..=12).contains(&(w * h)))
        .prop_flat_map(move |(w, h)| {
            let cells = (w * h) as usize;
            (
                Just((w, h)),
                prop::collection::vec(prop::bool::weighted(0.1), cells),
                prop_oneof![
                    6 => Just(Topology::Plain),
                    1 => Just(Topology::Cylinder),
                    1 => Just(Topology::Torus),
                    1 => Just(Topology::Mobius),
                    1 => Just(Topology::Klein),
                ],
                pieces.clone(),
                any::<bool>(),
                any::<prop::sample::Index>(),
                any::<prop::sample::Index>(),
                0u8..4,
            )
        })
        .prop_filter_map(
            "a board with squares",
            |((w, h), holes, topo, piece, closed, s, e, which)| {
                let board = Board::new(w, h, topo, |c: Cell| !holes[(c.y * w + c.x) as usize]);
                if board.is_empty() {
                    return None;
                }
                let n = board.len();
                let start = (which & 1 == 1).then(|| s.index(n) as u32);
                let end = (!closed && which & 2 == 2).then(|| e.index(n) as u32);
                Some(Case {
                    board,
                    piece,
                    goal: Goal { closed, start, end },
                })
            },
        )
}

fn run(case: &Case, g: &MoveGraph, sym: &Symmetries, opts: CountOptions) -> Counted {
    let c = count::dfs::count(
        g,
        &case.goal,
        sym,
        &opts,
        &Limits::none(),
        &engine::progress::Progress::new(),
    );
    assert!(c.complete());
    c
}

/// Each configuration: (name, options).
fn configurations() -> Vec<(&'static str, CountOptions)> {
    let one = |pruning: Pruning| CountOptions {
        threads: Some(1),
        pruning,
        memo_min: Some(2),
        ..CountOptions::default()
    };
    let mut v = vec![
        ("plain", one(Pruning::NONE)),
        (
            "entry",
            one(Pruning {
                entry: true,
                ..Pruning::NONE
            }),
        ),
        (
            "ends",
            one(Pruning {
                ends: true,
                ..Pruning::NONE
            }),
        ),
        (
            "parts",
            one(Pruning {
                parts: true,
                ..Pruning::NONE
            }),
        ),
        (
            "pairs",
            one(Pruning {
                pairs: true,
                ..Pruning::NONE
            }),
        ),
        (
            "memo",
            one(Pruning {
                memo: true,
                ..Pruning::NONE
            }),
        ),
        (
            "symmetry",
            one(Pruning {
                symmetry: true,
                ..Pruning::NONE
            }),
        ),
        (
            "reversal",
            one(Pruning {
                reversal: true,
                ..Pruning::NONE
            }),
        ),
        (
            "reversal and symmetry",
            one(Pruning {
                reversal: true,
                symmetry: true,
                ..Pruning::NONE
            }),
        ),
        ("all", one(Pruning::ALL)),
    ];
    let mut general = one(Pruning::ALL);
    general.general_search = true;
    v.push(("all, general search", general));
    let mut plain_general = one(Pruning::NONE);
    plain_general.general_search = true;
    v.push(("plain, general search", plain_general));
    let mut few = one(Pruning::ALL);
    few.tasks = Some(1);
    v.push(("one task per start", few));
    let mut many = one(Pruning::ALL);
    many.tasks = Some(100_000);
    v.push(("deep prefixes", many));
    let mut threads = one(Pruning::ALL);
    threads.threads = Some(2);
    v.push(("two threads", threads));
    v
}

/// Every configuration and shard split against plain enumeration.
fn agrees(case: &Case) -> Result<(), TestCaseError> {
    let Some(truth) = enumerate(&case.board, &case.piece, &case.goal, 400_000) else {
        return Err(TestCaseError::reject("too many tours to enumerate"));
    };
    let g = crate::util::graph(&case.board, &case.piece);
    let sym = Symmetries::of_board(&case.board, &g);
    for (name, opts) in configurations() {
        let c = run(case, &g, &sym, opts);
        prop_assert_eq!(c.tours, truth.tours, "{}: tours", name);
        prop_assert_eq!(c.cycles(), truth.cycles, "{}: cycles", name);
    }
    // Shards add up to the whole, tours and cycles alike.
    for shards in [2u32, 3] {
        let mut tours = 0;
        let mut cycles_x2 = 0;
        for k in 1..=shards {
            let opts = CountOptions {
                threads: Some(1),
                shard: Shard::new(k, shards),
                memo_min: Some(2),
                ..CountOptions::default()
            };
            let c = run(case, &g, &sym, opts);
            tours += c.tours;
            cycles_x2 += c.cycles_x2.unwrap_or(0);
        }
        prop_assert_eq!(tours, truth.tours, "{} shards: tours", shards);
        prop_assert_eq!(case.goal.closed.then_some(cycles_x2 / 2), truth.cycles);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 512,
        max_global_rejects: 4096,
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_rule_agrees_with_plain_enumeration(case in case_strategy()) {
        agrees(&case)?;
    }

    #[test]
    fn closed_tours_of_one_way_pieces(case in closed_one_way_strategy()) {
        agrees(&case)?;
    }

    /// The quick proofs `engine count` relies on (through `check`) never
    /// declare a puzzle impossible that has a tour.
    #[test]
    fn proofs_of_impossibility_hold(case in case_strategy()) {
        let g = crate::util::graph(&case.board, &case.piece);
        let Ok(a) = engine::analysis::analyse(&g, &case.goal, &case.board, &engine::halt::Never);
        if a.impossible.is_some() {
            let c = run(&case, &g, &Symmetries::none(g.len()), CountOptions {
                threads: Some(1),
                ..CountOptions::default()
            });
            prop_assert_eq!(c.tours, 0);
        }
    }
}

/// A closed tour of a piece with one-way moves, where the move that closes
/// some cycles has no way back: those cycles are not their own reverse's
/// partners. (Found by the property test above.)
#[test]
fn one_way_closing_moves() {
    let board = Board::new(2, 3, Topology::Cylinder, |_| true);
    let piece = Piece::new([
        Move::leap(0, -1),
        Move::leap(1, 0),
        Move::leap(0, 1),
        Move::leap(-1, -2),
    ]);
    let goal = Goal {
        closed: true,
        ..Goal::default()
    };
    let truth = enumerate(&board, &piece, &goal, 1_000_000).expect("small");
    let g = crate::util::graph(&board, &piece);
    assert!(!g.is_symmetric());
    let sym = Symmetries::of_board(&board, &g);
    let case = Case { board, piece, goal };
    for (name, opts) in configurations() {
        let c = run(&case, &g, &sym, opts);
        assert_eq!((c.tours, c.cycles()), (truth.tours, truth.cycles), "{name}");
        assert_eq!(c.cycles_x2.map(|x| x % 2), Some(0), "{name}");
    }
}

/// Nodes of a count of `goal` on `board` with `piece` under `pruning`.
fn nodes(board: &Board, piece: &Piece, goal: Goal, pruning: Pruning) -> (u64, u128) {
    let g = crate::util::graph(board, piece);
    let sym = Symmetries::of_board(board, &g);
    let opts = CountOptions {
        threads: Some(1),
        pruning,
        memo_min: Some(4),
        tasks: Some(1),
        ..CountOptions::default()
    };
    let c = count::dfs::count(
        &g,
        &goal,
        &sym,
        &opts,
        &Limits::none(),
        &engine::progress::Progress::new(),
    );
    (c.stats.nodes, c.tours)
}

/// Each rule does prune: it visits fewer nodes than the search without it,
/// for the same count. (The reversal rule acts through the ends rule, which
/// it gives fewer allowed ends; alone it only changes how leaves count.)
#[test]
fn every_rule_cuts_nodes() {
    let knight = Piece::leaper(1, 2, 1);
    let wazir = Piece::leaper(0, 1, 1);
    let k5 = Board::rectangle(5, 5);
    let w5 = Board::rectangle(5, 4);
    let from_a1 = Goal {
        start: Some(0),
        ..Goal::default()
    };
    let only = |f: fn(&mut Pruning)| {
        let mut p = Pruning::NONE;
        f(&mut p);
        p
    };
    let ends = only(|p| p.ends = true);
    for (name, board, piece, goal, without, with) in [
        (
            "entry",
            &k5,
            &knight,
            from_a1,
            Pruning::NONE,
            only(|p| p.entry = true),
        ),
        ("ends", &k5, &knight, from_a1, Pruning::NONE, ends),
        (
            "parts",
            &w5,
            &wazir,
            from_a1,
            Pruning::NONE,
            only(|p| p.parts = true),
        ),
        (
            "memo",
            &k5,
            &knight,
            from_a1,
            Pruning::NONE,
            only(|p| p.memo = true),
        ),
        (
            "symmetry",
            &k5,
            &knight,
            Goal::default(),
            Pruning::NONE,
            only(|p| p.symmetry = true),
        ),
        (
            "pairs",
            &k5,
            &knight,
            from_a1,
            Pruning::NONE,
            only(|p| p.pairs = true),
        ),
        (
            "reversal",
            &k5,
            &knight,
            Goal::default(),
            ends,
            Pruning {
                reversal: true,
                ..ends
            },
        ),
    ] {
        let (before, n0) = nodes(board, piece, goal, without);
        let (after, n1) = nodes(board, piece, goal, with);
        assert_eq!(n0, n1, "{name}");
        assert!(after < before, "{name}: {after} nodes, without it {before}");
    }
}
