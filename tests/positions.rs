//! Errors point at the exact text that is wrong: the line, the column and
//! the underlined characters of every error are checked here, with escapes,
//! spaces, comments, tabs and wide characters before the fault.

use engine::error::{Error, ErrorKind};
use engine::puzzle::Puzzle;

/// The error `text` gives, as a puzzle file.
fn error(text: &str) -> Error {
    match Puzzle::parse("p.ron", text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e,
    }
}

/// Asserts that the error's message holds `needle`.
#[track_caller]
fn assert_says(e: &Error, needle: &str) {
    assert!(e.message.contains(needle), "{}", e.message);
}

/// The line, the column and the underlined text of the error `text` gives.
fn caret(text: &str) -> (u32, u32, String) {
    let e = error(text);
    let under: String = e
        .source_line
        .chars()
        .skip(e.col as usize - 1)
        .take(e.width as usize)
        .collect();
    (e.line, e.col, under)
}

#[test]
fn escapes_in_a_string_do_not_shift_the_caret() {
    // `\x61\x31` is a1: the caret is under z9, after the escapes.
    let text = r#"Puzzle(board: "8x8 - \x61\x31 z9", piece: "knight")"#;
    assert_eq!(caret(text), (1, 31, "z9".to_string()));
    let text = r#"Puzzle(board: "8x8", piece: "\u{6b}night | leaper 0 0")"#;
    assert_eq!(caret(text), (1, 44, "leaper 0 0".to_string()));
    let text = r#"Puzzle(board: "8x8", piece: "knight", start: "\x61\x39")"#;
    assert_eq!(caret(text), (1, 47, r"\x61\x39".to_string()));
    // A clue picture written on one line with `\n` escapes.
    let text = r#"Puzzle(piece: "knight", clues: "1 . .\n. .")"#;
    assert_eq!(caret(text), (1, 40, ". .".to_string()));
    // A clue map's key.
    let text = r#"Puzzle(board: "5x5", piece: "knight", clues: {"\x61\x31": 1, "\x7a9": 2})"#;
    assert_eq!(caret(text), (1, 63, r"\x7a9".to_string()));
}

#[test]
fn an_escaped_start_is_placed_again_on_a_new_board() {
    let text = r#"Puzzle(board: "8x8", piece: "knight", start: "\x61\x31")"#;
    let mut p = Puzzle::parse("p.ron", text).unwrap_or_else(|e| panic!("{e}"));
    p.set_board("5x5").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        p.goal.start.map(|s| p.board.name(s)),
        Some("a1".to_string())
    );
}

#[test]
fn spaces_around_a_square_are_not_underlined() {
    let text = r#"Puzzle(board: "8x8", piece: "knight", start: "  a1", end: " a1")"#;
    let e = error(text);
    assert_eq!((e.line, e.col), (1, 61));
    assert_eq!(e.kind, ErrorKind::Mismatch);
    assert!(
        e.message.contains("(line 1, column 49)"),
        "the start is a1 at column 49: {}",
        e.message
    );
    // Placed again on a smaller board, h8 is off it.
    let text = r#"Puzzle(board: "8x8", piece: "knight", start: "  h8")"#;
    let mut p = Puzzle::parse("p.ron", text).unwrap_or_else(|e| panic!("{e}"));
    let e = p
        .set_board("5x5")
        .err()
        .unwrap_or_else(|| panic!("h8 is off 5x5"));
    assert_says(&e, "h8 is off the 5x5 board");
    assert_eq!(e.kind, ErrorKind::BadValue);
    assert_eq!(e.col, 49);
}

#[test]
fn a_wrong_value_is_underlined_not_the_space_before_it() {
    let text = "Puzzle(board: \"8x8\", piece: \"knight\", start: 3)";
    assert_eq!(caret(text), (1, 46, "3".to_string()));
    let text = "Puzzle(board: \"8x8\", // c\n   piece: 5)";
    assert_eq!(caret(text), (2, 11, "5".to_string()));
    let text = "Puzzle(\n\t\tboard: \"8x8\",\n\t\tpiece: \"knight\",\n\t\tseed: \"x\",\n)";
    assert_eq!(caret(text).0, 4);
    assert_eq!(caret(text).1, 9);
}

#[test]
fn text_after_the_puzzle_is_underlined_where_it_starts() {
    let text = "Puzzle(board: \"8x8\", piece: \"knight\") // c\n  junk";
    assert_eq!(caret(text).0, 2);
    assert_eq!(caret(text).1, 3);
    let text = "// comment\n5x5";
    assert_eq!(caret(text).0, 2);
    assert_eq!(caret(text).1, 1);
}

#[test]
fn a_negative_number_is_underlined_with_its_sign() {
    let text = "Puzzle(\n  board: \"8x8\",\n  piece: \"knight\",\n  seed: -1,\n)";
    assert_eq!(caret(text), (4, 9, "-1".to_string()));
}

#[test]
fn a_bad_escape_is_underlined() {
    let text = r#"Puzzle(board: "8x8 \q", piece: "knight")"#;
    assert_eq!(caret(text), (1, 20, r"\q".to_string()));
    let text = r#"Puzzle(board: "8x8 \u{d800}", piece: "knight")"#;
    assert_eq!(caret(text), (1, 20, r"\u{d800}".to_string()));
}

#[test]
fn a_clue_picture_with_no_squares_is_refused() {
    let text = "Puzzle(piece: \"knight\", clues: \"# #\\n# #\")";
    assert_eq!(error(text).kind, ErrorKind::BadValue);
}

#[test]
fn the_caret_lines_up_under_wide_characters() {
    // 日本 is four columns wide on a terminal, two characters.
    let e = error("Puzzle(name: \"日本\", stat: 1)");
    let shown = e.to_string();
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(lines[2], "1 | Puzzle(name: \"日本\", stat: 1)");
    assert_eq!(
        lines[3],
        format!("  | {}^^^^ did you mean `start`?", " ".repeat(21))
    );
}

#[test]
fn saving_a_search_for_two_solutions_is_refused_at_save() {
    let text =
        "Puzzle(\n  board: \"3x4\",\n  piece: \"knight\",\n  save: true,\n  solutions: Unique,\n)";
    assert_eq!(caret(text), (4, 9, "true".to_string()));
    let e = error(text);
    assert_eq!(e.file, "p.ron");
    assert_eq!(e.kind, ErrorKind::Conflict);
}

/// A square given two clues is a typo, not a puzzle with no tour: refused
/// at the second, naming the first, however the square is written.
#[test]
fn a_square_given_two_clues_is_refused_at_the_second() {
    for (text, second, first_col) in [
        (
            r#"Puzzle(board: "5x5", piece: "knight", clues: {"a1": 1, "a1": 3})"#,
            r#""a1": 3"#,
            48,
        ),
        (
            r#"Puzzle(board: "5x5", piece: "knight", clues: {"a1": 1, "c2": 2, "(0,0)": 3})"#,
            r#""(0,0)""#,
            48,
        ),
        (
            r#"Puzzle(board: "5x5", piece: "knight", clues: {"a1": 1, "a1": 1})"#,
            r#""a1": 1}"#,
            48,
        ),
    ] {
        let col = text.rfind(second).map_or(0, |i| i as u32 + 2);
        let key = second.split('"').nth(1).unwrap_or_default();
        assert_eq!(caret(text), (1, col, key.to_string()), "{text}");
        let e = error(text);
        assert_eq!(e.kind, ErrorKind::Duplicate, "{text}");
        assert!(
            e.message.contains("a1") && e.message.contains(&format!("line 1, column {first_col}")),
            "{text}: {}",
            e.message
        );
    }
    let (dir, file) =
        crate::util::setup(r#"Puzzle(board: "5x5", piece: "knight", clues: {"a1": 1, "a1": 3})"#);
    crate::util::engine()
        .current_dir(dir.path())
        .arg("run")
        .arg(&file)
        .assert()
        .code(2)
        .stdout("");
    // Two squares with one step: refused too, at the second.
    let text = r#"Puzzle(board: "5x5", piece: "knight", clues: {"a1": 2, "c2": 2})"#;
    let col = text.rfind(r#""c2""#).map_or(0, |i| i as u32 + 2);
    assert_eq!(caret(text), (1, col, "c2".to_string()));
    assert_eq!(error(text).kind, ErrorKind::Duplicate);
    assert!(
        error(text).message.contains("step 2 is given twice"),
        "{}",
        error(text).message
    );
}

#[test]
fn a_file_that_ends_before_a_bracket_closes_says_so_at_its_end() {
    // The last field has no comma: RON alone says it expected one.
    let text = "Puzzle(\n  board: \"8x8\",\n  piece: \"knight\"\n";
    let e = error(text);
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert_says(
        &e,
        "the file ends before the `(` opened at line 1, column 7 is closed",
    );
    // The caret is just past the last thing in the file.
    assert_eq!((e.line, e.col), (3, 18));
    // The innermost bracket is named, and a comment at the end is skipped.
    let text = "Puzzle(board: \"8x8\", piece: \"knight\",\n  solver: Backtrack(\n// done\n";
    let e = error(text);
    assert_says(
        &e,
        "the file ends before the `(` opened at line 2, column 20 is closed",
    );
    assert_eq!((e.line, e.col), (2, 21));
    let text = "Puzzle(board: \"8x8\", piece: \"k\", pieces: {\"k\": \"N\"";
    let e = error(text);
    assert_says(&e, "the `{` opened at line 1, column 42");
    // A missing comma before the end is still reported where it is.
    // (At the end of the value before it, where the comma belongs.)
    let text = "Puzzle(board: \"8x8\" piece: \"knight\"";
    assert_eq!(caret(text), (1, 20, " ".to_string()));
}

#[test]
fn a_string_left_open_is_named_at_its_opening_quote() {
    // The closing quote is missing: the string swallows the next line up
    // to `"knight`, and RON alone says it expected a comma there.
    let text = "Puzzle(\n  board: \"8x8,\n  piece: \"knight\",\n)";
    let e = error(text);
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert_says(&e, "the string opened at line 2, column 10 is not closed");
    assert_says(&e, "past the end of its line");
    assert_eq!(caret(text), (2, 10, "\"".to_string()));
    // The comma is missing too.
    let text = "Puzzle(\n  name: \"N\",\n  board: \"8x8\n  piece: \"knight\",\n)";
    assert_eq!(caret(text), (3, 10, "\"".to_string()));
    // A string that runs on to the end of the file, quoted or raw.
    let text = "Puzzle(\n  board: \"8x8\",\n  piece: \"knight,\n)\n";
    let e = error(text);
    assert_says(
        &e,
        "the string opened at line 3, column 10 is not closed: it runs on to the end of the file",
    );
    assert_eq!((e.line, e.col), (3, 10));
    let text = "Puzzle(\n  board: r#\"\n  ...\n  piece: \"knight\",\n)";
    let e = error(text);
    assert_says(&e, "the string opened at line 2, column 10 is not closed");
    assert_eq!(caret(text), (2, 10, "r#\"".to_string()));
    // A string may span lines: one that does is read, and a fault after it
    // is reported where it is.
    let text = "Puzzle(\n  name: \"a,\nb\",\n  board: \"8x8\",\n  piece: \"knight\",\n)";
    let p = Puzzle::parse("p.ron", text).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        p.name.starts_with("a,") && p.name.ends_with('b'),
        "{}",
        p.name
    );
    let text = "Puzzle(\n  name: \"a,\nb\",\n  board: \"8x8\"\n  piece: \"knight\",\n)";
    assert_eq!(caret(text), (4, 15, String::new()));
}

#[test]
fn a_number_with_a_fraction_where_a_whole_one_belongs_is_named() {
    let text = "Puzzle(\n  board: \"8x8\",\n  piece: \"knight\",\n  seed: 1.5,\n)";
    let e = error(text);
    assert_eq!(e.kind, ErrorKind::WrongType);
    assert_says(&e, "`seed` must be a whole number, not 1.5");
    assert_eq!(caret(text), (4, 9, "1.5".to_string()));
    let text = "Puzzle(board: \"8x8\", piece: \"knight\", solver: Backtrack(node_limit: 2.0))";
    let e = error(text);
    assert_says(&e, "`node_limit` must be a whole number, not 2.0");
    assert_eq!(caret(text), (1, 69, "2.0".to_string()));
    let text = "Puzzle(board: \"8x8\", piece: \"knight\", seed: 1e3)";
    let e = error(text);
    assert_says(&e, "`seed` must be a whole number");
    assert_eq!(caret(text), (1, 45, "1e3".to_string()));
    let text = "Puzzle(board: \"8x8\", piece: \"knight\", seed: -2.5)";
    let e = error(text);
    assert_says(&e, "`seed` must be a whole number");
    assert_eq!(caret(text), (1, 45, "-2.5".to_string()));
    // A fraction where a float belongs is read as one.
    let text = "Puzzle(board: \"8x8\", piece: \"knight\", solver: Genetic(mutation: 0.5))";
    assert!(Puzzle::parse("p.ron", text).is_ok());
}

#[test]
fn a_file_of_only_comments_holds_no_puzzle() {
    for text in ["// a\n/* b */\n", "/* a /* nested */ */", "  \n// x"] {
        assert_eq!(error(text).kind, ErrorKind::Empty, "{text:?}");
    }
    // A comment that never closes is not an empty file.
    assert_eq!(error("/* a\n").kind, ErrorKind::Syntax);
}

#[test]
fn a_value_of_the_wrong_type_names_its_field() {
    let cases = [
        (
            "tour: \"Closed\"",
            "`tour` takes a name without quotes",
            Some("write `tour: Closed`"),
        ),
        (
            "start: a1",
            "`start` must be a string in double quotes",
            Some("write `start: \"a1\"`"),
        ),
        ("seed: true", "`seed` must be a whole number", None),
        (
            "solver: Genetic(mutation: \"x\")",
            "`mutation` must be a number",
            None,
        ),
    ];
    for (field, message, help) in cases {
        let text = format!("Puzzle(board: \"8x8\", piece: \"knight\", {field})");
        let e = error(&text);
        assert_eq!(e.kind, ErrorKind::WrongType, "{field}");
        assert!(e.message.contains(message), "{field}: {}", e.message);
        assert_eq!(e.help.as_deref(), help, "{field}");
    }
}

/// An error in a value given outside the file names the puzzle's field,
/// keeps the value given as its origin, and is named again by a front end
/// that calls the field otherwise.
#[test]
fn an_override_names_the_field_and_keeps_its_origin() {
    use engine::error::{Names, Origin, Span};

    struct Dashes;
    impl Names for Dashes {
        fn name(&self, option: &str) -> Option<&str> {
            (option == "start").then_some("--from")
        }
    }

    let mut p = Puzzle::parse("p.ron", r#"Puzzle(board: "8x8", piece: "knight")"#)
        .unwrap_or_else(|e| panic!("{e}"));
    let e = p
        .set_start("z9")
        .err()
        .unwrap_or_else(|| panic!("z9 is off 8x8"));
    assert_eq!(e.kind, ErrorKind::BadValue);
    assert_eq!(
        *e.origin(),
        Origin::Given {
            option: "start".to_string(),
            value: Some("z9".to_string()),
            span: Span::new(0, 2),
        }
    );
    assert!(
        e.to_string()
            .starts_with("error: start: z9 is off the 8x8 board")
    );
    let named = e.named(&Dashes).to_string();
    assert_eq!(
        named,
        "error: --from: z9 is off the 8x8 board\n |\n | --from z9\n |        ^^"
    );
}
