//! The studio as a person uses it, in headless Chromium driven over the
//! DevTools protocol (`cdp`): typing a puzzle with a mistake and mending
//! it, running, pausing, stepping, rewinding, seeing the tour, downloading
//! its GIF, two searches side by side, making a puzzle and solving it,
//! saving runs and browsing the archive. Every tour the page shows goes
//! through the verifier.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::cdp::Browser;
use crate::util::{Served, engine_process, puzzle, squares};

/// A studio on a free loopback port with an archive in a folder of its
/// own; stopped with Ctrl-C when dropped.
struct Studio {
    url: String,
    dir: tempfile::TempDir,
    _served: Served,
}

impl Studio {
    fn start() -> Studio {
        let dir = tempfile::tempdir().expect("a folder");
        let archive = dir.path().join("tours.sqlite");
        let served = Served::start(&["--archive".as_ref(), archive.as_os_str()]);
        Studio {
            url: served.url.clone(),
            dir,
            _served: served,
        }
    }
}

/// Replaces the editor's text as a person would: select all, type.
fn type_puzzle(b: &mut Browser, text: &str) {
    b.eval("(() => { const t = document.getElementById('text'); t.focus(); t.select(); })()");
    b.type_text(text);
}

/// The textbook search from d4 of 8x8: minutes of backtracking.
const LONG: &str = "Puzzle(\n    name: \"Long\",\n    board: \"8x8\",\n    piece: \"knight\",\n    start: \"d4\",\n    solver: Backtrack(order: Given),\n)\n";

#[test]
fn a_puzzle_typed_mended_run_paused_stepped_rewound_and_its_gif_downloaded() {
    let Some(mut b) = Browser::start(1280, 1000) else {
        return;
    };
    let s = Studio::start();
    b.open(&s.url);
    b.wait("window.engineStudio && window.engineStudio.checks > 0", 20);
    // A mistake: flagged under its characters with the command line's words.
    let bad = "Puzzle(\n    name: \"Mine\",\n    board: \"5x5\",\n    piece: \"knigt\",\n    start: \"a1\",\n)\n";
    type_puzzle(&mut b, bad);
    b.wait(
        "document.getElementById('status').textContent.includes('unknown piece')",
        20,
    );
    let status = b.eval("document.getElementById('status').textContent");
    assert!(
        status
            .as_str()
            .is_some_and(|t| t.starts_with("error: puzzle.ron:4:13: unknown piece `knigt`")),
        "{status}"
    );
    assert_eq!(
        b.eval("document.querySelector('#backdrop mark').textContent"),
        json!("knigt")
    );
    assert_eq!(
        b.eval("document.getElementById('flag').hidden"),
        json!(false)
    );
    let flag = b.eval("document.getElementById('flag').textContent");
    assert!(
        flag.as_str()
            .is_some_and(|f| f.starts_with("unknown piece `knigt`")),
        "{flag}"
    );
    // Mended where it is wrong: the word selected and typed again.
    b.eval("(() => { const t = document.getElementById('text'); const at = t.value.indexOf('knigt'); t.focus(); t.setSelectionRange(at, at + 5); })()");
    b.type_text("knight");
    b.wait(
        "document.getElementById('status').textContent === 'The puzzle is valid.'",
        20,
    );
    assert_eq!(
        b.eval("document.querySelector('#backdrop mark')"),
        Value::Null
    );
    assert_eq!(
        b.eval("document.getElementById('flag').hidden"),
        json!(true)
    );
    assert!(
        b.eval("document.getElementById('check').textContent")
            .as_str()
            .is_some_and(|t| t.contains("Piece: knight")),
    );

    // A long search: paused, stepped one event at a time, rewound.
    type_puzzle(&mut b, LONG);
    b.wait(
        "document.getElementById('status').textContent === 'The puzzle is valid.'",
        20,
    );
    b.click("#run");
    b.wait("window.engineStudio.events > 2000", 30);
    b.click("#pause");
    b.wait("!document.getElementById('resume').disabled", 10);
    // Held: the events stop growing.
    std::thread::sleep(Duration::from_millis(700));
    let held = b.eval("window.engineStudio.events");
    std::thread::sleep(Duration::from_millis(700));
    assert_eq!(
        b.eval("window.engineStudio.events"),
        held,
        "a paused search went on"
    );
    let held = held.as_u64().expect("events");
    for k in 1..=3 {
        b.click("#step");
        b.wait(&format!("window.engineStudio.events === {}", held + k), 10);
    }
    // Rewound with the player's controls: back, then to the start.
    let position = || "document.getElementById('position').textContent";
    let at_end = b.eval(position());
    b.click("#back");
    let back = b.eval(position());
    assert_ne!(back, at_end, "back did not move the player");
    b.click("#start");
    assert!(
        b.eval(position())
            .as_str()
            .is_some_and(|p| p.starts_with("step 1 of ")),
        "{}",
        b.eval(position())
    );
    // Still paused while it is looked at; then stopped.
    b.click("#stop");
    b.wait("window.engineStudio.run === 'done'", 20);
    let report = b.eval("window.engineStudio.report");
    assert_eq!(report["status"], json!("stopped"), "{report}");

    // A search that finds its tour: the board shows it, the report names
    // it, and its GIF downloads.
    type_puzzle(
        &mut b,
        "Puzzle(board: \"5x5\", piece: \"knight\", start: \"c3\")\n",
    );
    b.wait(
        "document.getElementById('status').textContent === 'The puzzle is valid.'",
        20,
    );
    b.click("#run");
    b.wait("window.engineStudio.run === 'done'", 30);
    let report = b.eval("window.engineStudio.report");
    assert_eq!(report["status"], json!("found"), "{report}");
    let p = puzzle("Puzzle(board: \"5x5\", piece: \"knight\", start: \"c3\")");
    let tour = squares(&p, &report["squares"]);
    engine::verify::verify(&p.board, &p.piece, &p.goal, &tour)
        .unwrap_or_else(|e| panic!("the page's tour fails the verifier: {e}"));
    let position = b.eval(position());
    let (at, of) = position
        .as_str()
        .and_then(|p| p.strip_prefix("step "))
        .and_then(|r| r.split_once(" of "))
        .expect("the player's position");
    assert_eq!(at, of, "the player is not at the tour");
    assert!(
        b.eval("document.querySelector('#panels .what').textContent")
            .as_str()
            .is_some_and(|t| t.contains("found: a tour of 25 squares"))
    );
    let downloads = tempfile::tempdir().expect("a folder");
    b.downloads_to(downloads.path());
    b.click("#downloads a[href$='tour.gif']");
    let began = Instant::now();
    let gif = loop {
        let done: Vec<_> = std::fs::read_dir(downloads.path())
            .expect("the folder")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "gif"))
            .collect();
        if let Some(path) = done.first() {
            break path.clone();
        }
        assert!(
            began.elapsed() < Duration::from_secs(30),
            "no GIF downloaded"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    let mut decoder = gif::DecodeOptions::new()
        .read_info(std::fs::File::open(&gif).expect("the GIF"))
        .expect("a GIF");
    let (w, h) = (decoder.width(), decoder.height());
    let mut frames = 0;
    while decoder.read_next_frame().expect("a frame").is_some() {
        frames += 1;
    }
    assert!(
        w > 100 && h > 100 && frames >= tour.len(),
        "{w}x{h}, {frames} frames"
    );
    b.assert_clean();
}

#[test]
fn two_solvers_side_by_side_then_saved_and_replayed_from_the_archive() {
    let Some(mut b) = Browser::start(1280, 1000) else {
        return;
    };
    let s = Studio::start();
    let text = include_str!("../puzzles/holed4x4.ron");
    b.open(&format!("{}#open=holed4x4.ron", s.url));
    b.wait(
        "document.getElementById('status').textContent.startsWith('The puzzle is valid')",
        20,
    );
    // Nothing saved yet: the archive says so.
    assert!(
        b.wait("document.getElementById('shelf-note').textContent", 10)
            .as_str()
            .is_some_and(|t| t.starts_with("No runs saved in"))
    );
    b.eval("document.getElementById('solver').value = 'backtrack'");
    b.eval("document.getElementById('solver2').value = 'warnsdorff'");
    b.click("#run");
    b.wait("window.engineStudio.run === 'done'", 30);
    assert_eq!(
        b.eval("document.querySelectorAll('#panels .panel').length"),
        json!(2)
    );
    let solvers = b
        .eval("Array.from(document.querySelectorAll('#panels .solver')).map((h) => h.textContent)");
    assert!(
        solvers[0]
            .as_str()
            .is_some_and(|t| t.starts_with("backtrack"))
            && solvers[1]
                .as_str()
                .is_some_and(|t| t.starts_with("warnsdorff")),
        "{solvers}"
    );
    let p = puzzle(text);
    let runs = b.eval("window.engineStudio.runs.map((j) => j.report)");
    for report in runs.as_array().expect("two reports") {
        assert_eq!(report["status"], json!("found"), "{report}");
        let tour = squares(&p, &report["squares"]);
        engine::verify::verify(&p.board, &p.piece, &p.goal, &tour)
            .unwrap_or_else(|e| panic!("the page's tour fails the verifier: {e}"));
    }
    // Both saved, then read back from the archive.
    let saves = b.eval("document.querySelectorAll('#downloads button.save').length");
    assert_eq!(saves, json!(2));
    b.click("#downloads p:nth-child(1) button.save");
    b.wait("window.engineStudio.saved.length === 1", 20);
    b.click("#downloads p:nth-child(2) button.save");
    b.wait("window.engineStudio.saved.length === 2", 20);
    b.wait(
        "document.querySelectorAll('#shelf-runs tr').length === 3",
        20,
    );
    let rows = b.eval("Array.from(document.querySelectorAll('#shelf-stats tr')).slice(1).map((r) => Array.from(r.cells).map((c) => c.textContent))");
    let kinds: Vec<&str> = rows
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(|r| r[2].as_str())
        .collect();
    assert_eq!(kinds, ["backtrack", "warnsdorff"], "{rows}");
    // The same as `engine archive list` says of the archive.
    let cli = engine_process()
        .args(["archive", "list", "--format", "json", "--archive"])
        .arg(s.dir.path().join("tours.sqlite"))
        .output()
        .expect("runs");
    let listed: Value = serde_json::from_slice(&cli.stdout).expect("JSON");
    let shelf = b.eval("window.engineStudio.shelf.runs");
    assert_eq!(shelf, listed["runs"]);
    // A run replayed: the player walks its tour to the end.
    b.click("#shelf-runs button[data-run='1']");
    b.wait(
        "window.engineStudio.shown && window.engineStudio.shown.id === 1",
        20,
    );
    let shown = b.eval("window.engineStudio.shown");
    let tour = squares(&p, &shown["squares"]);
    engine::verify::verify(&p.board, &p.piece, &p.goal, &tour)
        .unwrap_or_else(|e| panic!("the archive's tour fails the verifier: {e}"));
    assert_eq!(
        b.eval("document.getElementById('position').textContent"),
        json!(format!("step {} of {}", tour.len() + 1, tour.len() + 1))
    );
    assert!(
        b.eval("document.getElementById('shelf-show').textContent")
            .as_str()
            .is_some_and(
                |t| t.contains("Found an open tour of 11 squares.") && t.contains("Saved ")
            )
    );
    // The page as it looks, the whole of it, for anyone who wants to see
    // it (STUDIO_SHOT=FILE keeps it).
    let shot = std::env::var_os("STUDIO_SHOT")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| s.dir.path().join("studio.png"));
    b.screenshot(&shot);
    let png = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&shot).expect("the screenshot"),
    ))
    .read_info()
    .expect("a PNG");
    assert_eq!(png.info().width, 1280);
    assert!(png.info().height >= 1000);
    b.assert_clean();
}

#[test]
fn a_puzzle_made_in_the_form_is_solved_in_the_editor() {
    let Some(mut b) = Browser::start(1280, 1000) else {
        return;
    };
    let s = Studio::start();
    b.open(&s.url);
    b.wait("window.engineStudio && window.engineStudio.checks > 0", 20);
    b.eval("document.getElementById('make-board').value = '6x6'");
    b.eval("document.getElementById('make-seed').value = '3'");
    b.click("#make-go");
    b.wait("window.engineStudio.made", 90);
    let made = b.eval("window.engineStudio.made");
    assert!(made["text"].is_string(), "{made}");
    // Its solution is a tour of the puzzle made, through every clue.
    let p = puzzle(made["text"].as_str().expect("its file"));
    let solution = squares(&p, &made["solution"]);
    engine::verify::verify(&p.board, &p.piece, &p.goal, &solution)
        .unwrap_or_else(|e| panic!("the made puzzle's solution fails the verifier: {e}"));
    assert!(!p.constraints.clues.is_empty());
    for &(step, square) in &p.constraints.clues {
        assert_eq!(solution[step as usize - 1], square);
    }
    // Its pictures drawn, its proof stated.
    b.wait("document.getElementById('made-puzzle').naturalWidth > 0 && document.getElementById('made-solution').naturalWidth > 0", 10);
    assert!(
        b.eval("document.getElementById('made-report').textContent")
            .as_str()
            .is_some_and(|t| t.contains("one solution, proved by"))
    );
    // Opened in the editor and solved there.
    b.click("#made-open");
    b.wait(
        "document.getElementById('status').textContent.startsWith('The puzzle is valid')",
        20,
    );
    assert_eq!(
        b.eval("document.getElementById('text').value"),
        made["text"]
    );
    b.click("#run");
    b.wait("window.engineStudio.run === 'done'", 60);
    let report = b.eval("window.engineStudio.report");
    assert_eq!(report["status"], json!("found"), "{report}");
    let tour = squares(&p, &report["squares"]);
    engine::verify::verify(&p.board, &p.piece, &p.goal, &tour)
        .unwrap_or_else(|e| panic!("the solved tour fails the verifier: {e}"));
    assert_eq!(tour, solution, "a unique puzzle solved another way");
    // A new puzzle from fields lands in the editor, checked.
    b.click("#new-puzzle summary");
    b.eval("document.getElementById('new-board').value = '3x4'");
    b.eval("document.getElementById('new-tour').value = 'Closed'");
    b.click("#new-write");
    b.wait(
        "document.getElementById('status').textContent.includes('proof')",
        20,
    );
    let text = b.eval("document.getElementById('text').value");
    let p = puzzle(text.as_str().expect("the editor's text"));
    assert!(p.goal.closed && p.board.len() == 12);
    b.assert_clean();
}
