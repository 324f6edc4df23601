//! `engine serve`, the studio, as a browser and a hostile client talk to
//! it: a server started on a free loopback port, spoken to in plain HTTP
//! over a socket. Every tour it streams goes through the verifier; after
//! every refusal the server must still answer.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::util::{Served, ctrl_c, engine_process, puzzle, squares};

/// A running studio: stopped with Ctrl-C when dropped; spoken to as a
/// [`Client`].
struct Studio {
    served: Served,
    client: Client,
}

/// A client of a studio at `addr` (`127.0.0.1:PORT`).
struct Client {
    addr: String,
}

impl std::ops::Deref for Studio {
    type Target = Client;
    fn deref(&self) -> &Client {
        &self.client
    }
}

impl Studio {
    fn start(args: &[&str]) -> Studio {
        let served = Served::start(args);
        let addr = served.addr().to_string();
        Studio {
            served,
            client: Client { addr },
        }
    }
}

impl Client {
    /// Sends `raw` (a whole request) and reads the whole answer.
    fn raw(&self, raw: &[u8]) -> (u16, String, String) {
        let mut s = TcpStream::connect(&self.addr).expect("connects");
        s.set_read_timeout(Some(Duration::from_secs(30))).ok();
        s.write_all(raw).expect("sent");
        let mut answer = Vec::new();
        let _ = s.read_to_end(&mut answer);
        let split = answer
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .map_or(answer.len(), |i| i + 4);
        let head = String::from_utf8_lossy(&answer[..split]).into_owned();
        let mut body = answer[split..].to_vec();
        // A large answer comes in chunks.
        if head.contains("Transfer-Encoding: chunked") {
            body = dechunk(&body);
        }
        let body = String::from_utf8_lossy(&body).into_owned();
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {head:?}"));
        (status, head, body)
    }

    fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> (u16, String, String) {
        let mut raw = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n",
            self.addr
        );
        for (k, v) in headers {
            raw.push_str(&format!("{k}: {v}\r\n"));
        }
        raw.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
        self.raw(raw.as_bytes())
    }

    fn get(&self, path: &str) -> (u16, String) {
        let (status, _, body) = self.request("GET", path, &[], "");
        (status, body)
    }

    fn post(&self, path: &str, body: &str) -> (u16, Value) {
        let (status, _, body) = self.request("POST", path, &[], body);
        (
            status,
            serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}")),
        )
    }

    /// The server still answers.
    fn alive(&self) {
        let (status, body) = self.get("/api/puzzles");
        assert_eq!(status, 200, "{body}");
    }

    /// Starts a run of `text`; its id.
    fn run(&self, text: &str, solver: Option<&str>) -> u64 {
        let ask = json!({ "text": text, "name": "p.ron", "solver": solver }).to_string();
        let (status, v) = self.post("/api/runs", &ask);
        assert_eq!(status, 201, "{v}");
        v["id"].as_u64().expect("an id")
    }

    /// Opens run `id`'s stream.
    fn events(&self, id: u64) -> Events {
        let mut s = TcpStream::connect(&self.addr).expect("connects");
        s.set_read_timeout(Some(Duration::from_secs(60))).ok();
        write!(
            s,
            "GET /api/runs/{id}/events HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
            self.addr
        )
        .expect("sent");
        let mut r = BufReader::new(s);
        let mut line = String::new();
        r.read_line(&mut line).expect("a status line");
        assert!(line.contains(" 200 "), "{line}");
        loop {
            line.clear();
            r.read_line(&mut line).expect("a header");
            if line.trim().is_empty() {
                break;
            }
        }
        Events { r }
    }
}

/// The studio's slots: one search per core.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A run's stream of Server-Sent Events.
struct Events {
    r: BufReader<TcpStream>,
}

impl Events {
    /// The next event's name and data; None at the stream's end.
    fn next(&mut self) -> Option<(String, String)> {
        let (mut name, mut data) = (String::new(), String::new());
        let mut line = String::new();
        loop {
            line.clear();
            if self.r.read_line(&mut line).ok()? == 0 {
                return None;
            }
            let l = line.trim_end_matches(['\r', '\n']);
            if l.is_empty() {
                if !name.is_empty() {
                    return Some((name, data));
                }
                continue;
            }
            if let Some(v) = l.strip_prefix("event: ") {
                name = v.to_string();
            } else if let Some(v) = l.strip_prefix("data: ") {
                data = v.to_string();
            }
        }
    }

    /// The next event if one comes within `wait` (the stream's heartbeat
    /// wakes the reading at least once a second); None otherwise.
    fn next_within(&mut self, wait: Duration) -> Option<(String, String)> {
        let began = Instant::now();
        let (mut name, mut data) = (String::new(), String::new());
        let mut line = String::new();
        while began.elapsed() < wait {
            line.clear();
            if self.r.read_line(&mut line).ok()? == 0 {
                return None;
            }
            let l = line.trim_end_matches(['\r', '\n']);
            if l.is_empty() && !name.is_empty() {
                return Some((name, data));
            }
            if let Some(v) = l.strip_prefix("event: ") {
                name = v.to_string();
            } else if let Some(v) = l.strip_prefix("data: ") {
                data = v.to_string();
            }
        }
        None
    }

    /// Every event up to `done`.
    fn all(mut self) -> Vec<(String, Value)> {
        let mut seen = Vec::new();
        while let Some((name, data)) = self.next() {
            let v: Value = serde_json::from_str(&data).unwrap_or(Value::Null);
            let done = name == "done";
            seen.push((name, v));
            if done {
                break;
            }
        }
        seen
    }
}

/// The body of a chunked answer, its chunks joined.
fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = raw.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(String::from_utf8_lossy(&raw[..eol]).trim(), 16)
            .unwrap_or_else(|e| panic!("a chunk's size: {e}"));
        if size == 0 {
            break;
        }
        out.extend_from_slice(&raw[eol + 2..eol + 2 + size]);
        raw = &raw[eol + 2 + size + 2..];
    }
    out
}

/// The samples' paths replayed as the player does.
fn replay(samples: &[Value]) -> Vec<u64> {
    let mut path: Vec<u64> = Vec::new();
    for s in samples {
        path.truncate(s["p"].as_u64().expect("p") as usize);
        path.extend(
            s["t"]
                .as_array()
                .expect("t")
                .iter()
                .map(|v| v.as_u64().unwrap_or(0)),
        );
    }
    path
}

const HOLED: &str = include_str!("../puzzles/holed4x4.ron");

#[test]
fn the_page_carries_its_policy_and_the_players_code() {
    let s = Studio::start(&[]);
    let (status, head, page) = s.request("GET", "/", &[], "");
    assert_eq!(status, 200);
    assert!(
        head.contains("Content-Security-Policy: default-src 'none'"),
        "{head}"
    );
    assert!(page.contains("window.EnginePlayer") && page.contains("id=\"text\""));
    // The puzzles of --puzzles (the repository's, by default) are listed.
    let (_, list) = s.get("/api/puzzles");
    let list: Value = serde_json::from_str(&list).expect("JSON");
    assert!(
        list["puzzles"]
            .as_array()
            .expect("a list")
            .contains(&json!("holed4x4.ron"))
    );
    let (status, body) = s.get("/api/puzzles/holed4x4.ron");
    assert_eq!(status, 200);
    let v: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(v["text"], json!(HOLED));
}

#[test]
fn a_bad_puzzle_is_answered_with_the_command_lines_message() {
    let s = Studio::start(&[]);
    let text = "Puzzle(\n    board: \"5x5\",\n    piece: \"knigt\",\n)\n";
    let (status, v) = s.post("/api/check?name=bad.ron", text);
    assert_eq!(status, 200);
    let e = &v["error"];
    assert_eq!(
        (e["line"].as_u64(), e["col"].as_u64()),
        (Some(3), Some(13)),
        "{v}"
    );
    // The same words and caret as `engine check` prints.
    let dir = tempfile::tempdir().expect("a folder");
    let file = dir.path().join("bad.ron");
    std::fs::write(&file, text).expect("written");
    let cli = engine_process()
        .current_dir(dir.path())
        .args(["check", "bad.ron"])
        .output()
        .expect("runs");
    assert_eq!(cli.status.code(), Some(2));
    let printed = String::from_utf8_lossy(&cli.stderr);
    assert_eq!(
        e["text"].as_str().map(str::trim_end),
        Some(printed.trim_end())
    );
    // A good one: what `engine check` prints.
    let (_, v) = s.post("/api/check?name=holed4x4.ron", HOLED);
    let cli = engine_process()
        .args(["check", "puzzles/holed4x4.ron"])
        .output()
        .expect("runs");
    assert!(cli.status.success());
    assert_eq!(
        v["report"].as_str(),
        Some(&*String::from_utf8_lossy(&cli.stdout))
    );
    s.alive();
}

#[test]
fn a_run_streams_its_search_and_ends_with_a_verified_tour() {
    let s = Studio::start(&[]);
    for solver in [None, Some("warnsdorff"), Some("genetic")] {
        let text = if solver == Some("genetic") {
            "Puzzle(board: \"5x5\", piece: \"knight\", tour: Open, start: \"a1\", seed: 3)"
        } else {
            HOLED
        };
        let id = s.run(text, solver);
        let seen = s.events(id).all();
        let names: Vec<&str> = seen.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names.first(), Some(&"start"), "{names:?}");
        assert_eq!(
            &names[names.len() - 3..],
            ["report", "player", "done"],
            "{names:?}"
        );
        let samples: Vec<Value> = seen
            .iter()
            .filter(|(n, _)| n == "samples")
            .flat_map(|(_, v)| v["samples"].as_array().cloned().unwrap_or_default())
            .collect();
        assert!(!samples.is_empty());
        let report = &seen[names.len() - 3].1;
        assert_eq!(report["status"], json!("found"), "{report}");
        let tour = verified_tour(text, report);
        // A depth-first search's last sample is the tour itself.
        if solver.is_none() {
            let replayed: Vec<u32> = replay(&samples).iter().map(|&s| s as u32).collect();
            assert_eq!(replayed, tour);
        }
        // Its files, made in memory: each what its name says.
        let files: Vec<String> = report["files"]
            .as_array()
            .expect("the files")
            .iter()
            .filter_map(|f| f.as_str().map(String::from))
            .collect();
        assert_eq!(files.len(), 5, "{files:?}");
        for f in &files {
            let (status, head, body) = s.request("GET", f, &[], "");
            assert_eq!(status, 200, "{f}: {body}");
            assert!(head.contains("Content-Disposition: attachment"), "{head}");
            let start = match f.rsplit('/').next().unwrap_or_default() {
                "tour.gif" => "GIF89a",
                "tour.png" => "\u{fffd}PNG",
                "tour.svg" => "<svg",
                "player.html" => "<!DOCTYPE html>",
                _ => "{",
            };
            assert!(
                body.starts_with(start),
                "{f}: {}",
                body.chars().take(40).collect::<String>()
            );
        }
    }
    s.alive();
}

/// A puzzle whose search runs for minutes: the textbook search in the
/// knight's written order from d4 of 8x8.
const LONG: &str =
    "Puzzle(board: \"8x8\", piece: \"knight\", start: \"d4\", solver: Backtrack(order: Given))";

#[test]
fn pause_step_and_stop_steer_a_running_search() {
    let s = Studio::start(&[]);
    let id = s.run(LONG, None);
    let mut ev = s.events(id);
    // Wait for samples past the step window, then pause.
    let mut events = 0;
    while events < 1000 {
        let (name, data) = ev.next().expect("the stream goes on");
        if name == "samples" {
            let v: Value = serde_json::from_str(&data).expect("JSON");
            events = v["events"].as_u64().unwrap_or(0);
        }
    }
    let (status, _) = s.post(&format!("/api/runs/{id}/pause"), "");
    assert_eq!(status, 200);
    // Held: once the samples stop coming, each step lets exactly one more
    // event through.
    let events_of = |data: &str| -> u64 {
        let v: Value = serde_json::from_str(data).expect("JSON");
        v["events"].as_u64().unwrap_or(0)
    };
    let mut last = 0;
    let mut paused = false;
    while let Some((name, data)) = ev.next_within(Duration::from_millis(1500)) {
        match name.as_str() {
            "samples" => last = events_of(&data),
            "paused" => paused = true,
            _ => {}
        }
    }
    assert!(paused && last > 0);
    let mut steps_seen = Vec::new();
    for _ in 0..3 {
        s.post(&format!("/api/runs/{id}/step"), "");
        let mut stepped = Vec::new();
        while let Some((name, data)) = ev.next_within(Duration::from_millis(700)) {
            if name == "samples" {
                stepped.push(events_of(&data) - last);
                last = events_of(&data);
            }
        }
        steps_seen.push(stepped);
    }
    assert_eq!(steps_seen, [[1], [1], [1]]);
    s.post(&format!("/api/runs/{id}/stop"), "");
    let seen = ev.all();
    let report = seen
        .iter()
        .find(|(n, _)| n == "report")
        .map(|(_, v)| v.clone())
        .expect("a report");
    assert_eq!(report["status"], json!("stopped"), "{report}");
    s.alive();
}

#[test]
fn a_page_that_goes_away_stops_its_search_and_frees_its_slot() {
    // One slot per core: as many long searches as cores, each dropped by
    // its page; a short one after them must still run.
    let s = Studio::start(&["--time-limit", "600"]);
    for _ in 0..cores() {
        let id = s.run(LONG, None);
        let mut ev = s.events(id);
        while ev.next().is_some_and(|(n, _)| n != "samples") {}
        drop(ev);
    }
    holed_is_solved_within(&s, Duration::from_secs(30));
}

/// Runs the small holed puzzle to its report, which must be its tour,
/// within `wait`.
/// The tour of a report the studio streamed for `text`, checked by the
/// verifier.
fn verified_tour(text: &str, report: &Value) -> Vec<u32> {
    let p = puzzle(text);
    let tour: Vec<u32> = report["tour"]
        .as_array()
        .unwrap_or_else(|| panic!("no tour in {report}"))
        .iter()
        .map(|v| v.as_u64().unwrap_or(u64::MAX) as u32)
        .collect();
    engine::verify::verify(&p.board, &p.piece, &p.goal, &tour)
        .unwrap_or_else(|e| panic!("the studio's tour fails the verifier: {e}"));
    tour
}

/// Whether a stream for `text` reports a tour found, the tour checked by
/// the verifier.
fn found_and_verified(text: &str, seen: &[(String, Value)]) -> bool {
    seen.iter()
        .find(|(n, v)| n == "report" && v["status"] == json!("found"))
        .map(|(_, report)| verified_tour(text, report))
        .is_some()
}

fn holed_is_solved_within(s: &Studio, wait: Duration) {
    let began = Instant::now();
    let id = s.run(HOLED, None);
    let seen = s.events(id).all();
    assert!(found_and_verified(HOLED, &seen), "{seen:?}");
    assert!(
        began.elapsed() < wait,
        "the search waited {:?}",
        began.elapsed()
    );
}

#[test]
fn searches_past_the_cores_queue_with_their_place() {
    let s = Studio::start(&["--time-limit", "2"]);
    let mut streams = Vec::new();
    for _ in 0..cores() {
        let id = s.run(LONG, None);
        let mut ev = s.events(id);
        while ev.next().is_some_and(|(n, _)| n != "start") {}
        streams.push(ev);
    }
    let id = s.run(HOLED, None);
    let seen = s.events(id).all();
    assert_eq!(
        seen.first().map(|(n, v)| (n.as_str(), v["place"].clone())),
        Some(("queue", json!(1)))
    );
    assert!(found_and_verified(HOLED, &seen), "{seen:?}");
    // The long ones stopped at the time limit.
    for ev in streams {
        let seen = ev.all();
        let report = seen.iter().find(|(n, _)| n == "report").expect("a report");
        assert_eq!(report.1["status"], json!("gave_up"), "{}", report.1);
    }
}

#[test]
fn hostile_requests_are_refused_and_the_server_goes_on() {
    let s = Studio::start(&[]);
    // Another name for this address (DNS rebinding).
    let (status, _, body) =
        s.raw(b"GET / HTTP/1.1\r\nHost: evil.example:80\r\nConnection: close\r\n\r\n");
    assert_eq!(status, 421, "{body}");
    s.alive();
    // A write from another site.
    let (status, _, body) = s.request(
        "POST",
        "/api/check",
        &[("Origin", "http://evil.example")],
        HOLED,
    );
    assert_eq!(status, 403, "{body}");
    let (status, _, _) = s.request(
        "POST",
        "/api/check",
        &[("Sec-Fetch-Site", "cross-site")],
        HOLED,
    );
    assert_eq!(status, 403);
    s.alive();
    // A body over a puzzle file's size, announced or not.
    let (status, _, body) = s.raw(
        format!("POST /api/check HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Length: 999999999\r\n\r\nx", s.addr).as_bytes(),
    );
    assert_eq!(status, 413, "{body}");
    s.alive();
    // Paths out of the folder.
    for path in [
        "/api/puzzles/..%2FCargo.toml",
        "/api/puzzles/%2Fetc%2Fpasswd",
        "/api/puzzles/..",
        "/api/puzzles/.hidden.ron",
        "/../Cargo.toml",
    ] {
        let (status, body) = s.get(path);
        assert!((400..500).contains(&status), "{path}: {status} {body}");
        assert!(!body.contains("[package]"), "{path}");
    }
    s.alive();
    // Malformed JSON, an unknown solver, unknown runs and actions.
    for body in ["{", "[]", "{\"text\": 3}", "{\"text\": \"\", \"extra\": 1}"] {
        let (status, v) = s.post("/api/runs", body);
        assert_eq!(status, 400, "{body}: {v}");
        assert!(v["error"].is_string() || v["error"].is_object(), "{v}");
    }
    let ask = json!({ "text": HOLED, "solver": "psychic" }).to_string();
    let (status, v) = s.post("/api/runs", &ask);
    assert_eq!(status, 400, "{v}");
    assert_eq!(s.get("/api/runs/999/events").0, 404);
    assert_eq!(s.post("/api/runs/999/pause", "").0, 404);
    assert_eq!(s.get("/api/runs/x/events").0, 404);
    // Not UTF-8, and garbage for a request line.
    let (status, _, _) = s.request("POST", "/api/check", &[], "\u{0}");
    assert_eq!(status, 200);
    let mut raw = format!(
        "POST /api/check HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Length: 2\r\n\r\n",
        s.addr
    )
    .into_bytes();
    raw.extend([0xff, 0xfe]);
    assert_eq!(s.raw(&raw).0, 400);
    let mut sock = TcpStream::connect(&s.addr).expect("connects");
    let _ = sock.write_all(b"\x16\x03\x01 not http at all\r\n\r\n");
    drop(sock);
    s.alive();
    // A hostile name is text in the JSON, never markup the page runs.
    let (_, v) = s.post(
        "/api/check",
        "Puzzle(name: \"</script><script>alert(1)</script>\", board: \"5x5\", piece: \"knight\")",
    );
    assert!(
        v["report"]
            .as_str()
            .is_some_and(|r| r.contains("</script><script>"))
    );
    s.alive();
}

#[test]
fn ctrl_c_stops_the_server_and_its_searches() {
    let s = Studio::start(&[]);
    let id = s.run(LONG, None);
    let mut ev = s.events(id);
    while ev.next().is_some_and(|(n, _)| n != "samples") {}
    let mut s = s;
    ctrl_c(&s.served.child);
    let began = Instant::now();
    let status = loop {
        if let Ok(Some(status)) = s.served.child.try_wait() {
            break status;
        }
        assert!(
            began.elapsed() < Duration::from_secs(10),
            "the server did not stop"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success());
    let seen = ev.all();
    assert!(
        seen.iter()
            .any(|(n, v)| n == "report" && v["status"] == json!("stopped")),
        "{seen:?}"
    );
}

#[test]
fn a_bind_off_the_loopback_is_warned_about() {
    let mut child = engine_process()
        .args(["serve", "--port", "0", "--bind", "0.0.0.0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut line = String::new();
    BufReader::new(child.stdout.as_mut().expect("out"))
        .read_line(&mut line)
        .expect("a line");
    ctrl_c(&child);
    let out = child.wait_with_output().expect("ends");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("warning: serving on 0.0.0.0"), "{err}");
}

/// What headless Chromium shows of the studio at `url` once it settled
/// (`--dump-dom`); None, after saying why, without Chromium.
fn browse(url: &str) -> Option<String> {
    let browser = crate::cdp::chromium()?;
    let out = crate::cdp::dump_dom(&browser, url, (1280, 900), 10_000);
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The text of the element with id `id` in a dumped page.
fn element_text(dom: &str, id: &str) -> String {
    let at = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id}"));
    let rest = &dom[at..];
    let start = rest.find('>').map_or(0, |i| i + 1);
    let end = rest.find("</").unwrap_or(rest.len());
    rest[start..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

#[test]
fn in_a_browser_the_editor_flags_a_mistake_and_a_run_draws_its_tour() {
    let s = Studio::start(&[]);
    let bad = "Puzzle(\n    board: \"5x5\",\n    piece: \"knigt\",\n)\n";
    let encoded: String = bad
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect();
    let Some(dom) = browse(&format!("http://{}/#text={encoded}", s.addr)) else {
        return;
    };
    // The command line's words and caret under the editor, the offending
    // characters marked in it and the message just under them.
    let status = element_text(&dom, "status");
    assert!(
        status.starts_with("error: puzzle.ron:3:13: unknown piece `knigt`"),
        "{status}"
    );
    assert!(status.contains("^^^^^"), "{status}");
    assert!(dom.contains("<mark>knigt</mark>"), "no mark in the editor");
    assert!(element_text(&dom, "flag").starts_with("unknown piece `knigt`"));

    let Some(dom) = browse(&format!("http://{}/#open=holed4x4.ron&run", s.addr)) else {
        return;
    };
    // The report under the board, its tour through the verifier, and the
    // player at the search's end showing it.
    let report = element_text(&dom, "report");
    assert!(
        report.contains("Found an open tour of 11 squares."),
        "{report}"
    );
    let p = puzzle(HOLED);
    let names: Vec<&str> = report
        .lines()
        .find_map(|l| l.strip_prefix("Tour: "))
        .expect("the tour's squares")
        .split(' ')
        .collect();
    let tour: Vec<u32> = names
        .iter()
        .map(|n| {
            (0..p.board.len() as u32)
                .find(|&s| p.board.name(s) == *n)
                .unwrap_or_else(|| panic!("{n} is no square"))
        })
        .collect();
    engine::verify::verify(&p.board, &p.piece, &p.goal, &tour)
        .unwrap_or_else(|e| panic!("the page's tour fails the verifier: {e}"));
    let position = element_text(&dom, "position");
    let (at, of) = position
        .strip_prefix("step ")
        .and_then(|r| r.split_once(" of "))
        .expect("the player's position");
    assert_eq!(at, of, "the player is not at the search's end: {position}");
    assert!(dom.contains("found: a tour of 11 squares"));
    s.alive();
}

/// The server's threads that answer requests (named `request`), read from
/// /proc: how many of its handlers are busy.
fn handlers_busy(s: &Studio) -> usize {
    let tasks = format!("/proc/{}/task", s.served.child.id());
    std::fs::read_dir(tasks)
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|t| {
                    std::fs::read_to_string(t.path().join("comm"))
                        .is_ok_and(|c| c.trim() == "request")
                })
                .count()
        })
        .unwrap_or(0)
}

/// Waits up to `seconds` for no handler to be busy.
fn handlers_free(s: &Studio, seconds: u64) -> bool {
    let began = Instant::now();
    while began.elapsed() < Duration::from_secs(seconds) {
        if handlers_busy(s) == 0 {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

/// A connection whose receiving buffer is as small as the system allows,
/// so that a server writing to it while it reads nothing is held at once.
fn narrow_connection(addr: &str) -> TcpStream {
    use rustix::net::{AddressFamily, SocketType, connect, socket, sockopt};
    let addr: std::net::SocketAddr = addr.parse().expect("an address");
    let fd = socket(AddressFamily::INET, SocketType::STREAM, None).expect("a socket");
    sockopt::set_socket_recv_buffer_size(&fd, 2048).expect("a small buffer");
    connect(&fd, &addr).expect("connects");
    TcpStream::from(fd)
}

#[test]
fn a_client_that_stops_reading_its_stream_lets_go_of_its_handler_and_slot() {
    let s = Studio::start(&["--time-limit", "600"]);
    // As many never-reading watchers as slots: each search would hold its
    // slot for the time limit, 10 minutes, while its writes wait.
    let mut held = Vec::new();
    for _ in 0..cores() {
        let id = s.run(LONG, None);
        let mut c = narrow_connection(&s.addr);
        write!(
            c,
            "GET /api/runs/{id}/events HTTP/1.1\r\nHost: {}\r\n\r\n",
            s.addr
        )
        .expect("sent");
        held.push(c);
    }
    // Their writes fill the studio's send buffers within seconds and give
    // up 10 s later: the searches stop, the slots and handlers are free,
    // and a new search runs.
    holed_is_solved_within(&s, Duration::from_secs(60));
    assert!(handlers_free(&s, 20), "a handler is still held");
    drop(held);
    s.alive();
}

/// `n` clients of the studio at `addr` that never finish their requests:
/// half announce a body of 5,000 bytes and send 7, half send a head that
/// never ends.
fn slow_clients(addr: &str, n: usize) -> Vec<TcpStream> {
    (0..n)
        .map(|i| {
            let mut c = TcpStream::connect(addr).expect("connects");
            c.set_read_timeout(Some(Duration::from_secs(30))).ok();
            if i % 2 == 0 {
                write!(
                    c,
                    "POST /api/check HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 5000\r\n\r\nPuzzle("
                )
                .expect("sent");
            } else {
                write!(c, "GET /api/puzzles HTTP/1.1\r\nHost: {addr}\r\n").expect("sent");
            }
            c
        })
        .collect()
}

#[test]
fn a_client_that_sends_its_request_slowly_holds_no_handler() {
    let s = Studio::start(&[]);
    // Bodies announced and never sent whole, and requests whose head never
    // ends.
    let mut slow = slow_clients(&s.addr, 20);
    // The studio answers others meanwhile.
    s.alive();
    // The handlers that waited for the bodies give up within 10 s, though
    // the slow clients are still there.
    assert!(handlers_free(&s, 20), "a slow body still holds a handler");
    // A slow body that finally comes is told it came too late.
    let mut c = slow.swap_remove(0);
    c.write_all(&[b' '; 4993]).expect("sent");
    let mut answer = String::new();
    let _ = c.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("did not arrive within 10 s"), "{answer}");
    drop(slow);
    s.alive();
}

#[test]
fn a_burst_of_slow_clients_does_not_hold_up_the_next_request() {
    let s = Studio::start(&[]);
    let pid = s.served.child.id().to_string();
    // On one core, and frozen while twenty slow clients and one ordinary
    // request arrive together: when it wakes, every connection is there at
    // once (the burst that a pool of readers let take every reader).
    let _ = std::process::Command::new("taskset")
        .args(["-a", "-p", "-c", "0", &pid])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    let signal = |sig: &str| {
        std::process::Command::new("kill")
            .args([sig, &pid])
            .status()
            .expect("kill runs")
    };
    signal("-STOP");
    let slow = slow_clients(&s.addr, 20);
    let mut c = TcpStream::connect(&s.addr).expect("connects");
    c.set_read_timeout(Some(Duration::from_secs(60))).ok();
    write!(
        c,
        "GET /api/puzzles HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        s.addr
    )
    .expect("sent");
    signal("-CONT");
    let mut answer = String::new();
    let _ = c.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer:?}");
    // It was answered while the slow clients were still waited for: each
    // of them is told 408 when its 10 s are up, not before.
    for mut c in slow {
        c.set_read_timeout(Some(Duration::from_millis(1))).ok();
        let mut byte = [0];
        assert!(
            c.read(&mut byte).is_err(),
            "a slow client was answered before its time"
        );
    }
    s.alive();
}

#[test]
fn a_run_cancelled_mid_stream_stops_and_the_studio_goes_on() {
    let s = Studio::start(&["--time-limit", "600"]);
    let id = s.run(LONG, None);
    let mut ev = s.events(id);
    while ev.next().is_some_and(|(n, _)| n != "samples") {}
    // The connection dropped in the middle of the stream: the search stops
    // (its steering answers no more) and its handler is free.
    drop(ev);
    let began = Instant::now();
    loop {
        let (status, _) = s.post(&format!("/api/runs/{id}/pause"), "");
        if status == 404 {
            break;
        }
        assert!(
            began.elapsed() < Duration::from_secs(10),
            "the cancelled search goes on"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(handlers_free(&s, 10));
    // A stopped search is not saved, a kept one is, and nothing else.
    s.alive();
}

#[test]
fn runs_are_saved_only_when_asked_and_read_back_as_the_archive_commands_give_them() {
    let dir = tempfile::tempdir().expect("a folder");
    let db = dir.path().join("tours.sqlite");
    let s = Studio::start(&["--archive", &db.display().to_string()]);
    // Nothing saved: no archive on disk, and an empty one to browse.
    let id = s.run(HOLED, None);
    let seen = s.events(id).all();
    assert!(seen.iter().any(|(n, _)| n == "report"));
    assert!(!db.exists(), "the studio wrote an archive unasked");
    let (status, body) = s.get("/api/archive");
    assert_eq!(status, 200, "{body}");
    let v: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(v["runs"], json!([]));
    // Saved when asked, once each; a stopped search is refused.
    let (status, v) = s.post(&format!("/api/runs/{id}/save"), "");
    assert_eq!(status, 201, "{v}");
    assert_eq!(v["run"], json!(1));
    let stopped = s.run(LONG, None);
    let mut ev = s.events(stopped);
    while ev.next().is_some_and(|(n, _)| n != "samples") {}
    s.post(&format!("/api/runs/{stopped}/stop"), "");
    assert!(
        ev.all()
            .iter()
            .any(|(n, v)| n == "report" && v["status"] == json!("stopped"))
    );
    let (status, v) = s.post(&format!("/api/runs/{stopped}/save"), "");
    assert_eq!(status, 409, "{v}");
    assert_eq!(s.post("/api/runs/999/save", "").0, 404);
    // Browsed as `engine archive list` and `stats` give it.
    let (_, body) = s.get("/api/archive");
    let v: Value = serde_json::from_str(&body).expect("JSON");
    for (what, key) in [("list", "runs"), ("stats", "rows")] {
        let cli = engine_process()
            .args(["archive", what, "--format", "json", "--archive"])
            .arg(&db)
            .output()
            .expect("runs");
        let printed: Value = serde_json::from_slice(&cli.stdout).expect("JSON");
        let served = if what == "list" {
            &v["runs"]
        } else {
            &v["stats"]
        };
        assert_eq!(served, &printed[key], "{what}");
    }
    // One run, as `engine archive show` prints it, its tour for the player.
    let (status, body) = s.get("/api/archive/runs/1");
    assert_eq!(status, 200, "{body}");
    let shown: Value = serde_json::from_str(&body).expect("JSON");
    let cli = engine_process()
        .args(["archive", "show", "1", "--archive"])
        .arg(&db)
        .output()
        .expect("runs");
    assert_eq!(
        shown["text"].as_str(),
        Some(&*String::from_utf8_lossy(&cli.stdout))
    );
    let p = puzzle(HOLED);
    let tour = squares(&p, &shown["squares"]);
    engine::verify::verify(&p.board, &p.piece, &p.goal, &tour)
        .unwrap_or_else(|e| panic!("the archive's tour fails the verifier: {e}"));
    assert_eq!(
        shown["player"]["runs"][0]["samples"]
            .as_array()
            .map(Vec::len),
        Some(tour.len())
    );
    for bad in [
        "/api/archive/runs/2",
        "/api/archive/runs/x",
        "/api/archive/runs/-1",
    ] {
        let (status, body) = s.get(bad);
        assert_eq!(status, 404, "{bad}: {body}");
    }
    s.alive();
}

#[test]
fn a_make_whose_page_goes_away_stops_and_frees_its_slot() {
    let s = Studio::start(&["--time-limit", "600"]);
    // As many makes as slots, each of a minimal puzzle on a board too large
    // to finish in a minute, whose pages then go away.
    let ask = json!({ "board": "24x24", "piece": "knight", "seed": 1 }).to_string();
    let mut pages = Vec::new();
    for _ in 0..cores() {
        let mut c = TcpStream::connect(&s.addr).expect("connects");
        write!(
            c,
            "POST /api/make HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\n\r\n{ask}",
            s.addr,
            ask.len()
        )
        .expect("sent");
        pages.push(c);
    }
    std::thread::sleep(Duration::from_secs(1));
    drop(pages);
    // Their makes stop and give back their slots: a search runs at once,
    // not after the makes' minute.
    holed_is_solved_within(&s, Duration::from_secs(20));
    s.alive();
}

#[test]
fn a_made_puzzle_has_one_solution_through_its_clues_and_its_pictures() {
    let s = Studio::start(&[]);
    let ask = json!({ "board": "6x6", "piece": "knight", "seed": 5 }).to_string();
    let (status, v) = s.post("/api/make", &ask);
    assert_eq!(status, 200, "{v}");
    let p = puzzle(v["text"].as_str().expect("its file"));
    let tour = squares(&p, &v["solution"]);
    engine::verify::verify(&p.board, &p.piece, &p.goal, &tour)
        .unwrap_or_else(|e| panic!("the solution fails the verifier: {e}"));
    for &(step, square) in &p.constraints.clues {
        assert_eq!(tour[step as usize - 1], square);
    }
    // The same file as `engine make` writes with the same form.
    let dir = tempfile::tempdir().expect("a folder");
    let out = dir.path().join("puzzle.ron");
    let cli = engine_process()
        .current_dir(dir.path())
        .args([
            "make",
            "--board",
            "6x6",
            "--piece",
            "knight",
            "--seed",
            "5",
            "-o",
            "puzzle.ron",
        ])
        .output()
        .expect("runs");
    assert!(cli.status.success());
    let written = std::fs::read_to_string(&out).expect("written");
    let body = |t: &str| {
        t.lines()
            .filter(|l| !l.starts_with("//"))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        body(v["text"].as_str().unwrap_or_default())
            .join("\n")
            .replace("Studio puzzle", "Command-line puzzle"),
        body(&written).join("\n")
    );
    assert_eq!(
        v["puzzle_svg"]
            .as_str()
            .map(|t| t.replace("Studio puzzle", "Command-line puzzle")),
        std::fs::read_to_string(dir.path().join("puzzle.svg")).ok()
    );
    // A bad form is answered with the command line's words.
    let (status, v) = s.post(
        "/api/make",
        &json!({ "board": "6x6", "piece": "knigt" }).to_string(),
    );
    assert_eq!(status, 400, "{v}");
    assert!(
        v["error"]["text"]
            .as_str()
            .is_some_and(|t| t.contains("unknown piece")),
        "{v}"
    );
    for bad in [
        json!({ "board": "6x6", "piece": "knight", "clues": 1 }),
        json!({ "board": "6x6", "piece": "knight", "difficulty": "fiendish" }),
        json!({ "board": "64x64", "piece": "knight" }),
        json!({ "board": "6x6" }),
    ] {
        let (status, v) = s.post("/api/make", &bad.to_string());
        assert_eq!(status, 400, "{bad}: {v}");
    }
    s.alive();
}

/// What one client of the load test saw: each answer's status and time.
type Seen = Vec<(&'static str, u16, Duration)>;

/// One client: the page, the list, a check, a search streamed to its end.
fn client(addr: &str) -> Seen {
    let s = Client {
        addr: addr.to_string(),
    };
    let mut seen = Vec::new();
    let timed = |seen: &mut Seen, what, f: &mut dyn FnMut() -> u16| {
        let began = Instant::now();
        let status = f();
        seen.push((what, status, began.elapsed()));
    };
    timed(&mut seen, "page", &mut || s.get("/").0);
    timed(&mut seen, "list", &mut || s.get("/api/puzzles").0);
    timed(&mut seen, "check", &mut || s.post("/api/check", HOLED).0);
    let mut id = 0;
    timed(&mut seen, "run", &mut || {
        let ask = json!({ "text": HOLED, "solver": "warnsdorff" }).to_string();
        let (status, v) = s.post("/api/runs", &ask);
        id = v["id"].as_u64().unwrap_or(0);
        status
    });
    timed(&mut seen, "stream", &mut || {
        let all = s.events(id).all();
        if found_and_verified(HOLED, &all) {
            200
        } else {
            500
        }
    });
    seen
}

/// The peak resident memory of process `pid`, in KiB.
fn peak_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

#[test]
fn fifty_clients_at_once_are_all_answered_in_bounded_memory() {
    let s = Studio::start(&[]);
    let began = Instant::now();
    let addr = s.addr.clone();
    let clients: Vec<_> = (0..50)
        .map(|_| {
            let addr = addr.clone();
            std::thread::spawn(move || client(&addr))
        })
        .collect();
    let mut all: Seen = Vec::new();
    for c in clients {
        all.extend(c.join().expect("a client"));
    }
    let took = began.elapsed();
    // Every request answered as it should be: none lost, none refused.
    assert_eq!(all.len(), 50 * 5);
    for (what, status, _) in &all {
        assert!(matches!(status, 200 | 201), "{what}: {status}");
    }
    let peak = peak_kib(s.served.child.id());
    assert!(peak < 512 * 1024, "the studio grew to {peak} KiB");
    s.alive();
    let mut times: Vec<Duration> = all
        .iter()
        .filter(|(w, _, _)| *w != "stream")
        .map(|(_, _, t)| *t)
        .collect();
    times.sort();
    eprintln!(
        "50 clients, {} requests in {took:?}: latency median {:?}, 95th {:?}, worst {:?}; peak memory {peak} KiB",
        all.len(),
        times[times.len() / 2],
        times[times.len() * 95 / 100],
        times[times.len() - 1]
    );
}
