//! The genetic solver: both presets find verified tours, runs are
//! reproducible, and a generation limit gives up with a legal partial path.

use engine::error::ErrorKind;
use engine::halt::Never;
use engine::model::{Board, Piece};
use engine::progress::Progress;
use engine::puzzle::Puzzle;
use engine::search::event::{Event, NoObserver, Observer};
use engine::solve::genetic::{self, GeneticOptions, MoveSlots, Preset, Repair, Selection};
use engine::solve::{Goal, Limit, Limits, Outcome, Report, Run, Task};
use engine::verify::verify;
use proptest::prelude::*;

use crate::util::{engine, puzzle, solve, tour_from_json};

/// The tour of a `Found` outcome, verified against the puzzle.
fn verified_tour(p: &Puzzle, r: &Report) -> Vec<u32> {
    let Outcome::Found(tour) = &r.outcome else {
        panic!(
            "no tour: {:?} after {} generations",
            r.outcome, r.stats.generations
        );
    };
    if let Err(e) = verify(&p.board, &p.piece, &p.goal, tour) {
        panic!("invalid tour: {e}");
    }
    tour.clone()
}

/// Checks that `path` is a legal partial path: distinct squares, each step a
/// move of the piece.
fn assert_legal_path(board: &Board, piece: &Piece, path: &[u32]) {
    let mut seen = vec![false; board.len()];
    for &s in path {
        assert!(!seen[s as usize], "{} visited twice", board.name(s));
        seen[s as usize] = true;
    }
    for w in path.windows(2) {
        assert!(
            engine::verify::legal(board, piece, board.cell(w[0]), board.cell(w[1])),
            "{} to {} is not a move",
            board.name(w[0]),
            board.name(w[1])
        );
    }
}

#[test]
fn classic_solves_6x6_from_a_corner_with_a_fixed_seed() {
    let p = puzzle(
        r#"Puzzle(board: "6x6", piece: "knight", start: "a1", seed: 3,
           solver: Genetic(preset: Classic, population: 50, mutation: 0.01, generations: 20000,
                           selection: Roulette, repair: Cycle))"#,
    );
    let r = solve(&p);
    let tour = verified_tour(&p, &r);
    assert_eq!(tour.len(), 36);
    assert!(r.stats.generations >= 1);
    assert!(r.solver.to_string().contains("classic"), "{}", r.solver);
}

#[test]
fn tuned_solves_open_and_closed_tours() {
    for text in [
        r#"Puzzle(board: "12x12", piece: "knight", start: "a1", solver: Genetic())"#,
        r#"Puzzle(board: "8x8", piece: "knight", tour: Closed, solver: Genetic(), seed: 5)"#,
        r#"Puzzle(board: "10x10", piece: "knight", tour: Closed, start: "c3", solver: Genetic())"#,
        r#"Puzzle(board: "7x7", piece: "knight", start: "any", end: "g7", solver: Genetic())"#,
        r#"Puzzle(board: "8x8 - d4 e4", piece: "knight", start: "a1", solver: Genetic())"#,
        r#"Puzzle(board: "7x7 torus", piece: "camel", tour: Closed, solver: Genetic())"#,
        r#"Puzzle(board: "5x7", piece: "rook", start: "b2", solver: Genetic(preset: Classic))"#,
        r#"Puzzle(board: "4x4", piece: "nightrider | wazir", tour: Closed, solver: Genetic())"#,
    ] {
        let p = puzzle(text);
        let r = solve(&p);
        verified_tour(&p, &r);
    }
}

#[test]
fn same_seed_same_generations_and_tour() {
    for preset in ["Classic", "Tuned"] {
        let text = format!(
            r#"Puzzle(board: "8x8", piece: "knight", start: "a1", seed: 11,
               solver: Genetic(preset: {preset}))"#
        );
        let p = puzzle(&text);
        let (a, b) = (solve(&p), solve(&p));
        let ta = verified_tour(&p, &a);
        assert_eq!(ta, verified_tour(&p, &b), "{preset}");
        assert_eq!(a.stats.generations, b.stats.generations, "{preset}");
        assert_eq!(a.stats.nodes, b.stats.nodes, "{preset}");
    }
}

#[test]
fn parallel_evaluation_gives_the_same_run_as_sequential() {
    let board = Board::rectangle(16, 16);
    let piece = Piece::leaper(1, 2, 1);
    let g = crate::util::graph(&board, &piece);
    let Ok(slots) = MoveSlots::of_piece(&board, &piece, &Never);
    let goal = Goal {
        closed: true,
        start: Some(0),
        end: None,
    };
    let mut params = GeneticOptions::default().params();
    params.population = 60;
    let mut runs = Vec::new();
    for parallel_work in [usize::MAX, 0] {
        params.parallel_work = parallel_work;
        let task = Task::new(&g, &board, &piece, goal).with_seed(4);
        let progress = Progress::new();
        let run = Run::new(Limits::none(), &progress, Events::default());
        let r = genetic::solve_with(&task, &slots, &params, run);
        runs.push((
            verified_tour_of(&board, &piece, &goal, &r),
            r.stats.generations,
        ));
    }
    assert_eq!(runs[0], runs[1]);
}

fn verified_tour_of(board: &Board, piece: &Piece, goal: &Goal, r: &Report) -> Vec<u32> {
    let Outcome::Found(tour) = &r.outcome else {
        panic!("no tour: {:?}", r.outcome);
    };
    if let Err(e) = verify(board, piece, goal, tour) {
        panic!("invalid tour: {e}");
    }
    tour.clone()
}

/// Records generation events.
#[derive(Default)]
struct Events {
    generations: Vec<(u64, usize, Vec<u32>, usize)>,
}

impl Observer for Events {
    fn event(&mut self, event: Event, walk: &[u32]) {
        if let Event::Generation {
            generation,
            fitness,
            legal,
        } = event
        {
            self.generations
                .push((generation, fitness, walk.to_vec(), legal));
        }
    }
}

#[test]
fn a_generation_limit_gives_up_with_the_best_legal_path() {
    let board = Board::rectangle(10, 10);
    let piece = Piece::leaper(1, 2, 1);
    let g = crate::util::graph(&board, &piece);
    let goal = Goal {
        closed: false,
        start: Some(0),
        end: None,
    };
    let opts = GeneticOptions {
        preset: Preset::Classic,
        generations: Some(5),
        ..GeneticOptions::default()
    };
    let mut events = Events::default();
    let r = crate::util::run_solver(
        &opts,
        &g,
        &board,
        &piece,
        &goal,
        1,
        Limits::none(),
        &mut events,
    );
    let Outcome::GaveUp { limit, best } = &r.outcome else {
        panic!("expected to give up: {:?}", r.outcome);
    };
    assert_eq!(*limit, Limit::Generations);
    assert_eq!(r.stats.generations, 5);
    assert_eq!(best.first(), Some(&0));
    assert_legal_path(&board, &piece, best);
    // One event per generation, each the generation's best walk; the path
    // given up with is the best of them.
    let gens: Vec<u64> = events.generations.iter().map(|e| e.0).collect();
    assert_eq!(gens, [1, 2, 3, 4, 5]);
    for (_, fitness, walk, legal) in &events.generations {
        assert_eq!(*legal, walk.len());
        assert_eq!(*fitness, walk.len());
        assert_legal_path(&board, &piece, walk);
    }
    let longest = events.generations.iter().map(|e| e.2.len()).max();
    assert_eq!(Some(best.len()), longest);
}

#[test]
fn a_time_limit_gives_up_after_the_first_generation() {
    let board = Board::rectangle(20, 20);
    let piece = Piece::leaper(1, 2, 1);
    let g = crate::util::graph(&board, &piece);
    let goal = Goal {
        closed: false,
        start: Some(0),
        end: None,
    };
    let opts = GeneticOptions {
        preset: Preset::Classic,
        ..GeneticOptions::default()
    };
    let limits = Limits::none().with_time(Some(0.0));
    let r = crate::util::run_solver(&opts, &g, &board, &piece, &goal, 1, limits, NoObserver);
    let Outcome::GaveUp { limit, best } = &r.outcome else {
        panic!("expected to give up: {:?}", r.outcome);
    };
    assert_eq!(*limit, Limit::Time);
    assert_eq!(r.stats.generations, 1);
    assert_legal_path(&board, &piece, best);
}

#[test]
fn explicit_options_override_the_preset() {
    let p = GeneticOptions {
        preset: Preset::Classic,
        selection: Some(Selection::Tournament),
        population: Some(7),
        ..GeneticOptions::default()
    }
    .params();
    assert_eq!(p.selection, Selection::Tournament);
    assert_eq!(p.repair, Repair::Cycle);
    assert_eq!(p.population, 7);
    assert_eq!(p.mutation, 0.01);
    assert_eq!(p.elitism, 0);
    let t = GeneticOptions::default().params();
    assert_eq!(t.preset, Preset::Tuned);
    assert_eq!(t.selection, Selection::Tournament);
    assert_eq!(t.repair, Repair::Warnsdorff);
}

#[test]
fn bad_options_are_errors_with_a_position() {
    for (opt, needle, kind) in [
        ("population: 0", "population", ErrorKind::BadValue),
        ("mutation: 1.5", "mutation", ErrorKind::BadValue),
        ("generations: 0", "generations", ErrorKind::BadValue),
        ("selection: Best", "Best", ErrorKind::UnknownName),
    ] {
        let text = format!("Puzzle(board: \"5x5\", piece: \"knight\", solver: Genetic({opt}))");
        let Err(e) = Puzzle::parse("bad.ron", &text) else {
            panic!("{opt} was accepted");
        };
        assert_eq!(e.kind, kind, "{opt}");
        let msg = e.to_string();
        assert!(msg.contains("bad.ron:1:"), "{msg}");
        assert!(msg.contains(needle), "{msg}");
    }
}

#[test]
fn slots_name_exactly_the_graph_moves() {
    let cases = [
        ("8x8", "knight"),
        ("5x5 - c3", "rook"),
        ("6x4 torus", "queen"),
        ("7x5 cylinder - a1..b2", "nightrider | camel"),
        ("3x3", "jumps (1,2), (2,-1)"),
    ];
    for (b, pc) in cases {
        let p = puzzle(&format!("Puzzle(board: {b:?}, piece: {pc:?})"));
        let g = crate::util::graph_of(&p);
        let Ok(slots) = MoveSlots::of_piece(&p.board, &p.piece, &Never);
        assert_eq!(slots.len(), g.len());
        for s in 0..g.len() as u32 {
            let mut from_slots: Vec<u32> = slots.slots(s).flatten().collect();
            from_slots.sort_unstable();
            from_slots.dedup();
            let mut from_graph = g.targets(s).to_vec();
            from_graph.sort_unstable();
            assert_eq!(from_slots, from_graph, "{b} {pc} at {}", p.board.name(s));
        }
    }
    // A leaper has one slot per move, in the piece's order.
    let p = puzzle(r#"Puzzle(board: "8x8", piece: "knight")"#);
    let Ok(slots) = MoveSlots::of_piece(&p.board, &p.piece, &Never);
    assert_eq!(slots.width(), 8);
    let a1: Vec<Option<String>> = slots.slots(0).map(|t| t.map(|t| p.board.name(t))).collect();
    assert_eq!(a1[0].as_deref(), Some("b3"));
    assert_eq!(a1[1].as_deref(), Some("c2"));
    assert!(a1[2..].iter().all(Option::is_none));
}

#[test]
fn cli_exits_3_with_a_partial_path_when_generations_run_out() {
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => panic!("{e}"),
    };
    let path = dir.path().join("ga.ron");
    let text = r#"Puzzle(board: "10x10", piece: "knight", start: "a1", seed: 2,
                  solver: Genetic(preset: Classic, generations: 3))"#;
    if let Err(e) = std::fs::write(&path, text) {
        panic!("{e}");
    }
    let out = engine()
        .args(["run", "--format", "json"])
        .arg(&path)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(3));
    let json: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(json["status"], "gave_up");
    assert_eq!(json["stats"]["generations"], 3);
    let p = puzzle(text);
    let squares = tour_from_json(&p, &json);
    assert!(squares.len() > 1 && squares.len() < 100);
    assert_eq!(squares[0], 0);
    assert_legal_path(&p.board, &p.piece, &squares);

    // The text output says so and prints the path.
    engine()
        .arg("run")
        .arg(&path)
        .assert()
        .code(3)
        .stdout(predicates::str::contains("generation limit"))
        .stdout(predicates::str::contains("Path: a1 "));
}

#[test]
fn cli_runs_the_genetic_example_puzzles() {
    for name in ["genetic-classic8x8.ron", "genetic-closed20x20.ron"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("puzzles")
            .join(name);
        engine()
            .arg("run")
            .arg(&path)
            .assert()
            .code(0)
            .stdout(predicates::str::contains("solver: genetic"));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// On random small boards and pieces, whatever both presets find is a
    /// tour; whatever they give up with is a legal path.
    #[test]
    fn answers_are_tours_or_legal_paths(
        w in 3u32..7, h in 3u32..7,
        holes in proptest::collection::vec((0u32..7, 0u32..7), 0..3),
        piece in prop::sample::select(vec!["knight", "wazir", "king", "ferz | dabbaba", "rook", "zebra | wazir"]),
        closed in any::<bool>(),
        seed in 0u64..1000,
        classic in any::<bool>(),
    ) {
        let board = Board::new(w, h, engine::model::Topology::Plain, |c| {
            !holes.iter().any(|&(x, y)| c.x == x % w && c.y == y % h)
        });
        prop_assume!(board.len() >= 2);
        let p = puzzle(&format!("Puzzle(board: \"1x1\", piece: {piece:?})"));
        let piece = p.piece;
        let g = crate::util::graph(&board, &piece);
        let goal = Goal { closed, start: None, end: None };
        let opts = GeneticOptions {
            preset: if classic { Preset::Classic } else { Preset::Tuned },
            generations: Some(200),
            ..GeneticOptions::default()
        };
        let r = crate::util::run_solver(&opts, &g, &board, &piece, &goal, seed, Limits::none(), NoObserver);
        match &r.outcome {
            Outcome::Found(t) => prop_assert!(verify(&board, &piece, &goal, t).is_ok()),
            Outcome::GaveUp { best, .. } => assert_legal_path(&board, &piece, best),
            other => prop_assert!(false, "unexpected outcome {:?}", other),
        }
    }
}
