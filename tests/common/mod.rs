//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::Path;

use engine::puzzle::Puzzle;

/// Loads a puzzle file through the library.
pub fn load(path: &Path) -> Puzzle {
    Puzzle::load(path).unwrap_or_else(|e| panic!("{} does not load:\n{e}", path.display()))
}

/// Turns a JSON `tour` (list of `[x, y]`) into square numbers of `p`'s board.
pub fn tour_from_json(p: &Puzzle, v: &serde_json::Value) -> Vec<u32> {
    v["tour"]
        .as_array()
        .unwrap_or_else(|| panic!("no tour array in {v}"))
        .iter()
        .map(|xy| {
            let x = xy[0].as_u64().unwrap_or(u64::MAX) as u32;
            let y = xy[1].as_u64().unwrap_or(u64::MAX) as u32;
            p.board
                .square_at(engine::model::Cell::new(x, y))
                .unwrap_or_else(|| panic!("[{x},{y}] is not a square"))
        })
        .collect()
}

/// Asserts the JSON result's tour is a valid tour of `p` (through the verifier).
pub fn assert_verified(p: &Puzzle, v: &serde_json::Value) {
    let tour = tour_from_json(p, v);
    let closed = v["closed"].as_bool().unwrap_or(false);
    let mut goal = p.goal;
    goal.closed = closed;
    if let Err(e) = engine::verify::verify(&p.board, &p.piece, &goal, &tour) {
        panic!("tour of {} fails verification: {e}", p.name);
    }
    let names: Vec<String> = tour.iter().map(|&s| p.board.name(s)).collect();
    let squares: Vec<String> = v["squares"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|s| s.as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(names, squares, "`squares` and `tour` disagree");
}
