//! The tour archive: deduplication by canonical form, figures, concurrency,
//! refusing files that are not archives, and where the archive lives.

use std::path::Path;

use engine::archive::Archive;
use engine::model::symmetry::{square_maps, symmetries};
use engine::solve::{Outcome, Report};
use engine::verify::verify;
use predicates::prelude::*;

use crate::util::{engine, engine_process, load, solve};

fn with_tour(r: &Report, tour: Vec<u32>) -> Report {
    Report {
        outcome: Outcome::Found(tour),
        ..r.clone()
    }
}

#[test]
fn a_tour_and_its_mirror_images_count_once() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut store = Archive::open(&dir.path().join("a.db")).unwrap_or_else(|e| panic!("{e}"));
    let p = load(Path::new("puzzles/knight5x5-corner.ron"));
    let r = solve(&p);
    let Outcome::Found(tour) = r.outcome.clone() else {
        panic!("5x5 from a1 has tours")
    };
    let maps = square_maps(&p.board, &symmetries(&p.board, &p.piece));
    assert_eq!(maps.len(), 8);
    let mut free = p.clone();
    free.goal.start = None;
    for m in &maps {
        let image: Vec<u32> = tour.iter().map(|&s| m[s as usize]).collect();
        assert_eq!(verify(&free.board, &free.piece, &free.goal, &image), Ok(()));
        store
            .record(&free, &with_tour(&r, image))
            .unwrap_or_else(|e| panic!("{e}"));
    }
    // A different tour: the same one walked backwards.
    let mut back = tour.clone();
    back.reverse();
    assert_eq!(verify(&free.board, &free.piece, &free.goal, &back), Ok(()));
    store
        .record(&free, &with_tour(&r, back))
        .unwrap_or_else(|e| panic!("{e}"));
    let rows = store.stats(Some(&free)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rows.len(), 1);
    assert_eq!((rows[0].runs, rows[0].found, rows[0].distinct), (9, 9, 2));
}

#[test]
fn a_closed_tour_rotated_and_reversed_counts_once() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut store = Archive::open(&dir.path().join("a.db")).unwrap_or_else(|e| panic!("{e}"));
    let p = load(Path::new("puzzles/knight8x8-closed.ron"));
    let r = solve(&p);
    let Outcome::Found(tour) = r.outcome.clone() else {
        panic!("8x8 has closed tours")
    };
    for shift in [0, 1, 17, 63] {
        for reverse in [false, true] {
            let mut t = tour.clone();
            t.rotate_left(shift);
            if reverse {
                t.reverse();
            }
            assert_eq!(verify(&p.board, &p.piece, &p.goal, &t), Ok(()));
            store
                .record(&p, &with_tour(&r, t))
                .unwrap_or_else(|e| panic!("{e}"));
        }
    }
    let rows = store.stats(Some(&p)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((rows[0].runs, rows[0].distinct), (8, 1));
}

#[test]
fn stats_figures() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut store = Archive::open(&dir.path().join("a.db")).unwrap_or_else(|e| panic!("{e}"));
    let p = load(Path::new("puzzles/knight5x5-corner.ron"));
    let r = solve(&p);
    let mut nodes = Vec::new();
    for (i, extra) in [0u64, 10, 30].iter().enumerate() {
        let mut run = r.clone();
        run.stats.nodes += extra;
        nodes.push(run.stats.nodes);
        if i == 2 {
            run.outcome = Outcome::GaveUp {
                limit: engine::solve::Limit::Nodes,
                best: vec![0],
            };
        }
        store.record(&p, &run).unwrap_or_else(|e| panic!("{e}"));
    }
    let other = load(Path::new("puzzles/knight4x4.ron"));
    store
        .record(&other, &solve(&other))
        .unwrap_or_else(|e| panic!("{e}"));
    let all = store.stats(None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(all.len(), 2);
    let row = &store.stats(Some(&p)).unwrap_or_else(|e| panic!("{e}"))[0];
    assert_eq!((row.runs, row.found, row.distinct), (3, 2, 1));
    assert!((row.success_rate() - 2.0 / 3.0).abs() < 1e-9);
    let (mean, median) = engine::archive::StatsRow::mean_median(&row.nodes);
    let want_mean = nodes.iter().sum::<u64>() as f64 / 3.0;
    assert!((mean - want_mean).abs() < 1e-9);
    assert_eq!(median, nodes[1] as f64);
}

#[test]
fn concurrent_writers_all_land() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let db = dir.path().join("shared.db");
    // Twelve processes race to save into one new archive.
    let racing: Vec<_> = (0..12)
        .map(|i| {
            let puzzle = if i % 2 == 0 {
                "puzzles/knight5x5-corner.ron"
            } else {
                "puzzles/knight8x8-closed.ron"
            };
            engine_process()
                .args(["run", puzzle, "--save", "--quiet", "--archive"])
                .arg(&db)
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    for mut c in racing {
        assert_eq!(c.wait().ok().and_then(|s| s.code()), Some(0));
    }
    let store = Archive::open(&db).unwrap_or_else(|e| panic!("{e}"));
    let rows = store.list(100).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rows.len(), 12);
}

#[test]
fn files_that_are_not_archives_are_refused_and_untouched() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let junk = dir.path().join("junk.db");
    std::fs::write(&junk, b"these are my notes, not a database\n")
        .unwrap_or_else(|e| panic!("{e}"));
    for args in [
        vec!["archive", "stats"],
        vec!["run", "puzzles/holed4x4.ron", "--save"],
    ] {
        engine()
            .args(&args)
            .arg("--archive")
            .arg(&junk)
            .assert()
            .code(2)
            .stdout(predicate::str::is_empty())
            .stderr(predicate::str::contains(
                "junk.db: is not an engine archive",
            ))
            .stderr(predicate::str::contains("not an engine archive"));
    }
    assert_eq!(
        std::fs::read(&junk).unwrap_or_default(),
        b"these are my notes, not a database\n"
    );
    // Another program's SQLite database.
    let other = dir.path().join("other.db");
    {
        let c = rusqlite::Connection::open(&other).unwrap_or_else(|e| panic!("{e}"));
        c.execute_batch("CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ('keep');")
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let before = std::fs::read(&other).unwrap_or_default();
    assert!(Archive::open(&other).is_err());
    assert_eq!(std::fs::read(&other).unwrap_or_default(), before);
}

#[test]
fn the_default_path_can_be_overridden() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let via_env = dir.path().join("env/archive.db");
    let via_flag = dir.path().join("flag.db");
    engine()
        .env("ENGINE_ARCHIVE", &via_env)
        .args(["run", "puzzles/holed4x4.ron", "--save"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("Saved as run 1"));
    assert!(via_env.exists(), "created on first use, with its folder");
    engine()
        .env("ENGINE_ARCHIVE", &via_env)
        .args(["run", "puzzles/holed4x4.ron", "--save", "--archive"])
        .arg(&via_flag)
        .assert()
        .code(0);
    assert!(via_flag.exists());
    engine()
        .env("ENGINE_ARCHIVE", &via_env)
        .args(["archive", "list"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("Holed 4x4").count(1));
    engine()
        .env("ENGINE_ARCHIVE", &via_env)
        .args(["archive", "show", "1"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("Found an open tour of 11 squares"));
    engine()
        .env("ENGINE_ARCHIVE", &via_env)
        .args(["archive", "show", "9"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no run 9"));
}

#[test]
fn save_true_in_the_file_saves() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let puzzle = dir.path().join("s.ron");
    std::fs::write(
        &puzzle,
        r#"Puzzle(board: "3x4", piece: "knight", save: true)"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let db = dir.path().join("a.db");
    engine()
        .arg("run")
        .arg(&puzzle)
        .arg("--archive")
        .arg(&db)
        .assert()
        .code(0);
    let store = Archive::open(&db).unwrap_or_else(|e| panic!("{e}"));
    let runs = store.list(10).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(runs.len(), 1);
    let saved = store.show(runs[0].id).unwrap_or_else(|e| panic!("{e}"));
    let Some(saved) = saved else {
        panic!("run saved")
    };
    let Outcome::Found(t) = &saved.report.outcome else {
        panic!("a tour was saved")
    };
    assert_eq!(
        verify(
            &saved.puzzle.board,
            &saved.puzzle.piece,
            &saved.puzzle.goal,
            t
        ),
        Ok(())
    );
}

/// `archive show --gif` draws a saved run's tour, as `run --gif` does; a
/// run with no tour gets no file.
#[test]
fn show_draws_a_saved_tour() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let db = dir.path().join("a.db");
    let db_arg = db.to_string_lossy().into_owned();
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    for puzzle in ["puzzles/knight5x5-corner.ron", "puzzles/knight4x4.ron"] {
        engine()
            .current_dir(manifest)
            .args(["run", puzzle, "--save", "--quiet", "--archive", &db_arg])
            .assert()
            .code(predicate::in_iter([0, 1]));
    }
    let gif = dir.path().join("t.gif");
    let out = engine()
        .args(["archive", "show", "1", "--archive", &db_arg, "--cell", "20"])
        .arg("--gif")
        .arg(&gif)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The tour printed is the saved one, and it is a tour.
    let p = load(&manifest.join("puzzles/knight5x5-corner.ron"));
    let text = String::from_utf8_lossy(&out.stdout);
    let names: Vec<&str> = text
        .lines()
        .find_map(|l| l.strip_prefix("Tour: "))
        .unwrap_or_else(|| panic!("no tour in {text}"))
        .split(' ')
        .collect();
    let tour: Vec<u32> = names
        .iter()
        .map(|n| {
            (0..p.board.len() as u32)
                .find(|&s| p.board.name(s) == *n)
                .unwrap_or_else(|| panic!("no square {n}"))
        })
        .collect();
    assert_eq!(verify(&p.board, &p.piece, &p.goal, &tour), Ok(()));
    // A GIF of one frame per move (and the first position).
    let mut decoder = gif::DecodeOptions::new()
        .read_info(std::fs::File::open(&gif).unwrap_or_else(|e| panic!("{e}")))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut frames = 0;
    while decoder
        .read_next_frame()
        .unwrap_or_else(|e| panic!("{e}"))
        .is_some()
    {
        frames += 1;
    }
    assert_eq!(frames, tour.len());
    // The 4x4 run proved there is no tour: nothing to draw.
    let none = dir.path().join("none.gif");
    engine()
        .args(["archive", "show", "2", "--archive", &db_arg])
        .arg("--gif")
        .arg(&none)
        .assert()
        .success()
        .stderr(predicate::str::contains("no tour"));
    assert!(!none.exists());
}

#[test]
fn a_saved_run_keeps_its_start_squares() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let db_arg = dir.path().join("a.db").to_string_lossy().into_owned();
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = engine()
        .current_dir(manifest)
        .args(["run", "puzzles/cross39.ron", "--save", "--archive", &db_arg])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(run.status.code(), Some(0));
    let shown = engine()
        .args(["archive", "show", "1", "--archive", &db_arg])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let starts = |out: &[u8]| {
        String::from_utf8_lossy(out)
            .lines()
            .find(|l| l.starts_with("starts: "))
            .map(str::to_string)
    };
    let line = starts(&run.stdout);
    assert!(
        line.as_deref()
            .is_some_and(|l| l.contains("19 ruled out (colours: d1")),
        "{line:?}"
    );
    assert_eq!(starts(&shown.stdout), line);
}

/// `archive show` draws no search GIF, so it has no `--steps`.
#[test]
fn show_offers_no_steps() {
    engine()
        .args(["archive", "show", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("--max-frames"))
        .stdout(predicate::str::contains("--steps").not())
        // Nor a search GIF's defaults.
        .stdout(predicate::str::contains("search GIF").not())
        .stdout(predicate::str::contains("--search-gif").not());
    engine()
        .args(["archive", "show", "1", "--steps", "1..5000"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("error: --steps: unknown flag"));
    // `run` still has it, for its search GIF.
    engine()
        .args(["run", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("--steps"));
}

/// The columns of `archive list` and `archive stats` line up whatever the
/// lengths of the puzzles' names and the solvers' labels.
#[test]
fn list_and_stats_columns_line_up() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let db_arg = dir.path().join("a.db").to_string_lossy().into_owned();
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    for args in [
        &["puzzles/holed4x4.ron"][..],
        &["puzzles/knight8x8-halfturn.ron"],
        &["--board", "6x6", "--solver", "genetic"],
    ] {
        engine()
            .current_dir(manifest)
            .arg("run")
            .args(args)
            .args(["--save", "--quiet", "--archive", &db_arg])
            .assert()
            .code(0);
    }
    let out = engine()
        .args(["archive", "list", "--archive", &db_arg])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    // Where the status and the work (`35 nodes`, `1 generation`) begin.
    let column = |line: &str| -> (usize, usize) {
        let status = line.find(" found ").unwrap_or_else(|| panic!("{line}"));
        let unit = [" node", " generation"]
            .iter()
            .filter_map(|u| line.find(u))
            .min()
            .unwrap_or_else(|| panic!("{line}"));
        let work = line[..unit].rfind(' ').unwrap_or(0);
        (line[..status].chars().count(), line[..work].chars().count())
    };
    let first = column(lines[0]);
    for line in &lines {
        assert_eq!(column(line), first, "{text}");
    }
    let out = engine()
        .args(["archive", "stats", "--archive", &db_arg])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let rows: Vec<&str> = text.lines().filter(|l| l.contains('%')).collect();
    assert_eq!(rows.len(), 3, "{text}");
    let header = text.lines().next().unwrap_or_default();
    let success = header.find("success").unwrap_or_else(|| panic!("{text}")) + "success".len();
    for row in rows {
        let at = row.find('%').unwrap_or(0) + 1;
        assert_eq!(row[..at].chars().count(), success, "{text}");
    }
}

/// Wide characters (two columns each on a terminal) in a puzzle's name do
/// not push the columns of `archive list` and `archive stats` out of line:
/// they are padded by the width a terminal shows, not by characters.
#[test]
fn wide_names_keep_the_columns_in_line() {
    use unicode_width::UnicodeWidthStr;
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let db_arg = dir.path().join("a.db").to_string_lossy().into_owned();
    // Two boards, so `archive stats` has a line for each.
    for (file, name, board) in [
        ("wide.ron", "騎士の旅", "5x5"),
        ("narrow.ron", "Knight", "6x6"),
    ] {
        let path = dir.path().join(file);
        std::fs::write(
            &path,
            format!(
                "Puzzle(name: \"{name}\", board: \"{board}\", piece: \"knight\", start: \"a1\")"
            ),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        engine()
            .arg("run")
            .arg(&path)
            .args(["--save", "--quiet", "--archive", &db_arg])
            .assert()
            .code(0);
    }
    // The display column where `needle` starts in `line`.
    let column = |line: &str, needle: &str| -> usize {
        let at = line
            .find(needle)
            .unwrap_or_else(|| panic!("{needle} in {line}"));
        line[..at].width()
    };
    let out = engine()
        .args(["archive", "list", "--archive", &db_arg])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(text.contains("騎士の旅"), "{text}");
    assert_eq!(
        column(lines[0], " found "),
        column(lines[1], " found "),
        "{text}"
    );
    let out = engine()
        .args(["archive", "stats", "--archive", &db_arg])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let rows: Vec<&str> = text.lines().filter(|l| l.contains('%')).collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert_eq!(column(rows[0], "%"), column(rows[1], "%"), "{text}");
    assert_eq!(column(rows[0], "open"), column(rows[1], "open"), "{text}");
}
