//! Word puzzles (`letters` and `text`): the clue search, its
//! clause-learning search, `--unique` and the count agree with a brute
//! force over every tour of small boards that reads the text by its own
//! reckoning (units repeated, syllables, squares that read nothing), and
//! every tour they give passes the verifier with its letters.

use engine::halt::Never;
use engine::model::Cell;
use engine::progress::Progress;
use engine::puzzle::Puzzle;
use engine::search::event::NoObserver;
use engine::solve::backtrack::BacktrackOptions;
use engine::solve::clued::sat;
use engine::solve::{Limits, Outcome, Run, clued, runner};
use engine::verify::{verify, verify_constraints};
use proptest::prelude::*;

use crate::util;

/// A small word puzzle: its file, and each cell's unit as the test reads
/// it (lower case, `None` for a square that reads nothing or a hole).
#[derive(Clone, Debug)]
struct Case {
    text: String,
    width: u32,
    units: Vec<Option<String>>,
    reading: Vec<String>,
}

/// The unit at square `s` of `p`, by the case's own table.
fn unit_at(case: &Case, p: &Puzzle, s: u32) -> Option<String> {
    let Cell { x, y } = p.board.cell(s);
    case.units[(y * case.width + x) as usize].clone()
}

/// Every path over all of `p`'s squares that fits its goal (by the
/// verifier) and reads the case's text (by the test's own reckoning).
fn brute_force(case: &Case, p: &Puzzle) -> (Vec<Vec<u32>>, Vec<Vec<u32>>) {
    let g = util::graph_of(p);
    let n = g.len();
    let (mut reads, mut others) = (Vec::new(), Vec::new());
    let mut path = Vec::new();
    let mut seen = vec![false; n];
    #[allow(clippy::too_many_arguments)]
    fn go(
        g: &engine::model::MoveGraph,
        case: &Case,
        p: &Puzzle,
        path: &mut Vec<u32>,
        seen: &mut [bool],
        reads: &mut Vec<Vec<u32>>,
        others: &mut Vec<Vec<u32>>,
    ) {
        if path.len() == g.len() {
            if verify(&p.board, &p.piece, &p.goal, path).is_ok() {
                let read: Vec<String> = path.iter().filter_map(|&s| unit_at(case, p, s)).collect();
                if read == case.reading {
                    reads.push(path.clone());
                } else {
                    others.push(path.clone());
                }
            }
            return;
        }
        let next: Vec<u32> = match path.last() {
            None => (0..g.len() as u32).collect(),
            Some(&c) => g.neighbours(c).collect(),
        };
        for v in next {
            if !seen[v as usize] {
                seen[v as usize] = true;
                path.push(v);
                go(g, case, p, path, seen, reads, others);
                path.pop();
                seen[v as usize] = false;
            }
        }
    }
    go(&g, case, p, &mut path, &mut seen, &mut reads, &mut others);
    reads.sort();
    (reads, others)
}

/// Asserts that `tour` is a tour of `p` that reads its text.
fn verified(p: &Puzzle, tour: &[u32]) {
    assert_eq!(verify(&p.board, &p.piece, &p.goal, tour), Ok(()));
    assert_eq!(
        verify_constraints(&p.board, p.goal.closed, &p.constraints, tour),
        Ok(())
    );
}

/// A small word puzzle: a board of up to 12 squares with a hole or two,
/// a piece, units from a small alphabet (so repeated) with syllables and
/// blank squares, and a text read off a random path of the board (then
/// perhaps shuffled), written with random case, spaces and punctuation.
fn case_strategy() -> impl Strategy<Value = Case> {
    (
        2u32..=4,
        2u32..=3,
        prop::collection::vec(0u8..8, 12),
        prop::sample::select(vec!["king", "knight | wazir", "wazir", "ferz | wazir"]),
        any::<bool>(),
        prop::collection::vec(any::<prop::sample::Index>(), 12),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(w, h, kinds, piece, closed, order, shuffle, start)| {
            let n = (w * h) as usize;
            // 0: a hole (never on a1, at most a few), 1: blank, else a unit.
            let alphabet = ["a", "b", "a", "B", "ab", "c"];
            let mut units: Vec<Option<String>> = Vec::with_capacity(n);
            let mut picture_cells: Vec<String> = Vec::with_capacity(n);
            let mut holes = 0;
            for (i, &k) in kinds.iter().take(n).enumerate() {
                if k == 0 && i > 0 && holes < 2 {
                    holes += 1;
                    units.push(None);
                    picture_cells.push("#".into());
                } else if k == 1 {
                    units.push(None);
                    picture_cells.push(".".into());
                } else {
                    let u = alphabet[(k as usize) % alphabet.len()];
                    units.push(Some(u.to_lowercase()));
                    picture_cells.push(if u.len() > 1 {
                        format!("[{u}]")
                    } else {
                        u.to_string()
                    });
                }
            }
            // The text: the lettered cells in a random order.
            let mut cells: Vec<usize> = (0..n)
                .filter(|&i| picture_cells[i] != "#" && units[i].is_some())
                .collect();
            if shuffle {
                for (i, idx) in order.iter().enumerate().take(cells.len()) {
                    let j = i + idx.index(cells.len() - i);
                    cells.swap(i, j);
                }
            }
            let reading: Vec<String> = cells.iter().filter_map(|&i| units[i].clone()).collect();
            let mut text = String::new();
            for (i, u) in reading.iter().enumerate() {
                let written = if i % 2 == 0 { u.to_uppercase() } else { u.clone() };
                if u.len() > 1 {
                    text.push_str(&format!("[{written}]"));
                } else {
                    text.push_str(&written);
                }
                text.push_str([" ", "", ", ", "-"][i % 4]);
            }
            let rows: Vec<String> = (0..h)
                .rev()
                .map(|y| {
                    (0..w)
                        .map(|x| picture_cells[(y * w + x) as usize].clone())
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            let tour = if closed { "Closed" } else { "Open" };
            let start = if start { r#", start: "a1""# } else { "" };
            let file = format!(
                "Puzzle(piece: \"{piece}\", tour: {tour}{start},\n letters: r#\"\n{}\n\"#,\n text: {text:?})",
                rows.join("\n")
            );
            Case {
                text: file,
                width: w,
                units,
                reading,
            }
        })
        .prop_filter("a text to read", |c| !c.reading.is_empty())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The clue search enumerates exactly the tours that read the text, as
    /// does the clause-learning search; the count is their number;
    /// `--unique` says unique, multiple or impossible as the brute force
    /// does; and the verifier refuses every other tour of the board.
    #[test]
    fn agrees_with_brute_force(case in case_strategy()) {
        let p = util::puzzle(&case.text);
        let (truth, others) = brute_force(&case, &p);
        let g = util::graph_of(&p);
        let task = p.task(&g);
        let progress = Progress::new();
        let run = Run::new(Limits::none(), &progress, NoObserver);
        let (report, mut tours) = clued::solve(BacktrackOptions::default(), &task, run, usize::MAX);
        for t in &tours {
            verified(&p, t);
        }
        match report.outcome {
            Outcome::Found(t) => prop_assert_eq!(Some(&t), tours.first()),
            Outcome::Impossible(_) => prop_assert!(tours.is_empty()),
            other => prop_assert!(false, "{:?}", other),
        }
        tours.sort();
        prop_assert_eq!(&tours, &truth, "{}", case.text);

        // The start is a clue to the clause-learning search.
        let mut clues = p.constraints.clues.clone();
        clues.extend(p.goal.start.map(|s| (1, s)));
        let Ok((found, _)) = sat::solutions_with(
            &g,
            p.goal.closed,
            &clues,
            p.constraints.letters.as_ref(),
            None,
            (usize::MAX, u64::MAX),
            &Never,
        );
        let sat::Answer::Tours(mut got) = found else {
            panic!("out of nodes")
        };
        for t in &got {
            verified(&p, t);
        }
        got.sort();
        prop_assert_eq!(&got, &truth, "{}", case.text);

        let c = clued::count(&task, &Limits::none(), &Progress::new());
        prop_assert_eq!(c.solutions, truth.len() as u64, "{}", case.text);

        let run = Run::new(Limits::none(), &progress, NoObserver);
        let (report, second) =
            runner::solve_unique(&task, p.solver, run).unwrap_or_else(|e| panic!("{e}"));
        match (truth.len(), &report.outcome, &second) {
            (0, Outcome::Impossible(_), None) => {}
            (1, Outcome::Found(t), None) => prop_assert_eq!(t, &truth[0], "{}", case.text),
            (2.., Outcome::Found(a), Some(b)) => {
                prop_assert_ne!(a, b, "{}", case.text);
                prop_assert!(truth.contains(a) && truth.contains(b), "{}", case.text);
            }
            (n, o, s) => prop_assert!(false, "{}: {n} solutions, but {o:?} and {s:?}", case.text),
        }

        for t in &others {
            prop_assert!(
                verify_constraints(&p.board, p.goal.closed, &p.constraints, t).is_err(),
                "{}: {:?} does not read the text",
                case.text,
                t
            );
        }
    }
}

/// The clause-learning search alone (the `--unique` path past its first
/// nodes) agrees with the brute force when squares read nothing: its count
/// of blank squares is exact.
#[test]
fn blank_squares_are_counted_exactly_by_the_clause_learning_search() {
    // 3x3 king: a, b on two squares each, five blank squares.
    let case = Case {
        text:
            "Puzzle(piece: \"king\", letters: r#\"\n a . b\n . . .\n b . a\n\"#, text: \"a b b a\")"
                .into(),
        width: 3,
        units: ["b", ".", "a", ".", ".", ".", "a", ".", "b"]
            .iter()
            .map(|u| (*u != ".").then(|| u.to_string()))
            .collect(),
        reading: ["a", "b", "b", "a"].map(String::from).to_vec(),
    };
    let p = util::puzzle(&case.text);
    let (truth, others) = brute_force(&case, &p);
    assert!(!truth.is_empty() && !others.is_empty());
    let g = util::graph_of(&p);
    let Ok((sat::Answer::Tours(mut got), _)) = sat::solutions_with(
        &g,
        false,
        &[],
        p.constraints.letters.as_ref(),
        None,
        (usize::MAX, u64::MAX),
        &Never,
    ) else {
        panic!("out of nodes")
    };
    for t in &got {
        verified(&p, t);
    }
    got.sort();
    assert_eq!(got, truth);
}

/// Bad letters and texts are refused at the character, exit 2.
#[test]
fn errors_point_at_the_character() {
    let cases = [
        (
            "Puzzle(piece: \"king\", letters: \"AN\\nNA\", text: \"Annna\")",
            "the text reads `n` 3 times by here, and the board has it on 2 squares",
            52,
        ),
        (
            "Puzzle(piece: \"king\", letters: \"A[N\\nNA\", text: \"Anna\")",
            "this bracket is not closed",
            34,
        ),
        (
            "Puzzle(board: \"3x2\", piece: \"king\", letters: \"AN\\nNA\", text: \"Anna\")",
            "the letters picture is 2x2 but the board is 3x2",
            47,
        ),
        (
            "Puzzle(piece: \"king\", letters: \"AN\\nNAB\", text: \"Anna\")",
            "this row has 3 squares, the first row 2",
            37,
        ),
        (
            "Puzzle(piece: \"king\", letters: \"AN\\nNA\")",
            "`letters` ask for a `text`",
            32,
        ),
        (
            "Puzzle(piece: \"king\", letters: \"AN\\nNA\", text: \"Anne\")",
            "the text reads `e` here, and no square has it",
            52,
        ),
    ];
    for (text, message, col) in cases {
        let e = match Puzzle::parse("w.ron", text) {
            Ok(_) => panic!("accepted: {text}"),
            Err(e) => e,
        };
        assert!(e.message.contains(message), "{text}: {}", e.message);
        assert_eq!((e.line, e.col), (1, col), "{text}: {}", e.message);
    }
    let (dir, path) = util::setup("Puzzle(piece: \"king\", letters: \"AN\\nNA\", text: \"Annna\")");
    util::engine()
        .current_dir(dir.path())
        .args(["run"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("^"));
}

/// Solvers that cannot honour letters are refused at the field, as with
/// clues; with the complete search the tour reads the text.
#[test]
fn solvers_that_cannot_honour_letters_are_refused() {
    for solver in ["Warnsdorff()", "Genetic()", "Symmetric()"] {
        let text = format!(
            "Puzzle(piece: \"king\", letters: \"AN\\nNA\", text: \"Anna\", solver: {solver})"
        );
        let e = match Puzzle::parse("w.ron", &text) {
            Ok(_) => panic!("accepted: {text}"),
            Err(e) => e,
        };
        assert_eq!(e.kind, engine::error::ErrorKind::Conflict, "{text}");
        // The symmetric solver is refused first for want of a symmetry.
        let at = if solver == "Symmetric()" { 64 } else { 32 };
        assert_eq!(e.col, at, "{text}: {}", e.message);
    }
    let p = util::puzzle("Puzzle(piece: \"king\", letters: \"AN\\nNA\", text: \"Anna\")");
    let r = util::solve(&p);
    let Outcome::Found(t) = r.outcome else {
        panic!("{:?}", r.outcome)
    };
    verified(&p, &t);
}

/// `engine make --text` writes a word puzzle whose reading `run --unique`
/// proves unique, the tour verified with its letters; its board is the
/// nearest square with room, and a board of another size is refused at the
/// text.
#[test]
fn make_text_writes_a_puzzle_with_one_reading() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let text = "Sets site so, no [ten] toes";
    let out = util::engine()
        .current_dir(dir.path())
        .args([
            "make",
            "--text",
            text,
            "--hint",
            "start,lengths",
            "--seed",
            "3",
            "-q",
            "--format",
            "json",
            "-o",
            "w.ron",
        ])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v["status"], "made", "{v}");
    assert_eq!(
        v["made"]["lengths"],
        serde_json::json!([4, 4, 2, 2, 1, 4]),
        "{v}"
    );
    assert_eq!(
        util::files(dir.path()),
        ["w-solution.svg", "w.ron", "w.svg"]
    );
    let p = util::load(&dir.path().join("w.ron"));
    // 17 units: 5 files, 4 ranks, 3 squares off the top rank.
    assert_eq!(
        (p.board.width(), p.board.height(), p.board.len()),
        (5, 4, 17)
    );
    let letters = p
        .constraints
        .letters
        .clone()
        .unwrap_or_else(|| panic!("letters"));
    assert_eq!(letters.reading.len(), 17);
    assert_eq!(
        p.goal.start.map(|s| p.board.name(s)),
        v["made"]["start"].as_str().map(String::from)
    );
    let out = util::engine()
        .current_dir(dir.path())
        .args(["run", "--format", "json", "--quiet", "w.ron"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r["status"], "unique", "{r}");
    util::assert_verified(&p, &r);
    assert_eq!(r["squares"], v["made"]["squares"]);
    let svg = std::fs::read_to_string(dir.path().join("w.svg")).unwrap_or_default();
    assert_eq!(svg.matches("class=\"unit\"").count(), 17);
    // A board of another size: at the text, exit 2, nothing written.
    util::engine()
        .current_dir(dir.path())
        .args(["make", "--text", text, "--board", "4x4", "-o", "x.ron"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "the text has 17 units and the board 16 squares",
        ));
    assert!(!dir.path().join("x.ron").exists());
}

/// With no board given, a text whose nearest rectangle has no tour for the
/// piece (10 letters: 4x3 with two squares off, where the knight's moves
/// fall apart) is laid on the next board that has one, and the puzzle
/// made reads its text by one tour only.
#[test]
fn make_text_tries_boards_until_the_piece_has_a_tour() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    for (i, text) in ["Hello world", "Knights", "A knight's tour quote"]
        .into_iter()
        .enumerate()
    {
        let name = format!("t{i}.ron");
        let out = util::engine()
            .current_dir(dir.path())
            .args([
                "make", "--text", text, "-q", "--format", "json", "-o", &name,
            ])
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            out.status.code(),
            Some(0),
            "{text}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let p = util::load(&dir.path().join(&name));
        assert!(p.name.starts_with("Word puzzle"), "{}", p.name);
        let units = text.chars().filter(|c| c.is_alphanumeric()).count();
        assert_eq!(p.board.len(), units, "{text}");
        let out = util::engine()
            .current_dir(dir.path())
            .args(["run", "--format", "json", "--quiet", &name])
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let r: serde_json::Value =
            serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r["status"], "unique", "{text}: {r}");
        util::assert_verified(&p, &r);
    }
}

/// A board named as a picture file is read from the puzzle file's folder,
/// and a picture that cannot be read is an error at its name.
#[test]
fn a_board_can_be_a_picture_file() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let p = util::load(&root.join("puzzles/picture-file.ron"));
    assert_eq!(
        (p.board.width(), p.board.height(), p.board.len()),
        (8, 8, 56)
    );
    let (dir, path) = util::setup("Puzzle(board: \"none.png\", piece: \"knight\")");
    util::engine()
        .current_dir(dir.path())
        .arg("check")
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "cannot read the board picture none.png",
        ))
        .stderr(predicates::str::contains("p.ron:1:16"));
}
