//! The studio's routes: the page, the puzzle files to open, the check of
//! the editor's text, the searches (start, stream, steer, save), the
//! archive and the maker. Each
//! request is guarded first (`http`); whatever is wrong with it is
//! answered with a 4xx status and the message, never a panic.

use std::time::{Duration, Instant};

use engine::error::Error;
use engine::halt::{Limits, Stop};
use engine::puzzle::{Puzzle, Use};
use serde_json::json;

use super::http::{self, Refusal};
use super::wire::{Method, Request};
use super::{Studio, maker, page, runs, shelf};
use crate::cli::{Format, interrupt};

/// The longest a check of the editor's text may take: it runs at every
/// pause in the typing.
const CHECK_SECONDS: f64 = 10.0;

/// Answers one request.
pub fn handle(studio: &Studio, request: Request) {
    if let Err(refusal) =
        http::check_host(&request, studio.addr).and_then(|()| http::check_origin(&request))
    {
        return http::refuse(request, refusal);
    }
    let url = request.url().to_string();
    let path = url.split(['?', '#']).next().unwrap_or_default().to_string();
    let query = url.split_once('?').map(|(_, q)| q.to_string());
    let parts: Vec<&str> = path.split('/').skip(1).collect();
    let method = request.method().clone();
    match (&method, parts.as_slice()) {
        (Method::Get | Method::Head, [""]) => http::send(
            request,
            200,
            "text/html; charset=utf-8",
            page::page().into_bytes(),
            None,
        ),
        (Method::Get, ["api", "puzzles"]) => list(studio, request),
        (Method::Get, ["api", "puzzles", name]) => {
            let name = decode(name);
            open(studio, request, &name)
        }
        (Method::Post, ["api", "check"]) => {
            let name = query
                .as_deref()
                .and_then(|q| param(q, "name"))
                .unwrap_or_else(|| "puzzle.ron".to_string());
            check(request, &name)
        }
        (Method::Post, ["api", "runs"]) => runs::create(studio, request),
        (Method::Get, ["api", "runs", id, "events"]) => match id.parse::<u64>() {
            Ok(id) => runs::stream(studio, request, id),
            Err(_) => http::refuse(request, no_run(id)),
        },
        (Method::Get, ["api", "runs", id, file]) => match id.parse::<u64>() {
            Ok(id) => super::keep::download(
                &studio.runs.kept,
                request,
                id,
                file,
                studio.runs.time_limit(),
            ),
            Err(_) => http::refuse(request, no_run(id)),
        },
        (Method::Post, ["api", "make"]) => maker::make(studio, request),
        (Method::Get, ["api", "archive"]) => shelf::browse(&studio.shelf, request),
        (Method::Get, ["api", "archive", "runs", id]) => {
            shelf::show(&studio.shelf, request, id, studio.runs.time_limit())
        }
        (Method::Post, ["api", "runs", id, "save"]) => match id.parse::<u64>() {
            Ok(id) => shelf::save(&studio.shelf, &studio.runs.kept, request, id),
            Err(_) => http::refuse(request, no_run(id)),
        },
        (Method::Post, ["api", "runs", id, action]) => match id.parse::<u64>() {
            Ok(id) => runs::steer(studio, request, id, action),
            Err(_) => http::refuse(request, no_run(id)),
        },
        (_, ["api", ..]) | (_, [""]) => http::refuse(
            request,
            Refusal::new(405, format!("{method} is not allowed on {}", shown(&path))),
        ),
        _ => http::refuse(
            request,
            Refusal::new(404, format!("there is nothing at {}", shown(&path))),
        ),
    }
}

/// A path as a message quotes it: abridged, control characters escaped.
fn shown(path: &str) -> String {
    let cut: String = path.chars().take(200).collect();
    engine::error::escape_controls(&cut).into_owned()
}

/// The refusal for a run id that names no run.
fn no_run(id: &str) -> Refusal {
    Refusal::new(404, format!("there is no search {}", shown(id)))
}

/// `text` with its `%XX` escapes (and `+` in a query) decoded; a bad escape
/// is kept as written.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(a), Some(b)) => {
                    out.push((a * 16 + b) as u8);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b'+' => out.push(b' '),
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The value of `key` in a query string, decoded.
fn param(query: &str, key: &str) -> Option<String> {
    query
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| decode(v))
}

/// The puzzle files of the folder: `*.ron` files directly in it, sorted.
fn list(studio: &Studio, request: Request) {
    let dir = &studio.puzzles;
    let mut names: Vec<String> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| n.ends_with(".ron") && !n.starts_with('.'))
            .collect(),
        Err(_) => Vec::new(),
    };
    names.sort();
    http::json(
        request,
        200,
        &json!({ "dir": dir.display().to_string(), "puzzles": names }),
    );
}

/// One puzzle file of the folder, by its name alone: a name with a path in
/// it (`../`, `/`, `\`), a hidden file or one that is not `.ron` is
/// refused, so nothing outside the folder can be read.
fn open(studio: &Studio, request: Request, name: &str) {
    let plain = !name.is_empty()
        && name.ends_with(".ron")
        && !name.starts_with('.')
        && !name.contains(['/', '\\', '\0'])
        && name != "..";
    if !plain {
        return http::refuse(
            request,
            Refusal::new(
                403,
                format!(
                    "`{}` is not the name of a puzzle file in the folder",
                    shown(name)
                ),
            ),
        );
    }
    let path = studio.puzzles.join(name);
    // A link inside the folder that leads out of it is refused too.
    let inside = match (path.canonicalize(), studio.puzzles.canonicalize()) {
        (Ok(file), Ok(dir)) => file.parent() == Some(dir.as_path()),
        _ => false,
    };
    if !inside {
        return http::refuse(
            request,
            Refusal::new(404, format!("there is no puzzle file `{}`", shown(name))),
        );
    }
    match engine::puzzle::read_text(&path, "a puzzle file") {
        Ok((_, text)) => http::json(request, 200, &json!({ "name": name, "text": text })),
        Err(e) => http::refuse(request, Refusal::new(404, e.to_string())),
    }
}

/// The error as the page shows it: where, what, and the command line's
/// text with its caret.
pub fn error_json(e: &Error) -> serde_json::Value {
    let e = e.clone().named(&crate::cli::Flags);
    json!({
        "line": e.line,
        "col": e.col,
        "width": e.width,
        "message": e.message,
        "help": e.help,
        "text": e.to_string(),
    })
}

/// Checks the editor's text, as `engine check` checks a file named `name`:
/// the error with its place, or the report `engine check` prints.
fn check(request: Request, name: &str) {
    let Some((request, text)) = http::text_body(request) else {
        return;
    };
    let name = shown(name);
    let puzzle = match Puzzle::parse(&name, &text) {
        Ok(p) => p,
        Err(e) => return http::json(request, 200, &json!({ "error": error_json(&e) })),
    };
    if let Some(e) = puzzle.refusal(Use::Read) {
        return http::json(request, 200, &json!({ "error": error_json(&e) }));
    }
    let limits = Limits {
        interrupt: Some(&interrupt::INTERRUPTED),
        ..Limits::none()
    }
    .with_time_from(Instant::now(), Some(CHECK_SECONDS));
    match crate::cli::check::findings(&puzzle, &limits, false, Format::Text) {
        Ok(Ok(found)) => http::json(
            request,
            200,
            &json!({ "report": found.report, "impossible": found.impossible }),
        ),
        Ok(Err(e)) => http::json(request, 200, &json!({ "error": error_json(&e) })),
        Err(stop) => {
            let why = match stop {
                Stop::Limit(_) => format!(
                    "the checks stopped after {} s; nothing is proven",
                    Duration::from_secs_f64(CHECK_SECONDS).as_secs()
                ),
                _ => "the checks were stopped; nothing is proven".to_string(),
            };
            http::json(request, 200, &json!({ "stopped": why }))
        }
    }
}
