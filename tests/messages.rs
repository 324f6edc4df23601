//! Messages a user can cause are the tool's own: each case below is run
//! through the command line, and its whole message and caret compared — a
//! flag with one dash, a misspelt flag or field, a number out of a flag's
//! range, a value of a closed set written in the wrong case, a missing
//! comma, a Betza letter from another reference, a range written with `-`.

use std::path::Path;

use crate::util::engine;

/// Runs `engine args` in `dir` and returns its exit code and standard error;
/// standard output must be empty.
fn fails(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = engine().current_dir(dir).args(args).output().unwrap();
    assert!(out.stdout.is_empty(), "{args:?}: printed on stdout");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The whole message of `engine args`, run in `dir`, which fails with exit 2.
fn message(dir: &Path, args: &[&str]) -> String {
    let (code, err) = fails(dir, args);
    assert_eq!(code, 2, "{args:?}: {err}");
    err
}

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn a_long_flag_with_one_dash_is_answered_with_two() {
    let err = message(
        manifest(),
        &["run", "puzzles/holed4x4.ron", "-gif", "x.gif"],
    );
    assert_eq!(
        err,
        "error: -gif: unknown flag\n |\n | -gif\n | ^^^^ did you mean `--gif`? a long flag starts with two dashes\n"
    );
    // A short flag that exists is still read as one.
    let err = message(manifest(), &["run", "puzzles/holed4x4.ron", "-quiet"]);
    assert_eq!(
        err,
        "error: -quiet: unknown flag\n |\n | -quiet\n | ^^^^^^ did you mean `--quiet`? a long flag starts with two dashes\n"
    );
}

#[test]
fn a_misspelt_flag_gets_did_you_mean() {
    let err = message(
        manifest(),
        &["run", "puzzles/holed4x4.ron", "--gfi", "x.gif"],
    );
    assert_eq!(
        err,
        "error: --gfi: unknown flag\n |\n | --gfi\n | ^^^^^ did you mean `--gif`?\n"
    );
    let err = message(manifest(), &["count", "--borad", "5x5"]);
    assert_eq!(
        err,
        "error: --borad: unknown flag\n |\n | --borad\n | ^^^^^^^ did you mean `--board`?\n"
    );
    // Nothing close: the command's help is named.
    let err = message(manifest(), &["check", "--zzzzzzzz"]);
    assert_eq!(
        err,
        "error: --zzzzzzzz: unknown flag\n |\n | --zzzzzzzz\n | ^^^^^^^^^^ `engine check --help` lists the flags\n"
    );
}

#[test]
fn a_number_flag_says_what_it_takes() {
    for (value, shown, caret) in [
        ("--seed=-1", "--seed -1", "^^"),
        ("--seed=abc", "--seed abc", "^^^"),
        ("--seed=1.5", "--seed 1.5", "^^^"),
        (
            "--seed=99999999999999999999",
            "--seed 99999999999999999999",
            "^^^^^^^^^^^^^^^^^^^^",
        ),
    ] {
        let err = message(manifest(), &["run", "puzzles/holed4x4.ron", value]);
        let pad = " ".repeat("--seed ".len());
        assert_eq!(
            err,
            format!(
                "error: --seed: a seed is a whole number from 0 to 18446744073709551615\n |\n | {shown}\n | {pad}{caret}\n"
            ),
        );
    }
    let err = message(
        manifest(),
        &["run", "puzzles/holed4x4.ron", "--gif", "x.gif", "--fps=-3"],
    );
    assert_eq!(
        err,
        "error: --fps: a frame rate is a whole number from 0 to 4294967295\n |\n | --fps -3\n |       ^^\n"
    );
    // A negative number after a flag, with a space, is the flag's value:
    // its own check answers it, not the parser's advice to write `-- -5`.
    for (args, said) in [
        (
            &["count", "puzzles/holed4x4.ron", "--memory", "-5"][..],
            "error: --memory: a size is a whole number of bytes, or of KiB, MiB, GiB or TiB (like 512MiB or 16GiB)\n |\n | --memory -5\n |          ^^\n",
        ),
        (
            &["count", "puzzles/holed4x4.ron", "--threads", "-2"][..],
            "error: --threads: a number of threads is a whole number from 0 to 18446744073709551615\n |\n | --threads -2\n |           ^^\n",
        ),
        (
            &["run", "puzzles/holed4x4.ron", "--seed", "-1"][..],
            "error: --seed: a seed is a whole number from 0 to 18446744073709551615\n |\n | --seed -1\n |        ^^\n",
        ),
        (
            &["run", "puzzles/holed4x4.ron", "--time-limit", "-3"][..],
            "error: --time-limit: a time limit is a non-negative number of seconds\n |\n | --time-limit -3\n |              ^^\n",
        ),
        // A command within a command (whose arguments are built only when
        // it is asked for) reads them alike.
        (
            &["archive", "stats", "--time-limit", "-3"][..],
            "error: --time-limit: a time limit is a non-negative number of seconds\n |\n | --time-limit -3\n |              ^^\n",
        ),
    ] {
        assert_eq!(message(manifest(), args), said, "{args:?}");
    }
}

#[test]
fn file_errors_name_no_internal_type_and_suggest() {
    let dir = tempfile::tempdir().unwrap();
    let write = |text: &str| std::fs::write(dir.path().join("puzzle.ron"), text).unwrap();

    write(
        "Puzzle(\n    name: \"x\",\n    board: \"5x5\",\n    piece: \"knight\",\n    tour: closed,\n)\n",
    );
    let err = message(dir.path(), &["check", "puzzle.ron"]);
    assert_eq!(
        err,
        "error: puzzle.ron:5:11: `tour` is `Open` or `Closed`, not `closed`\n  |\n5 |     tour: closed,\n  |           ^^^^^^ did you mean `Closed`?\n"
    );
    assert!(!err.contains("TourKind"));

    write("Puzzle(\n    board: \"5x5\",\n    piece: \"knight\",\n    solver: Backtrak(),\n)\n");
    let err = message(dir.path(), &["check", "puzzle.ron"]);
    assert_eq!(
        err,
        "error: puzzle.ron:4:13: `solver` is `Auto`, `Backtrack`, `Warnsdorff`, `Genetic` or `Symmetric`, not `Backtrak`\n  |\n4 |     solver: Backtrak(),\n  |             ^^^^^^^^ did you mean `Backtrack`?\n"
    );

    write("Puzzle(\n    board: \"5x5\",\n    peice: \"knight\",\n)\n");
    let err = message(dir.path(), &["check", "puzzle.ron"]);
    assert_eq!(
        err,
        "error: puzzle.ron:3:5: unknown field `peice`; the fields are `name`, `board`, `piece`, `pieces`, `tour`, `start`, `end`, `solver`, `seed`, `save`, `solutions`, `clues`, `symmetry`, `letters`, `text`, `magic`\n  |\n3 |     peice: \"knight\",\n  |     ^^^^^ did you mean `piece`?\n"
    );
}

#[test]
fn a_missing_comma_is_pointed_at_where_it_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let write = |text: &str| std::fs::write(dir.path().join("puzzle.ron"), text).unwrap();
    write("Puzzle(\n    name: \"x\",\n    board: \"5x5\"\n    piece: \"knight\",\n)\n");
    let err = message(dir.path(), &["check", "puzzle.ron"]);
    assert_eq!(
        err,
        "error: puzzle.ron:3:17: a comma is missing at the end of this line\n  |\n3 |     board: \"5x5\"\n  |                 ^ add `,` here\n"
    );
    // A comment after the value: the comma goes before it.
    write("Puzzle(\n    board: \"5x5\" // the board\n    piece: \"knight\",\n)\n");
    let err = message(dir.path(), &["check", "puzzle.ron"]);
    assert_eq!(
        err,
        "error: puzzle.ron:2:17: a comma is missing at the end of this line\n  |\n2 |     board: \"5x5\" // the board\n  |                 ^ add `,` here\n"
    );
    // On one line: after the value.
    write("Puzzle(board: \"5x5\" piece: \"knight\")\n");
    let err = message(dir.path(), &["check", "puzzle.ron"]);
    assert_eq!(
        err,
        "error: puzzle.ron:1:20: a comma is missing after this value\n  |\n1 | Puzzle(board: \"5x5\" piece: \"knight\")\n  |                    ^ add `,` here\n"
    );
}

#[test]
fn betza_aliases_are_read_and_unknown_letters_answered() {
    // L is the camel and J the zebra in common extensions of Betza's atoms.
    let moves = |piece: &str| {
        let out = engine()
            .args(["check", "--board", "7x7", "--piece", piece])
            .output()
            .unwrap();
        // The camel and the zebra's riders may fall apart: exit 1.
        assert!(matches!(out.status.code(), Some(0 | 1)), "{piece}");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.lines()
            .find(|l| l.starts_with("Moves: "))
            .unwrap_or_else(|| panic!("{piece}: {text}"))
            .to_string()
    };
    assert_eq!(moves("L"), moves("C"));
    assert_eq!(moves("J"), moves("Z"));
    assert_eq!(moves("fLJJ"), moves("fCZZ"));
    assert_eq!(moves("L"), moves("camel"));
    // Every atom, compound and alias of the references (Betza's page, its
    // extended page on the Chess Variant Pages, XBoard's extended
    // notation), against the leap or rider it stands for, written out.
    let set = |piece: &str| {
        let mut v: Vec<String> = moves(piece)
            .trim_start_matches("Moves: ")
            .split(' ')
            .map(String::from)
            .collect();
        v.sort();
        v
    };
    for (alias, meaning) in [
        ("W", "leaper 0 1"),
        ("F", "leaper 1 1"),
        ("D", "leaper 0 2"),
        ("N", "leaper 1 2"),
        ("A", "leaper 2 2"),
        ("H", "leaper 0 3"),
        ("C", "leaper 1 3"),
        ("L", "leaper 1 3"),
        ("Z", "leaper 2 3"),
        ("J", "leaper 2 3"),
        ("G", "leaper 3 3"),
        ("K", "leaper 0 1 | leaper 1 1"),
        ("R", "rider 0 1"),
        ("B", "rider 1 1"),
        ("Q", "rider 0 1 | rider 1 1"),
        ("WW", "rider 0 1"),
        ("FF", "rider 1 1"),
        ("NN", "rider 1 2"),
        ("W4", "rider 0 1 max 4"),
        ("W0", "rider 0 1"),
        ("F0", "rider 1 1"),
        ("N0", "rider 1 2"),
        ("R0", "rider 0 1"),
        ("WX", "leaper 0 4"),
        ("FX", "leaper 1 4"),
        ("FX", "giraffe"),
        ("DX", "leaper 0 5"),
        ("NX", "leaper 1 5"),
        ("AX", "leaper 2 5"),
        ("HX", "leaper 0 6"),
        ("CX", "leaper 1 6"),
        ("LX", "leaper 1 6"),
        ("ZX", "leaper 2 6"),
        ("JX", "leaper 2 6"),
        ("GX", "leaper 3 6"),
        ("DY", "leaper 2 4"),
        ("NY", "leaper 3 4"),
        ("AY", "leaper 4 4"),
        ("CY", "leaper 3 5"),
        ("LY", "leaper 3 5"),
        ("ZY", "leaper 4 5"),
        ("JY", "leaper 4 5"),
        ("FX2", "rider 1 4 max 2"),
        ("(1,4)", "leaper 1 4"),
        ("(4,-1)", "leaper 1 4"),
        ("fhN", "jumps (1,2), (2,1), (-2,1), (-1,2)"),
        ("bhC", "jumps (3,-1), (1,-3), (-1,-3), (-3,-1)"),
    ] {
        assert_eq!(set(alias), set(meaning), "{alias} against {meaning}");
    }
    // Where another extension's letter means what this notation cannot
    // say, or says another way, the answer says how to write it.
    for (piece, said, help) in [
        ("O", "`O` (castling) moves two pieces", "leave it out"),
        ("oR", "the board's topology here", "`8x8 cylinder`"),
        ("afsW", "several steps", "`nN`"),
        ("WtR", "several steps", "`jumps (x,y), …`"),
        ("zB", "crooked (zigzag) rider", "`jumps (x,y), …`"),
        ("qN", "circular rider", "`jumps (x,y), …`"),
        ("hN", "`h` (half) goes after a direction", "`fhN`"),
        ("WY", "`WY` is not an atom", "DY NY AY CY ZY"),
        ("FXFX", "doubles an atom of two letters", "`FX0`"),
        ("W00", "`00` is no range", "0 for any number of steps"),
    ] {
        let err = message(manifest(), &["check", "--board", "8x8", "--piece", piece]);
        assert!(err.contains(said), "{piece}: {err}");
        assert!(err.contains(help), "{piece}: {err}");
    }
    let err = message(manifest(), &["run", "--board", "8x8", "--piece", "E"]);
    assert_eq!(
        err,
        "error: --piece: `E` is not a Betza atom\n |\n | --piece E\n |         ^ the atoms are W F D N A H C Z G, L for C and J for Z, the compounds K R B Q, and the longer leaps WX FX DX NX AX HX CX ZX GX DY NY AY CY ZY\n"
    );
    let err = message(manifest(), &["run", "--board", "8x8", "--piece", "NE"]);
    assert_eq!(
        err,
        "error: --piece: unknown piece `NE`\n |\n | --piece NE\n |         ^^ did you mean `N` or `NN`? pieces are built-in names (knight, camel, zebra, giraffe, wazir, ferz, dabbaba, alfil, king, rook, bishop, queen, nightrider), names from `pieces`, Betza words (`N`, `fN`, `NN`, `R4`, `nN`), `leaper m n`, `rider m n max k` or `jumps (x,y), …`\n"
    );
}

#[test]
fn a_range_written_with_a_dash_is_answered_with_dots() {
    let err = message(manifest(), &["run", "--board", "8x8 - b2-c3"]);
    assert_eq!(
        err,
        "error: --board: expected end of the board, `torus`, `cylinder`, `mobius` or `klein`, or a square like `b3` or `(1,2)`\n |\n | --board 8x8 - b2-c3\n |                 ^ a range of squares is written `b2..c3`\n"
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("puzzle.ron"),
        "Puzzle(\n    board: \"6x6 - a1 (2,2)-(3,3)\",\n    piece: \"knight\",\n)\n",
    )
    .unwrap();
    let err = message(dir.path(), &["check", "puzzle.ron"]);
    assert_eq!(
        err,
        "error: puzzle.ron:2:27: expected end of the board, `torus`, `cylinder`, `mobius` or `klein`, or a square like `b3` or `(1,2)`\n  |\n2 |     board: \"6x6 - a1 (2,2)-(3,3)\",\n  |                           ^ a range of squares is written `(2,2)..(3,3)`\n"
    );
}

#[test]
fn a_range_given_for_one_square_says_one_square_is_asked() {
    let err = message(
        manifest(),
        &["run", "puzzles/knight4x4.ron", "--start", "b2-c3"],
    );
    assert_eq!(
        err,
        "error: --start: expected the end of the square\n |\n | --start b2-c3\n |           ^ one square is asked here; a range like `b2..c3` is written where squares are taken off a board\n"
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("p.ron"),
        "Puzzle(board: \"4x4\", piece: \"knight\", start: \"a1-b2\")\n",
    )
    .unwrap();
    let err = message(dir.path(), &["run", "p.ron"]);
    assert_eq!(
        err,
        "error: p.ron:1:49: expected the end of the square\n  |\n1 | Puzzle(board: \"4x4\", piece: \"knight\", start: \"a1-b2\")\n  |                                                 ^ one square is asked here; a range like `a1..b2` is written where squares are taken off a board\n"
    );
}
