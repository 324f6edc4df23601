//! `engine make`: the puzzles it makes are unique (proved again by `run
//! --unique`), minimal, reproducible from their seed, in the difficulty
//! band asked for; their solution picture is the verified tour; bad input
//! is refused.

use std::path::{Path, PathBuf};

use engine::make::Difficulty;
use engine::puzzle::Puzzle;
use engine::solve::clued::deduce::deduce;

use crate::util::{
    assert_verified, engine, engine_process, files, graph_of, load, setup, tour_from_json,
};

const KNIGHT6: &str = r#"Puzzle(name: "Knight 6x6", board: "6x6", piece: "knight")"#;

/// Runs `engine make` on `input` (in a new directory) with `args`, writing
/// `out.ron`; the directory, the output path and the run's output.
fn make(input: &str, args: &[&str]) -> (tempfile::TempDir, PathBuf, std::process::Output) {
    let (dir, file) = setup(input);
    let out = dir.path().join("out.ron");
    let output = engine()
        .arg("make")
        .arg(&file)
        .args(args)
        .arg("-o")
        .arg(&out)
        .arg("-q")
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    (dir, out, output)
}

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `engine run FILE --unique --format json`: the exit code and the object.
fn run_unique(file: &Path) -> (i32, serde_json::Value) {
    let o = engine()
        .arg("run")
        .arg(file)
        .args(["--unique", "--format", "json", "-q"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let v = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout)));
    (o.status.code().unwrap_or(-1), v)
}

/// The numbers of an SVG picture of `make`: (square name, number, bold).
fn numbers(svg: &str) -> Vec<(String, u32, bool)> {
    svg.lines()
        .filter(|l| l.starts_with("<text class=\"clue\"") || l.starts_with("<text class=\"step\""))
        .map(|l| {
            let square = l
                .split("data-square=\"")
                .nth(1)
                .and_then(|r| r.split('"').next())
                .unwrap_or_else(|| panic!("no square in {l}"));
            let number = l
                .rsplit_once("\">")
                .and_then(|(_, r)| r.strip_suffix("</text>"))
                .and_then(|k| k.parse().ok())
                .unwrap_or_else(|| panic!("no number in {l}"));
            (
                square.to_string(),
                number,
                l.starts_with("<text class=\"clue\""),
            )
        })
        .collect()
}

fn square_named(p: &Puzzle, name: &str) -> u32 {
    (0..p.board.len() as u32)
        .find(|&s| p.board.name(s) == name)
        .unwrap_or_else(|| panic!("{name} is not a square"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_made_puzzle_is_unique_and_its_solution_picture_is_the_verified_tour() {
    for (input, seed) in [
        (KNIGHT6, "1"),
        (
            r#"Puzzle(board: "6x6 - a1 f1", piece: "knight", tour: Closed)"#,
            "2",
        ),
        (r#"Puzzle(board: "5x5 torus", piece: "knight")"#, "3"),
    ] {
        let (dir, out, o) = make(input, &["--seed", seed]);
        assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
        assert_eq!(
            files(dir.path()),
            ["out-solution.svg", "out.ron", "out.svg", "p.ron"]
        );
        let (code, v) = run_unique(&out);
        assert_eq!((code, v["status"].as_str()), (0, Some("unique")), "{v}");
        let p = load(&out);
        assert_verified(&p, &v);
        let tour = tour_from_json(&p, &v);
        // The solution picture: every square's number, the clues in bold.
        let shown = numbers(&read(&dir.path().join("out-solution.svg")));
        assert_eq!(shown.len(), p.board.len());
        let mut pictured = vec![u32::MAX; p.board.len()];
        for (name, k, bold) in &shown {
            pictured[*k as usize - 1] = square_named(&p, name);
            assert_eq!(*bold, p.constraints.square_of_step(*k).is_some(), "{name}");
        }
        let mut goal = p.goal;
        goal.closed = v["closed"].as_bool().unwrap_or(false);
        assert_eq!(
            engine::verify::verify(&p.board, &p.piece, &goal, &pictured),
            Ok(())
        );
        assert_eq!(pictured, tour);
        // The blank picture: the clues alone.
        let blank = numbers(&read(&dir.path().join("out.svg")));
        let mut clues: Vec<(u32, u32)> = blank
            .iter()
            .map(|(name, k, _)| (*k, square_named(&p, name)))
            .collect();
        clues.sort_unstable();
        assert_eq!(clues, p.constraints.clues);
    }
}

/// Every clue kept in a minimal puzzle is needed: without it `run --unique`
/// finds two verified solutions. On 8x8, seed 4, each search for a second
/// solution settles its clue (none is kept because a search ran out).
#[test]
fn no_clue_of_a_minimal_puzzle_can_be_taken_out() {
    for (input, seed) in [
        (KNIGHT6, "5"),
        (r#"Puzzle(board: "5x5", piece: "knight", start: "c3")"#, "6"),
        (r#"Puzzle(board: "8x8", piece: "knight")"#, "4"),
    ] {
        let (dir, out, o) = make(input, &["--seed", seed, "--minimal"]);
        assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
        assert!(stdout(&o).contains("Minimal: "), "{}", stdout(&o));
        assert!(!stdout(&o).contains("Not proven"), "{}", stdout(&o));
        let p = load(&out);
        let n = p.board.len() as u32;
        let clues = &p.constraints.clues;
        assert!(clues.len() < p.board.len() / 2, "{clues:?}");
        for &(k, _) in clues.iter().filter(|&&(k, _)| k != 1 && k != n) {
            let map: Vec<String> = clues
                .iter()
                .filter(|&&(j, _)| j != k)
                .map(|&(j, s)| format!("\"{}\": {j}", p.board.name(s)))
                .collect();
            let file = dir.path().join(format!("without-{k}.ron"));
            std::fs::write(
                &file,
                format!(
                    r#"Puzzle(board: "{}", piece: "knight", clues: {{ {} }})"#,
                    p.board_text,
                    map.join(", ")
                ),
            )
            .unwrap_or_else(|e| panic!("{e}"));
            let (code, v) = run_unique(&file);
            assert_eq!(
                (code, v["status"].as_str()),
                (4, Some("multiple")),
                "without clue {k}: {v}"
            );
            let without = load(&file);
            assert_verified(&without, &v);
            let mut second = v.clone();
            second["tour"] = v["second"]["tour"].clone();
            second["squares"] = v["second"]["squares"].clone();
            assert_verified(&without, &second);
        }
    }
}

#[test]
fn the_same_seed_makes_the_same_files_and_another_seed_another_puzzle() {
    let (dir, file) = setup(KNIGHT6);
    let run = |seed: &str, out: &str| {
        engine()
            .arg("make")
            .arg(&file)
            .args(["--seed", seed, "-q", "-o"])
            .arg(dir.path().join(out))
            .assert()
            .code(0);
    };
    run("7", "a.ron");
    run("7", "b.ron");
    run("8", "c.ron");
    let bytes =
        |name: &str| std::fs::read(dir.path().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    // Alike but for the command in the header's first line, which names
    // the file it wrote.
    let (a_ron, b_ron) = (bytes("a.ron"), bytes("b.ron"));
    let rest = |b: &[u8]| b.splitn(2, |&c| c == b'\n').nth(1).map(<[u8]>::to_vec);
    assert_eq!(rest(&a_ron), rest(&b_ron), "a.ron and b.ron");
    assert!(rest(&a_ron).is_some_and(|r| !r.is_empty()));
    for (a, b) in [("a.svg", "b.svg"), ("a-solution.svg", "b-solution.svg")] {
        assert_eq!(bytes(a), bytes(b), "{a} and {b}");
    }
    let (a, c) = (
        load(&dir.path().join("a.ron")),
        load(&dir.path().join("c.ron")),
    );
    assert_ne!(a.constraints.clues, c.constraints.clues);
}

#[test]
fn each_difficulty_lands_in_its_band() {
    for (level, band) in [
        ("easy", Difficulty::Easy),
        ("medium", Difficulty::Medium),
        ("hard", Difficulty::Hard),
    ] {
        let (_dir, out, o) = make(KNIGHT6, &["--seed", "11", "--difficulty", level]);
        assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
        let p = load(&out);
        let g = graph_of(&p);
        let d = deduce(&g, p.goal.closed, &p.constraints.clues);
        assert_eq!(Difficulty::of(d.filled(), p.board.len()), band, "{level}");
        let said = format!(
            "Difficulty: {level}. The deductions fill {} of {} squares",
            d.filled(),
            p.board.len()
        );
        assert!(stdout(&o).contains(&said), "{}", stdout(&o));
        assert!(read(&out).contains(&format!("// {said}")));
        let (code, v) = run_unique(&out);
        assert_eq!((code, v["status"].as_str()), (0, Some("unique")), "{v}");
        assert_verified(&p, &v);
    }
}

#[test]
fn clues_stop_at_the_number_asked_or_exit_3() {
    let (_dir, out, o) = make(KNIGHT6, &["--seed", "4", "--clues", "20"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let p = load(&out);
    assert_eq!(p.constraints.clues.len(), 20);
    let (code, v) = run_unique(&out);
    assert_eq!(code, 0, "{v}");
    assert_verified(&p, &v);
    // Two clues (1 and 36) leave every 6x6 puzzle with many solutions.
    let (dir, _, o) = make(KNIGHT6, &["--clues", "2", "--attempts", "2"]);
    assert_eq!(o.status.code(), Some(3), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("no puzzle with 2 clues or fewer from 2 tours"),
        "{}",
        stdout(&o)
    );
    assert_eq!(files(dir.path()), ["p.ron"]);
}

#[test]
fn a_puzzle_with_no_tour_exits_1_and_writes_nothing() {
    let (dir, _, o) = make(r#"Puzzle(board: "3x3", piece: "knight")"#, &[]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("no tour exists"), "{}", stdout(&o));
    assert_eq!(files(dir.path()), ["p.ron"]);
    // One square has no closed tour (it needs two): the proof, not a walk
    // of one square passed off as a tour.
    let (dir, _, o) = make(r#"Puzzle(board: "1x1", piece: "wazir", tour: Closed)"#, &[]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("at least two squares"),
        "{}",
        stdout(&o)
    );
    assert_eq!(files(dir.path()), ["p.ron"]);
}

#[test]
fn bad_input_is_refused_with_its_place() {
    let cases: [(&str, &[&str], &str); 6] = [
        (
            "Puzzle(board: \"6x6\", piece: \"knight\",\n  clues: { \"a1\": 1 })",
            &[],
            "p.ron:2:10",
        ),
        (
            "Puzzle(board: \"6x6\", piece: \"knight\", tour: Closed,\n  symmetry: Rotate180)",
            &[],
            "p.ron:2:13",
        ),
        (
            "Puzzle(\n  board: \"40x40\", piece: \"knight\")",
            &[],
            "p.ron:2:10",
        ),
        (KNIGHT6, &["--clues", "1"], "--clues"),
        (KNIGHT6, &["--node-limit", "0"], "--node-limit"),
        (KNIGHT6, &["--difficulty", "fiendish"], "fiendish"),
    ];
    for (input, args, place) in cases {
        let (dir, _, o) = make(input, args);
        assert_eq!(o.status.code(), Some(2), "{input} {args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(place), "{place}: {}", stderr(&o));
        assert_eq!(files(dir.path()), ["p.ron"]);
    }
    // The output may not replace the puzzle file, nor go where no file can.
    let (dir, file) = setup(KNIGHT6);
    engine()
        .arg("make")
        .arg(&file)
        .arg("-o")
        .arg(&file)
        .assert()
        .code(2);
    engine()
        .arg("make")
        .arg(&file)
        .arg("-o")
        .arg(dir.path().join("no/such/dir/out.ron"))
        .assert()
        .code(2);
    assert_eq!(files(dir.path()), ["p.ron"]);
}

/// One clue, one square, one conflict: the messages are singular there.
#[test]
fn messages_are_singular_for_one() {
    let one = r#"Puzzle(board: "1x1", piece: "knight")"#;
    let (_dir, out, o) = make(one, &["--clues", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("a puzzle made has at least 1 clue: step 1 is always given"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
    let (_dir, out, o) = make(one, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for text in [stdout(&o), read(&out)] {
        assert!(text.contains("1 clue on 1 square; one solution"), "{text}");
        assert!(
            text.contains("The deductions fill 1 of 1 square (100%"),
            "{text}"
        );
        // The first and the last step are one square here.
        assert!(
            text.contains(
                "Minimal: the one square is both the first and the last step, and its clue stays."
            ),
            "{text}"
        );
        assert!(!text.contains("the first and the last can"), "{text}");
    }
    let svg = read(&out.with_extension("svg"));
    assert!(svg.contains("1 clue, easy; fill in step 1<"), "{svg}");
    let (_dir, _, o) = make(one, &["--difficulty", "hard"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("fill 1 of 1 square (easy)"),
        "{}",
        stdout(&o)
    );
    let (_dir, _, o) = make(KNIGHT6, &["--node-limit", "1"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("ran out of 1 conflict;"),
        "{}",
        stdout(&o)
    );
}

/// The header's command makes the same three files again, byte for byte,
/// run by a shell from where the first was run; the pictures name the
/// piece by its moves, not only by the file's name for it.
#[test]
fn the_header_command_makes_the_files_again_and_the_sheets_spell_the_piece() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let d = dir.path();
    std::fs::write(
        d.join("emperor.ron"),
        r#"Puzzle(name: "Emperor", board: "6x6", pieces: {"stepper": "leaper 0 1", "emperor": "knight | stepper"}, piece: "emperor", tour: Closed)"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    for args in [
        &[
            "make",
            "emperor.ron",
            "--seed",
            "3",
            "-o",
            "my made.ron",
            "-q",
        ][..],
        &[
            "make",
            "emperor.ron",
            "-o",
            "my made.ron",
            "--clues",
            "20",
            "-q",
        ][..],
        &[
            "make",
            "--board",
            "5x6",
            "--piece",
            "knight",
            "-q",
            "-o",
            "my made.ron",
        ][..],
    ] {
        let out = engine_process()
            .current_dir(d)
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let names = ["my made.ron", "my made.svg", "my made-solution.svg"];
        let first: Vec<Vec<u8>> = names
            .iter()
            .map(|n| std::fs::read(d.join(n)).unwrap_or_else(|e| panic!("{e}")))
            .collect();
        let text = String::from_utf8_lossy(&first[0]).into_owned();
        let line = text.lines().next().unwrap_or_default();
        let command = line
            .split('`')
            .nth(1)
            .unwrap_or_else(|| panic!("no command in {line}"));
        assert!(command.starts_with("engine make "), "{command}");
        assert!(command.contains("--seed "), "{command}");
        if args[1] == "emperor.ron" {
            let sheet = String::from_utf8_lossy(&first[1]).into_owned();
            assert!(
                sheet.contains("emperor = knight | (leaper 0 1) on 6x6"),
                "{sheet}"
            );
        }
        for n in names {
            std::fs::remove_file(d.join(n)).unwrap_or_else(|e| panic!("{e}"));
        }
        let bin = Path::new(env!("CARGO_BIN_EXE_engine"));
        let path = format!(
            "{}:{}",
            bin.parent().unwrap_or(Path::new(".")).display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let again = std::process::Command::new("sh")
            .args(["-c", command])
            .current_dir(d)
            .env("PATH", path)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            again.status.code(),
            Some(0),
            "{command}: {}",
            stderr(&again)
        );
        for (n, before) in names.iter().zip(&first) {
            let after = std::fs::read(d.join(n)).unwrap_or_else(|e| panic!("{e}"));
            assert!(&after == before, "{command}: {n} differs");
        }
    }
}

/// `make --count K --sheet`: K puzzles, with the seeds from --seed on, each
/// in its own three files and all on one sheet — the puzzles' pages with
/// their clues, then the solutions' pages with every step, each a tour the
/// verifier passes; as SVG (read back here) and as PDF (its pages and
/// numbers).
#[test]
fn several_puzzles_on_one_sheet_with_their_verified_solutions() {
    let (dir, file) = setup(
        r#"Puzzle(name: "Set", board: "5x6", pieces: {"stepper": "leaper 0 1", "emperor": "knight | stepper"}, piece: "emperor")"#,
    );
    let d = dir.path();
    let sheet_args = ["--count", "3", "--seed", "4", "--sheet"];
    let out = engine_process()
        .current_dir(d)
        .arg("make")
        .arg(&file)
        .args(sheet_args)
        .args(["s.svg", "-o", "set.ron", "-q"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).ends_with("Wrote s.svg (3 puzzles, 2 pages)\n"),
        "{}",
        stdout(&out)
    );
    let sheet = read(&d.join("s.svg"));
    assert!(sheet.contains("emperor = knight | (leaper 0 1)"));
    assert_eq!(sheet.matches("<g class=\"page\"").count(), 2);
    for i in 1..=3u32 {
        let p = load(&d.join(format!("set-{i}.ron")));
        assert!(read(&d.join(format!("set-{i}.ron"))).contains(&format!("seed {}", 3 + i)));
        let tag = format!("data-puzzle=\"{i}\" ");
        let mine: String = sheet
            .lines()
            .filter(|l| l.contains(&tag))
            .map(|l| l.replacen(&tag, "", 1) + "\n")
            .collect();
        let shown = numbers(&mine);
        let mut pictured = vec![u32::MAX; p.board.len()];
        let mut clues = Vec::new();
        for (name, k, bold) in &shown {
            let s = square_named(&p, name);
            let at = &mut pictured[*k as usize - 1];
            assert!(*at == u32::MAX || *at == s, "step {k} on two squares");
            *at = s;
            if *bold {
                clues.push((*k, s));
            }
        }
        assert_eq!(
            engine::verify::verify(&p.board, &p.piece, &p.goal, &pictured),
            Ok(()),
            "puzzle {i}"
        );
        // Each clue twice (the puzzle and its solution), every other step once.
        clues.sort_unstable();
        clues.dedup();
        assert_eq!(clues, p.constraints.clues, "puzzle {i}");
        assert_eq!(shown.len(), p.board.len() + clues.len(), "puzzle {i}");
    }
    // The same as a PDF: A4 pages, the piece and the numbers shown.
    let out = engine_process()
        .current_dir(d)
        .arg("make")
        .arg(&file)
        .args(sheet_args)
        .args(["s.pdf", "-o", "set.ron", "-q"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let pdf = std::fs::read(d.join("s.pdf")).unwrap_or_else(|e| panic!("{e}"));
    let text = String::from_utf8_lossy(&pdf);
    assert!(pdf.starts_with(b"%PDF-"));
    let pages = text.matches("/Type /Page").count() - text.matches("/Type /Pages").count();
    assert_eq!(pages, 2, "{text}");
    assert!(
        text.contains("(The piece: emperor = knight | (leaper 0 1)) Tj"),
        "{text}"
    );
    let p = load(&d.join("set-1.ron"));
    for (k, _) in &p.constraints.clues {
        assert!(text.contains(&format!("({k}) Tj")), "clue {k}");
    }
    // A sheet is a PDF or an SVG; several puzzles are 1 to 100.
    for (args, said) in [
        (
            &["--count", "2", "--sheet", "s.png"][..],
            "--sheet: a sheet is written as a PDF or an SVG",
        ),
        (&["--count", "0"][..], "--count"),
        (&["--count", "101"][..], "--count"),
    ] {
        let out = engine_process()
            .current_dir(d)
            .arg("make")
            .arg(&file)
            .args(args)
            .args(["-o", "x.ron", "-q"])
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).starts_with(&format!("error: {said}")),
            "{}",
            stderr(&out)
        );
        assert!(!d.join("x.ron").exists() && !d.join("x-1.ron").exists());
    }
}
