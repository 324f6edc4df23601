//! The studio's archive: a finished search saved when the page asks
//! (`POST /api/runs/ID/save`), and the archive read back for the page —
//! its runs and figures as `engine archive list` and `stats` give them
//! (`GET /api/archive`), and one run as `engine archive show` prints it,
//! with its tour to replay in the player (`GET /api/archive/runs/ID`).
//! Everything goes through the archive library; the studio holds no SQL.
//! Saving is the one thing the studio writes on disk.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use engine::archive::{Archive, SaveTo};
use engine::error::{Error, escape_controls};
use engine::halt::Limits;
use engine::render::gif::{GifOptions, Scene};
use engine::render::html::{self, Played};
use engine::render::json::{ListJson, StatsJson};
use engine::render::text;
use engine::search::event::{Event, Observer};
use engine::solve::Outcome;
use serde_json::json;

use super::http::{self, Refusal};
use super::keep::Kept;
use super::wire::Request;
use crate::cli::{interrupt, player};

/// The runs the page lists, newest first.
const LISTED: usize = 50;

/// The archive the studio saves to and reads, if it has one.
pub struct Shelf {
    /// Its file (None: no data directory is known and no `--archive` was
    /// given, so there is nothing to save to).
    path: Option<PathBuf>,
    /// One save at a time: SQLite would make a second wait anyway, and a
    /// new archive is made whole by the first.
    saving: Mutex<()>,
}

impl Shelf {
    /// The archive at `path`.
    pub fn new(path: Option<PathBuf>) -> Shelf {
        Shelf {
            path,
            saving: Mutex::new(()),
        }
    }

    /// Its file, if it has one.
    pub fn path(&self) -> Option<&std::path::Path> {
        self.path.as_deref()
    }

    fn need_path(&self) -> Result<&std::path::Path, Refusal> {
        self.path.as_deref().ok_or_else(|| {
            Refusal::new(
                404,
                "the studio has no archive: no data directory is known on this system; start it with --archive DB",
            )
        })
    }
}

/// An archive error as a refusal: the command line's words, without the
/// caret lines a file's text would bring.
fn refusal(status: u16, e: &Error) -> Refusal {
    Refusal::new(status, e.to_string().trim_end().to_string())
}

/// `POST /api/runs/ID/save`: saves finished search `id` to the archive,
/// as `engine run --save` would have.
pub fn save(shelf: &Shelf, kept: &Kept, request: Request, id: u64) {
    let path = match shelf.need_path() {
        Ok(p) => p,
        Err(r) => return http::refuse(request, r),
    };
    let Some(done) = kept.get(id) else {
        return http::refuse(
            request,
            Refusal::new(
                404,
                format!("search {id} has not finished, or is no longer kept"),
            ),
        );
    };
    if matches!(done.report.outcome, Outcome::Interrupted { .. }) {
        return http::refuse(
            request,
            Refusal::new(
                409,
                "a search that was stopped is not saved: it says nothing about the solver (as with `engine run --save`)",
            ),
        );
    }
    let _one = shelf.saving.lock();
    let saved = SaveTo::prepare(path).and_then(|mut to| to.record(&done.puzzle, &done.report));
    match saved {
        Ok(Some(run)) => http::json(
            request,
            201,
            &json!({ "run": run, "archive": path.display().to_string() }),
        ),
        Ok(None) => http::refuse(request, Refusal::new(409, "the run was not saved")),
        Err(e) => http::refuse(request, refusal(500, &e)),
    }
}

/// The archive opened to read: None when there is none yet (nothing was
/// saved), which the page shows as an empty archive.
fn open(path: &std::path::Path) -> Result<Option<Archive>, Refusal> {
    if std::fs::symlink_metadata(path).is_err() {
        return Ok(None);
    }
    Archive::open_existing(path)
        .map(Some)
        .map_err(|e| refusal(500, &e))
}

/// `GET /api/archive`: the newest runs (`archive list`) and the figures
/// per puzzle and solver (`archive stats`), as their JSON reports.
pub fn browse(shelf: &Shelf, request: Request) {
    let path = match shelf.need_path() {
        Ok(p) => p,
        Err(r) => return http::refuse(request, r),
    };
    let store = match open(path) {
        Ok(Some(s)) => s,
        Ok(None) => {
            return http::json(
                request,
                200,
                &json!({
                    "archive": path.display().to_string(),
                    "runs": [], "stats": [], "skipped": [],
                }),
            );
        }
        Err(r) => return http::refuse(request, r),
    };
    let read = store
        .list(LISTED)
        .and_then(|list| Ok((list, store.stats(None)?)));
    let (list, stats) = match read {
        Ok(r) => r,
        Err(e) => return http::refuse(request, refusal(500, &e)),
    };
    let skipped: Vec<String> = list
        .skipped
        .iter()
        .chain(&stats.skipped)
        .map(ToString::to_string)
        .collect();
    http::json(
        request,
        200,
        &json!({
            "archive": path.display().to_string(),
            "runs": ListJson::new(path, &list.rows).runs,
            "stats": StatsJson::new(path, &stats.rows).rows,
            "stats_text": text::archive_stats(&stats.rows),
            "skipped": skipped,
        }),
    );
}

/// `GET /api/archive/runs/ID`: run `id` as `engine archive show` prints
/// it, its puzzle's text (to open in the editor), and its tour (or the
/// longest path of a search that gave up) walked square by square for
/// the player.
pub fn show(shelf: &Shelf, request: Request, id: &str, time_limit: f64) {
    let path = match shelf.need_path() {
        Ok(p) => p,
        Err(r) => return http::refuse(request, r),
    };
    let Ok(number) = id.parse::<i64>() else {
        return http::refuse(
            request,
            Refusal::new(
                404,
                format!(
                    "`{}` is not a run's id: a run id is a whole number",
                    escape_controls(&id.chars().take(40).collect::<String>())
                ),
            ),
        );
    };
    let store = match open(path) {
        Ok(Some(s)) => s,
        Ok(None) => {
            return http::refuse(
                request,
                Refusal::new(404, format!("no run {number}: nothing is saved yet")),
            );
        }
        Err(r) => return http::refuse(request, r),
    };
    let run = match store.show(number) {
        Ok(Some(run)) => run,
        Ok(None) => {
            return http::refuse(
                request,
                Refusal::new(404, format!("no run {number} in {}", path.display())),
            );
        }
        Err(e) => return http::refuse(request, refusal(500, &e)),
    };
    let p = &run.puzzle;
    let words = format!(
        "{}Saved {} from {}\n",
        text::report_text(
            &crate::cli::title(p),
            &p.board,
            p.goal.closed,
            &run.report,
            crate::cli::grid_choice(false, false),
        ),
        escape_controls(&run.created),
        escape_controls(&p.file)
    );
    let limits = Limits {
        interrupt: Some(&interrupt::INTERRUPTED),
        ..Limits::none()
    }
    .with_time_from(Instant::now(), Some(time_limit));
    let graph = match p.graph(&limits) {
        Ok(g) => g,
        Err(stop) => {
            return http::refuse(
                request,
                Refusal::new(503, format!("the run's board was not drawn: {stop}")),
            );
        }
    };
    // The tour walked as a search that never steps back would show it.
    let mut rec = player::recorder(&GifOptions::default());
    let walk = run.report.outcome.path();
    for i in 1..=walk.len() {
        rec.event(Event::Advance, &walk[..i]);
    }
    let scene = Scene::new(p).with_graph(&graph);
    let page = match html::page_json(
        &scene,
        &[Played {
            rec: &rec,
            report: &run.report,
        }],
    ) {
        Ok(page) => page,
        Err(e) => {
            return http::refuse(
                request,
                Refusal::new(500, format!("the player was not made: {e}")),
            );
        }
    };
    let squares: Vec<String> = walk.iter().map(|&s| p.board.name(s)).collect();
    let body = format!(
        "{{\"id\":{number},\"name\":{},\"file\":{},\"created\":{},\"text\":{},\"source\":{},\"squares\":{},\"player\":{page}}}",
        json!(p.name),
        json!(p.file),
        json!(run.created),
        json!(words),
        json!(p.text),
        json!(squares),
    );
    http::send(
        request,
        200,
        "application/json; charset=utf-8",
        body.into_bytes(),
        None,
    );
}
