//! The complete search with clues: every solution it enumerates agrees
//! with a brute force over all tours of small random boards, every answer
//! passes the verifier with its clues, and the clue puzzles in `puzzles/`
//! have the answers they claim.

use engine::progress::Progress;
use engine::puzzle::Puzzle;
use engine::solve::backtrack::BacktrackOptions;
use engine::solve::event::NoObserver;
use engine::solve::{Limits, Outcome, Run, clued};
use engine::verify::{verify, verify_constraints};
use proptest::prelude::*;

use crate::util;

/// Every tour of `p`'s graph that fits its goal and clues, by plain
/// enumeration of all paths (boards of a dozen squares at most).
fn brute_force(p: &Puzzle) -> Vec<Vec<u32>> {
    let g = util::graph_of(p);
    let n = g.len();
    let mut out = Vec::new();
    let mut path = Vec::new();
    let mut seen = vec![false; n];
    fn go(
        g: &engine::model::MoveGraph,
        p: &Puzzle,
        path: &mut Vec<u32>,
        seen: &mut [bool],
        out: &mut Vec<Vec<u32>>,
    ) {
        let n = g.len();
        if path.len() == n {
            if verify(&p.board, &p.piece, &p.goal, path).is_ok()
                && verify_constraints(&p.board, p.goal.closed, &p.constraints, path).is_ok()
            {
                out.push(path.clone());
            }
            return;
        }
        let next: Vec<u32> = match path.last() {
            None => (0..n as u32).collect(),
            Some(&c) => g.neighbours(c).collect(),
        };
        for v in next {
            if !seen[v as usize] {
                seen[v as usize] = true;
                path.push(v);
                go(g, p, path, seen, out);
                path.pop();
                seen[v as usize] = false;
            }
        }
    }
    go(&g, p, &mut path, &mut seen, &mut out);
    out
}

/// Every solution the clue search finds for `p`, each verified.
fn enumerate(p: &Puzzle) -> Vec<Vec<u32>> {
    let g = util::graph_of(p);
    let task = p.task(&g);
    let progress = Progress::new();
    let run = Run::new(Limits::none(), &progress, NoObserver);
    let (report, tours) = clued::solve(BacktrackOptions::default(), &task, run, usize::MAX);
    for t in &tours {
        assert_eq!(verify(&p.board, &p.piece, &p.goal, t), Ok(()));
        assert_eq!(
            verify_constraints(&p.board, p.goal.closed, &p.constraints, t),
            Ok(())
        );
    }
    match report.outcome {
        Outcome::Found(t) => assert_eq!(Some(&t), tours.first()),
        Outcome::Impossible(_) => assert!(tours.is_empty()),
        other => panic!("{other:?}"),
    }
    tours
}

/// A small random clued puzzle: board, piece, goal, and clues either taken
/// from a random tour or placed at random.
fn case_strategy() -> impl Strategy<Value = String> {
    (
        2u32..=4,
        2u32..=3,
        prop::collection::vec(any::<bool>(), 12),
        prop::sample::select(vec![
            "king",
            "knight | wazir",
            "wazir",
            "ferz | wazir",
            "knight | ferz",
        ]),
        any::<bool>(),
        prop::collection::vec(
            (any::<prop::sample::Index>(), any::<prop::sample::Index>()),
            0..4,
        ),
        any::<bool>(),
    )
        .prop_map(|(w, h, holes, piece, closed, picks, from_tour)| {
            let files = ['a', 'b', 'c', 'd'];
            let mut removed = Vec::new();
            for (i, &hole) in holes.iter().enumerate().take((w * h) as usize) {
                // At most a quarter of the squares, never the corner a1.
                if hole && i > 0 && i % 4 == 1 {
                    removed.push(format!("{}{}", files[i % w as usize], i / w as usize + 1));
                }
            }
            let board = if removed.is_empty() {
                format!("{w}x{h}")
            } else {
                format!("{w}x{h} - {}", removed.join(" "))
            };
            let tour = if closed { "Closed" } else { "Open" };
            let base = format!(r#"Puzzle(board: "{board}", piece: "{piece}", tour: {tour}"#);
            let p = util::puzzle(&format!("{base})"));
            let n = p.board.len();
            // Clues from one tour (when there is one) or anywhere.
            let tours = if from_tour {
                brute_force(&p)
            } else {
                Vec::new()
            };
            let mut clues: Vec<(usize, u32)> = Vec::new();
            for (a, b) in picks {
                let step = a.index(n);
                let square = match tours.first() {
                    Some(t) => t[step],
                    None => b.index(n) as u32,
                };
                if clues.iter().all(|&(k, s)| k != step && s != square) {
                    clues.push((step, square));
                }
            }
            let map: Vec<String> = clues
                .iter()
                .map(|&(k, s)| format!("\"{}\": {}", p.board.name(s), k + 1))
                .collect();
            format!("{base}, clues: {{ {} }})", map.join(", "))
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The clue search enumerates exactly the brute force's solutions, and
    /// `engine run`'s path finds one exactly when there is one.
    #[test]
    fn agrees_with_brute_force(text in case_strategy()) {
        let p = util::puzzle(&text);
        let mut truth = brute_force(&p);
        let mut found = enumerate(&p);
        truth.sort();
        found.sort();
        prop_assert_eq!(&found, &truth, "{}", text);
        let r = util::solve(&p);
        prop_assert_eq!(matches!(r.outcome, Outcome::Found(_)), !truth.is_empty(), "{}", text);
        if !p.constraints.clues.is_empty() {
            prop_assert!(matches!(r.solver.kind(), "backtrack" | "proofs"), "{}", r.solver.kind());
        }
    }
}

/// The clue puzzles of `puzzles/`: each solved, its clues honoured, and
/// (these are published-style puzzles) its solution the only one.
#[test]
fn clue_puzzles_have_one_solution() {
    let names: &[&str] = &["knight-hidato8x8.ron"];
    for name in names {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("puzzles")
            .join(name);
        let p = util::load(&path);
        assert!(!p.constraints.clues.is_empty(), "{name}");
        let r = util::solve(&p);
        assert!(
            matches!(r.outcome, Outcome::Found(_)),
            "{name}: {:?}",
            r.outcome
        );
        assert_eq!(enumerate(&p).len(), 1, "{name}");
    }
}
