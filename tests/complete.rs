//! The complete search (`Backtrack(order: Warnsdorff)`, `Auto` on small
//! boards): the start squares of `start: "any"` — each rule that rules one
//! out, the order they are tried in, the rounds — and the textbook search
//! kept as it was.

use std::path::Path;

use engine::halt::{Limits, Never};
use engine::search::event::{Event, NoObserver, Observer};
use engine::search::{Want, solutions};
use engine::solve::backtrack::BacktrackOptions;
use engine::solve::starts::StartRule;
use engine::solve::{Outcome, Report};

use crate::util::{graph_of, load, puzzle, run_solver, solve, solve_within};

/// The ruled-out squares of a report, by name, with their rules.
fn ruled_out(p: &engine::puzzle::Puzzle, r: &Report) -> Vec<(String, StartRule)> {
    r.starts
        .as_ref()
        .map(|s| {
            s.ruled_out
                .iter()
                .map(|&(q, rule)| (p.board.name(q), rule))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn the_textbook_search_keeps_its_node_count() {
    let p = load(Path::new("puzzles/js-order8x8.ron"));
    let r = solve(&p);
    assert!(matches!(r.outcome, Outcome::Found(_)));
    assert_eq!(r.stats.nodes, 24_105_743);
    assert_eq!(r.stats.backtracks, 24_105_679);
}

#[test]
fn the_zebra_on_8x8_is_proven_to_have_no_open_tour() {
    let p = load(Path::new("puzzles/zebra8x8.ron"));
    // At once, by a cut: the centre leaves parts that need more of the
    // tour's paths than it has.
    let r = solve(&p);
    let Outcome::Impossible(why) = &r.outcome else {
        panic!("{:?}", r.outcome);
    };
    assert!(why.contains("the others fall into"), "{why}");
    assert_eq!((r.solver.kind(), r.stats.nodes), ("proofs", 0));
    // And by the complete search alone, from one square of each orbit
    // under the 8 symmetries of the square: 10.
    let g = graph_of(&p);
    let r = run_solver(
        &BacktrackOptions::default(),
        &g,
        &p.board,
        &p.piece,
        &p.goal,
        0,
        Limits::none(),
        NoObserver,
    );
    let Outcome::Impossible(why) = &r.outcome else {
        panic!("{:?}", r.outcome);
    };
    assert!(why.contains("start squares left"), "{why}");
    let s = r.starts.unwrap_or_default();
    assert_eq!((s.searched, s.candidates, s.images), (10, 10, 54));
    // The count agrees.
    let sym = engine::model::Symmetries::of_board(&p.board, &g);
    let c = engine::count::dfs::count(
        &g,
        &p.goal,
        &sym,
        &Default::default(),
        &Limits::none(),
        &engine::progress::Progress::new(),
    );
    assert_eq!((c.tours, c.complete()), (0, true));
}

#[test]
fn the_cross_rules_out_the_small_colour_and_finds_a_tour() {
    let p = load(Path::new("puzzles/cross39.ron"));
    let r = solve(&p);
    assert!(matches!(r.outcome, Outcome::Found(_)), "{:?}", r.outcome);
    let out = ruled_out(&p, &r);
    // 20 squares of one colour, 19 of the other: d1 is on the smaller.
    assert_eq!(out.len(), 19);
    assert!(out.contains(&("d1".to_string(), StartRule::Colours)));
    assert!(out.iter().all(|(_, rule)| *rule == StartRule::Colours));
}

#[test]
fn two_squares_with_one_move_are_the_ends() {
    // Wazir on 5x1: a1 and e1 have one move; every tour runs between them.
    let p = puzzle(r#"Puzzle(board: "5x1", piece: "wazir")"#);
    let r = solve(&p);
    let Outcome::Found(t) = &r.outcome else {
        panic!("{:?}", r.outcome)
    };
    assert_eq!((t[0], t[4]), (0, 4));
    let out = ruled_out(&p, &r);
    // b1 and d1 are also on the smaller colour; c1 on the larger.
    assert!(
        out.contains(&("c1".to_string(), StartRule::OneMove)),
        "{out:?}"
    );
}

#[test]
fn a_cut_square_starts_no_tour() {
    // A king's bow tie: two 2x2 blocks joined through c1. Starting on c1
    // leaves two blocks the tour cannot both reach.
    let p = puzzle(
        r##"Puzzle(board: r#"
            ..#..
            .....
        "#, piece: "king", solver: Backtrack())"##,
    );
    let r = solve(&p);
    assert!(matches!(r.outcome, Outcome::Found(_)), "{:?}", r.outcome);
    let out = ruled_out(&p, &r);
    assert_eq!(out, [("c1".to_string(), StartRule::Parts)]);
}

#[test]
fn one_way_moves_rule_out_starts_that_cannot_reach_everything() {
    // Right and up on a 3x2 cylinder: the top rank never comes back down.
    let p = puzzle(
        r#"Puzzle(board: "3x2 cylinder", piece: "jumps (1,0), (0,1)", solver: Backtrack())"#,
    );
    let r = solve(&p);
    let Outcome::Found(t) = &r.outcome else {
        panic!("{:?}", r.outcome)
    };
    assert!(t[0] < 3, "starts on the first rank: {t:?}");
    let out = ruled_out(&p, &r);
    assert_eq!(out.len(), 3, "{out:?}");
    assert!(out.iter().all(|(_, rule)| *rule == StartRule::Reach));
    // A square no move reaches is the only start.
    let p = puzzle(r#"Puzzle(board: "4x1", piece: "jumps (1,0), (2,0)", solver: Backtrack())"#);
    let r = solve(&p);
    assert!(matches!(&r.outcome, Outcome::Found(t) if t[0] == 0));
    let out = ruled_out(&p, &r);
    assert!(
        out.iter().all(|(_, rule)| *rule == StartRule::NoEntry),
        "{out:?}"
    );
}

/// The squares the searches start from, in the order they are first entered.
#[derive(Default)]
struct Starts(Vec<u32>);

impl Observer for Starts {
    fn event(&mut self, event: Event, path: &[u32]) {
        if event == Event::Advance && path.len() == 1 && !self.0.contains(&path[0]) {
            self.0.push(path[0]);
        }
    }
}

#[test]
fn starts_are_tried_fewest_moves_first() {
    // Knight on 6x6 with the centre and a pinwheel of four squares removed
    // (no open tour, and no proof without search): one square of each orbit,
    // fewest moves first, then board order. Only the quarter turns map the
    // board onto itself, so the 28 squares fall into 7 orbits of 4.
    let p = puzzle(r#"Puzzle(board: "6x6 - a2 b6 c3 c4 d3 d4 e1 f5", piece: "knight")"#);
    let g = graph_of(&p);
    let mut seen = Starts::default();
    let r = solve_within(&p, Limits::none(), &mut seen);
    assert!(
        matches!(r.outcome, Outcome::Impossible(_)),
        "{:?}",
        r.outcome
    );
    let s = r.starts.unwrap_or_default();
    assert_eq!((s.searched, s.candidates, s.images), (7, 7, 21));
    let keys: Vec<(usize, u32)> = seen.0.iter().map(|&q| (g.targets(q).len(), q)).collect();
    assert_eq!(keys.len(), 7, "{keys:?}");
    assert!(keys.windows(2).all(|w| w[0] < w[1]), "{keys:?}");
    let names: Vec<String> = seen.0.iter().map(|&q| p.board.name(q)).collect();
    assert_eq!(names[0], "a1", "{names:?}");
}

#[test]
fn an_easy_start_is_not_held_up_by_a_hard_one() {
    // The giraffe on 8x8 without e3 and h3: a1 (two moves) is tried first;
    // from it alone the search needs over half a million nodes. In rounds,
    // another start's search finds a tour within the first rounds.
    let board = "8x8 - e3 h3";
    let text = |start: &str| {
        format!(r#"Puzzle(board: "{board}", piece: "leaper 1 4", {start} solver: Backtrack())"#)
    };
    let p = puzzle(&text(""));
    let mut seen = Starts::default();
    let r = solve_within(&p, Limits::none(), &mut seen);
    let Outcome::Found(t) = &r.outcome else {
        panic!("{:?}", r.outcome)
    };
    assert_eq!(p.board.name(seen.0[0]), "a1");
    assert_ne!(t[0], seen.0[0]);
    let alone = solve(&puzzle(&text(r#"start: "a1","#)));
    assert!(matches!(alone.outcome, Outcome::Found(_)));
    assert!(
        r.stats.nodes * 100 < alone.stats.nodes,
        "{} nodes from every start, {} from a1 alone",
        r.stats.nodes,
        alone.stats.nodes
    );
}

#[test]
fn solutions_stop_where_asked() {
    let p = puzzle(r#"Puzzle(board: "5x5", piece: "knight", start: "a1")"#);
    let g = graph_of(&p);
    let Ok(first) = solutions(&g, &p.goal, Want::First, &Never);
    assert_eq!(first.count, 1);
    let tour = first.first.unwrap_or_default();
    assert_eq!(
        engine::verify::verify(&p.board, &p.piece, &p.goal, &tour),
        Ok(())
    );
    let Ok(two) = solutions(&g, &p.goal, Want::UpTo(2), &Never);
    assert_eq!(two.count, 2);
    let Ok(all) = solutions(&g, &p.goal, Want::All, &Never);
    assert_eq!(all.count, 304);
    assert!(all.nodes > two.nodes);
}

#[test]
fn the_end_is_on_the_class_the_moves_left_give() {
    // 29 dark squares and 28 light: an open tour from a1 (dark) ends on a
    // dark square. a8 has one move, so it can only be last, and it is
    // light: no tour, seen at the first node. (Without the class of the
    // end, this search gave up after 5 s and 44 million nodes.)
    let p = puzzle(
        r#"Puzzle(board: "8x8 - f1 h1 a2 d8 a4 g1 b6", piece: "knight", start: "a1", solver: Backtrack())"#,
    );
    let r = solve(&p);
    assert!(
        matches!(r.outcome, Outcome::Impossible(_)),
        "{:?}",
        r.outcome
    );
    assert!(r.stats.nodes <= 1, "{} nodes", r.stats.nodes);
}
