//! The subset method against the other two: on random small boards —
//! holes, wrapping edges, dense and one-way pieces, open and closed tours,
//! free and fixed ends — the subset count, the depth-first count and (where
//! it can count) the frontier count agree; a puzzle with clues counted by
//! steps agrees with the clue search.

use engine::count::{self, CountRequest, Method};
use engine::halt::Limits;
use engine::progress::Progress;
use engine::puzzle::Puzzle;
use proptest::prelude::*;

use crate::util::puzzle;

fn count_with(p: &Puzzle, method: Option<Method>) -> Option<count::Count> {
    let job = count::Job {
        board: &p.board,
        piece: &p.piece,
        goal: p.goal,
        constraints: &p.constraints,
    };
    let request = CountRequest {
        method,
        ..CountRequest::default()
    };
    count::count_job(&job, &request, &Limits::none(), &Progress::new()).ok()
}

const PIECES: [&str; 7] = [
    "knight",
    "wazir",
    "king",
    "ferz + dabbaba",
    "leaper 1 3",
    "jumps (1,2), (2,-1), (-1,-1), (0,1), (-1,0)",
    "jumps (1,0), (0,1), (-1,-1), (2,1), (-2,-1)",
];

const TOPOLOGIES: [&str; 3] = ["", " torus", " cylinder"];

/// A puzzle of a `w` x `h` board with the squares of `holes` (indices)
/// removed.
fn text(w: u32, h: u32, holes: &[u32], topology: &str, piece: &str, goal: &str) -> String {
    let files = "abcdef";
    let names: Vec<String> = holes
        .iter()
        .map(|&i| {
            let (x, y) = (i % w, i / w);
            format!("{}{}", &files[x as usize..=x as usize], y + 1)
        })
        .collect();
    let board = if names.is_empty() {
        format!("{w}x{h}{topology}")
    } else {
        format!("{w}x{h} - {}{topology}", names.join(" "))
    };
    format!(r#"Puzzle(board: "{board}", piece: "{piece}"{goal})"#)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn the_three_methods_agree(
        w in 3u32..=5,
        h in 3u32..=4,
        holes in proptest::collection::vec(0u32..20, 0..3),
        topology in 0usize..3,
        piece in 0usize..PIECES.len(),
        goal in 0usize..4,
    ) {
        let holes: Vec<u32> = holes.into_iter().filter(|&i| i < w * h).collect();
        let goal = [", tour: Open", ", tour: Closed", r#", start: "a1""#, r#", start: "a1", end: "c3""#][goal];
        // A hole on a1 or c3 would drop a fixed end.
        let mut holes: Vec<u32> = holes.into_iter().filter(|&i| i != 0 && i != 2 * w + 2).collect();
        // A square removed twice is an error of the file, not a board.
        holes.sort_unstable();
        holes.dedup();
        let p = puzzle(&text(w, h, &holes, TOPOLOGIES[topology], PIECES[piece], goal));
        let Some(subset) = count_with(&p, Some(Method::Subset)) else {
            return Ok(());
        };
        let Some(dfs) = count_with(&p, Some(Method::Dfs)) else {
            panic!("the search refused");
        };
        prop_assert_eq!((subset.tours, subset.cycles_x2), (dfs.tours, dfs.cycles_x2));
        if let Some(frontier) = count_with(&p, Some(Method::Frontier)) {
            prop_assert_eq!((frontier.tours, frontier.cycles_x2), (dfs.tours, dfs.cycles_x2));
        }
    }

    #[test]
    fn clues_counted_by_steps_agree_with_the_clue_search(
        w in 3u32..=4,
        h in 3u32..=4,
        piece in 0usize..3,
        clues in proptest::collection::vec((0u32..16, 1u32..=16), 1..3),
    ) {
        let n = w * h;
        let mut seen_sq = Vec::new();
        let mut seen_step = Vec::new();
        let mut pairs = Vec::new();
        for (sq, step) in clues {
            let (sq, step) = (sq % n, (step - 1) % n + 1);
            if seen_sq.contains(&sq) || seen_step.contains(&step) {
                continue;
            }
            seen_sq.push(sq);
            seen_step.push(step);
            let files = "abcd";
            let (x, y) = (sq % w, sq / w);
            pairs.push(format!(r#""{}{}": {step}"#, &files[x as usize..=x as usize], y + 1));
        }
        let goal = format!(", clues: {{{}}}", pairs.join(", "));
        let p = puzzle(&text(w, h, &[], "", ["king", "knight", "wazir"][piece], &goal));
        let Some(steps) = count_with(&p, Some(Method::Subset)) else {
            panic!("the subset method refused");
        };
        let Some(search) = count_with(&p, Some(Method::Dfs)) else {
            panic!("the clue search refused");
        };
        // A puzzle proved to have no tour (the knight on 4x4) is not searched.
        if search.proof.is_none() {
            prop_assert_eq!(search.work().map(|w| w.name()), Some("clues"));
        }
        prop_assert_eq!(steps.tours, search.tours);
    }
}

/// The automatic choice counts by subsets where the other two struggle:
/// a dense one-way piece on a small wrapping board with holes (3,153,609,113
/// open tours, which the search counts in about 40 s).
#[test]
fn the_subset_method_is_chosen_for_a_dense_one_way_piece() {
    let p =
        puzzle(r#"Puzzle(board: "6x3 - (3,0) f1 e2 f3 torus", piece: "wazir + knight + lfCC")"#);
    let Some(c) = count_with(&p, None) else {
        panic!("no count");
    };
    assert_eq!(c.work().map(|w| w.name()), Some("subset"));
    assert_eq!(c.tours, 3_153_609_113);
}
