//! The HTML player in a real browser: headless Chromium opens generated
//! players with the page's own tests (`src/render/html/errors.js` and
//! `tests.js`) added, its `--dump-dom` output carrying what the page showed
//! after keys, clicks on the timeline and the scrubber; here it is compared
//! with a replay of the search's trace. Without Chromium (`/usr/bin/chromium`,
//! or `$CHROMIUM`) the tests say plainly that they were skipped, except in
//! CI (`$CI` set), where `.ci/run` installs it and its absence fails.

use std::path::{Path, PathBuf};

use base64::Engine;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::cdp::{chromium, dump_dom};
use crate::util::engine;

const ERRORS_JS: &str = include_str!("../src/render/html/errors.js");
const TESTS_JS: &str = include_str!("../src/render/html/tests.js");

fn sha(text: &str) -> String {
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(Sha256::digest(text.as_bytes()))
    )
}

/// Opens the player at `page` with the tests and `plan` in `browser`;
/// what the tests saw.
fn open(browser: &Path, page: &Path, plan: Value) -> Value {
    let html = std::fs::read_to_string(page).expect("the player");
    let before = format!("window.PLAN = {plan};\n{ERRORS_JS}");
    let csp = format!("script-src {} {} ", sha(&before), sha(TESTS_JS));
    let html = html
        .replacen("script-src ", &csp, 1)
        .replacen("<title>", &format!("<script>{before}</script>\n<title>"), 1)
        .replacen(
            "</body>",
            &format!("<script>{TESTS_JS}</script>\n</body>"),
            1,
        );
    let dir = tempfile::tempdir().expect("a temporary directory");
    let tested = dir.path().join("tested.html");
    std::fs::write(&tested, html).expect("written");
    let page = format!("file://{}", tested.display());
    let out = dump_dom(browser, &page, (1200, 900), 5000);
    let dom = String::from_utf8_lossy(&out.stdout);
    let start = dom
        .rfind("<pre id=\"test-results\">")
        .unwrap_or_else(|| panic!("no results: {}", String::from_utf8_lossy(&out.stderr)));
    let rest = &dom[start + "<pre id=\"test-results\">".len()..];
    let text = &rest[..rest.find("</pre>").expect("the results end")];
    let text = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&");
    let seen: Value = serde_json::from_str(&text).expect("results in JSON");
    assert_eq!(seen["errors"], json!([]), "errors in the page");
    assert_eq!(
        seen["refused"],
        json!([]),
        "content refused by the page's policy"
    );
    assert_eq!(seen["alerts"], json!(0));
    assert_eq!(
        seen["pathsAgree"],
        json!(true),
        "paths reached out of order"
    );
    assert_eq!(seen["markersKnown"], json!(true));
    seen
}

/// The events of a full trace (`--trace`), the header and end lines left out.
fn events(trace: &Path) -> Vec<Value> {
    std::fs::read_to_string(trace)
        .expect("the trace")
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v.get("i").is_some() || v["event"] == "restart")
        .collect()
}

/// Replays events up to and including event `upto` (restarts are not
/// numbered): the path's length, the nodes and the backtracks.
fn replay(events: &[Value], upto: u64) -> (usize, u64, u64) {
    let (mut depth, mut nodes, mut backtracks) = (0usize, 0u64, 0u64);
    for e in events {
        match e["event"].as_str() {
            Some("advance") => {
                depth += 1;
                nodes += 1;
            }
            Some("retreat") => {
                depth -= 1;
                backtracks += 1;
            }
            Some("restart") => depth = 0,
            _ => {}
        }
        if e["i"].as_u64() == Some(upto) {
            break;
        }
    }
    (depth, nodes, backtracks)
}

/// A square `[x, y]` of a trace by name.
fn name(square: &Value) -> String {
    let x = square[0].as_u64().expect("x") as u8;
    let y = square[1].as_u64().expect("y");
    format!("{}{}", (b'a' + x) as char, y + 1)
}

/// Runs `engine run` with `args` in `dir`: the player and trace written.
fn player(dir: &Path, args: &[&str]) -> (PathBuf, PathBuf, Value) {
    let page = dir.join("player.html");
    let trace = dir.join("trace.jsonl");
    let out = engine()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "-q", "--format", "json"])
        .args(args)
        .arg("--html")
        .arg(&page)
        .arg("--trace")
        .arg(&trace)
        .output()
        .expect("runs");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    (page, trace, report)
}

#[test]
fn stepping_forward_and_back_shows_the_trace_replayed() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (page, trace, report) = player(dir.path(), &["docs/plain-search.ron"]);
    let p = crate::util::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/plain-search.ron"));
    crate::util::assert_verified(&p, &report);
    let events = events(&trace);
    let (forward, back) = (41u64, 13u64);
    let seen = open(
        &browser,
        &page,
        json!({ "forward": forward, "back": back, "visit": [5, 120, 333], "final": true }),
    );
    // Steps 1..500 are the search's first events one by one: step k is
    // event k - 1.
    for (got, step) in [(&seen["afterKeys"], 1 + forward - back)]
        .into_iter()
        .chain(
            seen["visits"]
                .as_array()
                .expect("visits")
                .iter()
                .zip([5, 120, 333]),
        )
    {
        let (depth, nodes, backtracks) = replay(&events, step - 1);
        assert_eq!(got["step"], json!(step));
        assert_eq!(got["depth"], json!(depth), "step {step}");
        assert_eq!(got["nodes"], json!(nodes), "step {step}");
        assert_eq!(got["backtracks"], json!(backtracks), "step {step}");
        assert!(
            got["position"]
                .as_str()
                .is_some_and(|t| t.starts_with(&format!("step {step} of "))),
            "{got}"
        );
        assert!(
            got["what"]
                .as_str()
                .is_some_and(|t| t.starts_with(&format!("{step}. "))),
            "{got}"
        );
    }
    assert_eq!(seen["hash"], json!(format!("#step={}", 1 + forward - back)));
    // Every marker clicked lands on its step; a dead end's says so.
    let clicks = seen["clicks"].as_array().expect("clicks");
    assert!(clicks.len() >= 2, "{clicks:?}");
    for c in clicks {
        assert_eq!(c["got"], c["want"], "{c}");
    }
    let dead = clicks
        .iter()
        .find(|c| c["kind"] == "dead")
        .expect("a dead end's marker");
    assert!(
        dead["what"]
            .as_str()
            .is_some_and(|t| t.contains("a dead end"))
    );
    // The last position: the tour, every one of its squares drawn visited.
    let tour = crate::util::tour_from_json(&p, &report);
    let drawn = seen["visitedDrawn"].as_array().expect("pixels");
    assert_eq!(drawn.len(), p.board.len());
    for s in 0..p.board.len() as u32 {
        assert_eq!(
            drawn[s as usize],
            json!(tour.contains(&s)),
            "{}",
            p.board.name(s)
        );
    }
    assert!(
        seen["end"]["what"]
            .as_str()
            .is_some_and(|t| t.starts_with("found"))
    );
}

#[test]
fn a_pruned_branch_names_its_square() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().expect("a temporary directory");
    // No open tour from b2 on 4x5: the kernel's rules cut branch after
    // branch, each for a reason naming squares.
    let (page, trace, _) = player(
        dir.path(),
        &["--board", "4x5", "--start", "b2", "--solver", "backtrack"],
    );
    let events = events(&trace);
    let named: Vec<&Value> = events.iter().filter(|e| e.get("at").is_some()).collect();
    assert!(named.len() >= 2, "reasons naming squares: {}", named.len());
    let steps: Vec<u64> = named
        .iter()
        .map(|e| e["i"].as_u64().expect("numbered") + 1)
        .collect();
    let seen = open(
        &browser,
        &page,
        json!({ "forward": 0, "back": 0, "visit": steps }),
    );
    for (e, got) in named.iter().zip(seen["visits"].as_array().expect("visits")) {
        let what = got["what"].as_str().expect("words");
        assert!(
            what.contains(&format!("back from {}", name(&e["square"]))),
            "{what}"
        );
        for at in e["at"].as_array().expect("squares") {
            assert!(what.contains(&name(at)), "{e}: {what}");
        }
    }
}

#[test]
fn hostile_names_open_as_text_and_run_nothing() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().expect("a temporary directory");
    for hostile in [
        "<script>alert(1)</script>",
        "</script><img src=x onerror=alert(1)>",
        "\u{2028}'\"--><!--<svg onload=alert(1)>",
    ] {
        let file = dir.path().join("hostile.ron");
        let name = serde_json::to_string(hostile).expect("quoted");
        std::fs::write(
            &file,
            format!("Puzzle(name: {name}, board: \"5x5\", piece: \"knight\", start: \"a1\")"),
        )
        .expect("written");
        let (page, _, _) = player(dir.path(), &[file.to_str().expect("a path")]);
        let html = std::fs::read_to_string(&page).expect("the player");
        assert!(!html.contains(hostile), "{hostile} written as it is");
        let seen = open(&browser, &page, json!({ "forward": 3, "back": 1 }));
        assert_eq!(seen["title"], json!(hostile));
        assert_eq!(seen["images"], json!(0));
        // The data, the player, and the two scripts of the tests.
        assert_eq!(seen["scripts"], json!(4));
    }
}

/// The figures of BENCHMARKS.md (not a test: run by hand with
/// `cargo test --release --test tests player::measure -- --ignored --nocapture`):
/// opening the player of the 24-million-node 8x8 search, and a step
/// redrawn on a 1000x1000 tour.
#[test]
#[ignore]
fn measure() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (what, args) in [
        ("js-order8x8", vec!["puzzles/js-order8x8.ron"]),
        ("knight1000", vec!["puzzles/knight1000.ron"]),
    ] {
        let page = dir.path().join(format!("{what}.html"));
        let started = std::time::Instant::now();
        let out = engine()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["run", "-q"])
            .args(&args)
            .arg("--html")
            .arg(&page)
            .output()
            .expect("runs");
        let took = started.elapsed();
        assert!(out.status.success());
        let bytes = std::fs::metadata(&page).map(|m| m.len()).unwrap_or(0);
        let seen = open(
            &browser,
            &page,
            json!({ "forward": 0, "back": 0, "timing": true }),
        );
        println!(
            "{what}: run with --html {:.2} s, {bytes} bytes; opened at {} ms; a step redrawn: {}",
            took.as_secs_f64(),
            seen["opened"],
            seen["stepMs"]
        );
    }
}

#[test]
fn a_large_board_is_drawn_square_by_square() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().expect("a temporary directory");
    // Over 4,096 squares the board is painted pixel by pixel, only the
    // squares that changed.
    let (page, trace, _) = player(
        dir.path(),
        &[
            "--board",
            "70x70",
            "--solver",
            "warnsdorff",
            "--start",
            "a1",
        ],
    );
    let events = events(&trace);
    let (forward, back) = (30u64, 12u64);
    let seen = open(
        &browser,
        &page,
        json!({ "forward": forward, "back": back, "visit": [400, 7] }),
    );
    for (got, step) in [(&seen["afterKeys"], 1 + forward - back)]
        .into_iter()
        .chain(
            seen["visits"]
                .as_array()
                .expect("visits")
                .iter()
                .zip([400, 7]),
        )
    {
        let (depth, nodes, _) = replay(&events, step - 1);
        assert_eq!(got["step"], json!(step));
        assert_eq!(got["depth"], json!(depth), "step {step}");
        assert_eq!(got["nodes"], json!(nodes), "step {step}");
    }
}
