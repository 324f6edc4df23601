//! Clue puzzles and symmetric tours as the puzzle file states them: the
//! clue map and the clue picture, their errors at file:line:col, and the
//! verifier's reading of clues and symmetry.

use engine::model::{Board, Constraints, TourSymmetry};
use engine::puzzle::Puzzle;
use engine::verify::verify_constraints;

fn parse(text: &str) -> Result<Puzzle, String> {
    Puzzle::parse("p.ron", text).map_err(|e| e.to_string())
}

#[test]
fn a_clue_map_and_a_clue_picture_state_the_same_puzzle() {
    let map = parse(r#"Puzzle(board: "3x2 - c2", piece: "wazir", clues: { "a2": 1, "b1": 4 })"#);
    let picture = parse(
        r#"Puzzle(piece: "wazir", clues: "
            1  .  #
            .  4  .
        ")"#,
    );
    let (Ok(map), Ok(picture)) = (map, picture) else {
        panic!("both read");
    };
    assert_eq!(map.constraints.clues, vec![(1, 3), (4, 1)]);
    assert_eq!(picture.constraints, map.constraints);
    assert_eq!(picture.board.len(), 5);
    assert_eq!(picture.board.name(3), "a2");
}

#[test]
fn clue_errors_point_at_the_clue() {
    let cases = [
        (
            r#"Puzzle(board: "4x4", piece: "knight", clues: { "a1": 1, "b3": 17 })"#,
            "p.ron:1:58: step 17 is not on this tour: its steps are numbered 1 to 16",
        ),
        (
            r#"Puzzle(board: "4x4", piece: "knight", clues: { "a1": 2, "b3": 2 })"#,
            "p.ron:1:58: step 2 is given twice: on a1 (line 1, column 49) and on b3",
        ),
        (
            r#"Puzzle(board: "4x4 - b3", piece: "knight", clues: { "b3": 2 })"#,
            "is a removed square",
        ),
        (
            r#"Puzzle(board: "4x4", piece: "knight", start: "a1", clues: { "b3": 1 })"#,
            "step 1 is on b3, but `start` is a1 (line 1, column 47)",
        ),
        (
            r#"Puzzle(piece: "knight", clues: "1 . .
                . x .")"#,
            "`x` is not a square",
        ),
        (
            r#"Puzzle(board: "4x3", piece: "knight", clues: "1 . .
                . . .")"#,
            "the board is 4x3 but the clue picture is 3x2",
        ),
        (r#"Puzzle(piece: "knight")"#, "missing field `board`"),
    ];
    for (text, want) in cases {
        let err = parse(text).err().unwrap_or_default();
        assert!(err.contains(want), "{text}\nwants `{want}` in\n{err}");
        assert!(err.contains('^'), "a caret in\n{err}");
    }
}

#[test]
fn symmetry_errors() {
    let cases = [
        (
            r#"Puzzle(board: "4x3", piece: "knight", tour: Closed, symmetry: Rotate90)"#,
            "Rotate90 does not map this board and piece onto themselves",
        ),
        (
            r#"Puzzle(board: "6x6", piece: "knight", symmetry: Rotate90)"#,
            "a quarter-turn cannot map an open tour onto itself",
        ),
        (
            r#"Puzzle(board: "6x6", piece: "knight", start: "a1", end: "b1", symmetry: Rotate180)"#,
            "Rotate180 maps the start a1 onto f6",
        ),
        (
            r#"Puzzle(board: "6x6 - a1", piece: "knight", tour: Closed, symmetry: MirrorFiles)"#,
            "MirrorFiles does not map this board",
        ),
    ];
    for (text, want) in cases {
        let err = parse(text).err().unwrap_or_default();
        assert!(err.contains(want), "{text}\nwants `{want}` in\n{err}");
    }
    let ok = parse(r#"Puzzle(board: "6x6", piece: "knight", tour: Closed, symmetry: Rotate90)"#);
    assert_eq!(
        ok.map(|p| p.constraints.symmetry),
        Ok(Some(TourSymmetry::Rotate90))
    );
}

#[test]
fn the_verifier_reads_clues_and_symmetry() {
    let b = Board::rectangle(4, 4);
    let sq = |name: &str| (0..16u32).find(|&s| b.name(s) == name).unwrap_or(99);
    let tour = |names: &str| -> Vec<u32> { names.split(' ').map(sq).collect() };
    // A wazir cycle that a half-turn does not map onto itself…
    let snake = tour("a1 b1 c1 d1 d2 c2 b2 b3 c3 d3 d4 c4 b4 a4 a3 a2");
    let half = Constraints {
        clues: vec![],
        symmetry: Some(TourSymmetry::Rotate180),
        ..Constraints::default()
    };
    assert!(verify_constraints(&b, true, &half, &snake).is_err());
    // …but a mirror of the ranks does.
    let mirror_ranks = Constraints {
        clues: vec![],
        symmetry: Some(TourSymmetry::MirrorRanks),
        ..Constraints::default()
    };
    assert_eq!(verify_constraints(&b, true, &mirror_ranks, &snake), Ok(()));
    let comb = tour("a1 a2 a3 a4 b4 b3 b2 c2 c3 c4 d4 d3 d2 d1 c1 b1");
    let files = Constraints {
        clues: vec![],
        symmetry: Some(TourSymmetry::MirrorFiles),
        ..Constraints::default()
    };
    assert_eq!(verify_constraints(&b, true, &files, &comb), Ok(()));
    // An open path that a mirror maps onto itself reversed.
    let row = Board::rectangle(4, 1);
    assert_eq!(
        verify_constraints(&row, false, &files, &[0, 1, 2, 3]),
        Ok(())
    );
    assert!(verify_constraints(&row, false, &files, &[1, 0, 2, 3]).is_err());
    // Clues.
    let clues = Constraints {
        clues: vec![(1, sq("a1")), (16, sq("b1"))],
        symmetry: None,
        ..Constraints::default()
    };
    assert_eq!(verify_constraints(&b, true, &clues, &comb), Ok(()));
    let wrong = Constraints {
        clues: vec![(2, sq("b1"))],
        symmetry: None,
        ..Constraints::default()
    };
    assert_eq!(
        verify_constraints(&b, true, &wrong, &comb),
        Err("step 2 is on a2, not on its clue square b1".to_string())
    );
}
