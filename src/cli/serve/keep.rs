//! What the studio keeps of its last searches, and the files made from
//! them for the page to download: the tour as a GIF, a PNG and an SVG, the
//! HTML player of the search, and its trace (the player's samples as JSON
//! lines). Each file is made in memory when asked and sent whole; nothing
//! is written on the server's disk.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::Instant;

use engine::halt::Limits;
use engine::model::MoveGraph;
use engine::puzzle::Puzzle;
use engine::render::gif::{self, GifError, GifOptions, Scene};
use engine::render::html::{self, Played};
use engine::render::record::Recorder;
use engine::render::{svg, trace};
use engine::solve::{Outcome, Report};

use super::http::{self, Refusal};
use super::wire::Request;
use crate::cli::interrupt;

/// Searches kept for their files; the oldest goes first.
const KEPT: usize = 8;

/// A finished search.
pub struct Finished {
    /// The puzzle searched.
    pub puzzle: Puzzle,
    /// How it ended.
    pub report: Report,
    /// The search as the player recorded it.
    pub rec: Recorder,
    /// The move graph (the player draws candidates and proofs with it).
    pub graph: MoveGraph,
}

/// The last searches, by id.
#[derive(Default)]
pub struct Kept {
    runs: Mutex<VecDeque<(u64, std::sync::Arc<Finished>)>>,
}

impl Kept {
    /// Keeps search `id`, dropping the oldest past [`KEPT`]; the search
    /// as kept.
    pub fn keep(&self, id: u64, done: Finished) -> Option<std::sync::Arc<Finished>> {
        let done = std::sync::Arc::new(done);
        let mut runs = self.runs.lock().ok()?;
        runs.push_back((id, done.clone()));
        while runs.len() > KEPT {
            runs.pop_front();
        }
        Some(done)
    }

    /// Search `id`, if it is kept.
    pub fn get(&self, id: u64) -> Option<std::sync::Arc<Finished>> {
        let runs = self.runs.lock().ok()?;
        runs.iter().find(|(i, _)| *i == id).map(|(_, f)| f.clone())
    }
}

/// A name made safe for a file: letters, digits, `-` and `_`.
fn file_stem(name: &str) -> String {
    let stem: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .take(60)
        .collect();
    let stem = stem.trim_matches('-').to_lowercase();
    if stem.is_empty() {
        "tour".to_string()
    } else {
        stem
    }
}

/// `GET /api/runs/ID/FILE`: makes the file of search `id` and sends it.
pub fn download(kept: &Kept, request: Request, id: u64, file: &str, time_limit: f64) {
    let Some(done) = kept.get(id) else {
        return http::refuse(
            request,
            Refusal::new(
                404,
                format!(
                    "search {id} is not kept: the studio keeps the files of its last {KEPT} searches"
                ),
            ),
        );
    };
    let limits = Limits {
        interrupt: Some(&interrupt::INTERRUPTED),
        ..Limits::none()
    }
    .with_time_from(Instant::now(), Some(time_limit));
    let puzzle = &done.puzzle;
    let scene = Scene::new(puzzle).with_graph(&done.graph);
    let opts = GifOptions::default();
    let stem = file_stem(&puzzle.name);
    let tour = match &done.report.outcome {
        Outcome::Found(t) => Some(t.as_slice()),
        _ => None,
    };
    let mut bytes = Vec::new();
    let drawn = |what: &str| {
        Refusal::new(
            409,
            format!("search {id} found no tour, so it has no {what}"),
        )
    };
    let failed = |e: GifError| Refusal::new(503, format!("the file was not made: {e}"));
    let made: Result<&str, Refusal> = match file {
        "tour.gif" | "tour.png" | "tour.svg" => match tour {
            None => Err(drawn("picture")),
            Some(t) => {
                let memory = crate::cli::gif::check_memory(puzzle, &opts, true, false)
                    .map_err(|e| Refusal::new(413, e.message));
                memory.and_then(|()| {
                    match file {
                        "tour.gif" => gif::tour_gif(&mut bytes, &scene, t, &opts, &limits)
                            .map(|_| "image/gif"),
                        "tour.png" => gif::tour_png(&mut bytes, &scene, t, &opts, &limits)
                            .map(|_| "image/png"),
                        _ => {
                            svg::write_svg(&mut bytes, &scene, t, &limits).map(|()| "image/svg+xml")
                        }
                    }
                    .map_err(failed)
                })
            }
        },
        "player.html" => html::write_player(
            &mut bytes,
            &scene,
            &[Played {
                rec: &done.rec,
                report: &done.report,
            }],
        )
        .map(|()| "text/html; charset=utf-8")
        .map_err(|e| failed(GifError::Io(e))),
        "trace.jsonl" => trace::write_samples(&mut bytes, &puzzle.board, &done.rec, &done.report)
            .map(|()| "application/x-ndjson")
            .map_err(|e| failed(GifError::Io(e))),
        _ => Err(Refusal::new(
            404,
            format!(
                "a search's files are tour.gif, tour.png, tour.svg, player.html and trace.jsonl, not `{}`",
                engine::error::escape_controls(file)
            ),
        )),
    };
    match made {
        Ok(kind) => {
            let name = format!("{stem}-{file}");
            http::send(request, 200, kind, bytes, Some(&name));
        }
        Err(r) => http::refuse(request, r),
    }
}
