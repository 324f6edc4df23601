//! The studio's searches: a puzzle handed in (`POST /api/runs`) waits for
//! its page to watch it (`GET /api/runs/ID/events`, Server-Sent Events),
//! queues for one of as many slots as there are cores (its place sent as
//! it moves up), then runs on a thread of its own with its samples
//! streamed as they come (the live tap of the HTML player), steered by
//! pause, step, resume and stop (`POST /api/runs/ID/ACTION`). A run stops
//! at the time limit (paused time not counted), at Ctrl-C, at stop, and
//! when the page that watches it goes away; it ends with the command
//! line's report and the whole search for the player.

use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use clap::ValueEnum;
use engine::halt::Limits;
use engine::progress::Progress;
use engine::puzzle::Puzzle;
use engine::puzzle::Use;
use engine::render::gif::{GifOptions, Scene};
use engine::render::html::live::{Control, LiveSample, Tap};
use engine::render::html::{self, Played};
use engine::render::text;
use engine::solve::{Limit, Outcome, Report, Run, SolverSpec, runner};
use serde_json::json;

use super::Studio;
use super::api::error_json;
use super::http::{self, Refusal};
use super::keep::{Finished, Kept};
use super::wire::Request;
use crate::cli::run::{SolverName, spec_of};
use crate::cli::{interrupt, player};

/// Runs handed in but not yet watched that the studio keeps; past this,
/// the oldest is dropped.
const MAX_WAITING: usize = 64;
/// How often a stream sends what came in.
const BATCH: Duration = Duration::from_millis(50);
/// How often a queued or paused stream shows it is alive (a page that went
/// away is noticed at the next write).
const HEARTBEAT: Duration = Duration::from_secs(1);

/// The searches, and the slots they run in.
pub struct Runs {
    next: AtomicU64,
    jobs: Mutex<HashMap<u64, Arc<Job>>>,
    slots: Slots,
    time_limit: f64,
    /// The last searches, for their files.
    pub kept: Kept,
}

/// A search handed in.
struct Job {
    puzzle: Puzzle,
    control: Control,
    /// Set when a page started watching it: it runs once.
    taken: AtomicBool,
    created: Instant,
}

impl Runs {
    /// No searches yet; `cores` slots; each run stops after `time_limit`
    /// seconds of running.
    pub fn new(cores: usize, time_limit: f64) -> Runs {
        Runs {
            next: AtomicU64::new(1),
            jobs: Mutex::new(HashMap::new()),
            slots: Slots::new(cores.max(1)),
            time_limit,
            kept: Kept::default(),
        }
    }

    /// The seconds a search may run.
    pub fn time_limit(&self) -> f64 {
        self.time_limit
    }

    /// Stops every search (Ctrl-C).
    pub fn stop_all(&self) {
        if let Ok(jobs) = self.jobs.lock() {
            for job in jobs.values() {
                job.control.stop();
            }
        }
    }

    /// Waits for a slot, for work that is not streamed (making a puzzle):
    /// in turn with the searches queued. None when the studio stops first.
    pub fn wait_slot(&self) -> Option<Slot<'_>> {
        let ticket = self.slots.join();
        loop {
            match self.slots.take(ticket, HEARTBEAT) {
                Ok(slot) => return Some(slot),
                Err(place)
                    if place == usize::MAX || interrupt::INTERRUPTED.load(Ordering::SeqCst) =>
                {
                    self.slots.leave(ticket);
                    return None;
                }
                Err(_) => {}
            }
        }
    }

    fn job(&self, id: u64) -> Option<Arc<Job>> {
        self.jobs.lock().ok()?.get(&id).cloned()
    }

    fn forget(&self, id: u64) {
        if let Ok(mut jobs) = self.jobs.lock() {
            jobs.remove(&id);
        }
    }
}

/// What a page asks to run.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Ask {
    /// The puzzle's text.
    text: String,
    /// Its file's name, for messages.
    #[serde(default)]
    name: Option<String>,
    /// A solver by name, instead of the file's.
    #[serde(default)]
    solver: Option<String>,
    /// The seed, instead of the file's.
    #[serde(default)]
    seed: Option<u64>,
}

/// `POST /api/runs`: checks the puzzle as `engine run` would and keeps it
/// for its page to watch; answers its id, or the error with its place.
pub fn create(studio: &Studio, request: Request) {
    let Some((request, ask)) = http::json_body::<Ask>(request, "a run") else {
        return;
    };
    let name = ask.name.as_deref().unwrap_or("puzzle.ron");
    let bad = |request, e: &engine::error::Error| {
        http::json(request, 400, &json!({ "error": error_json(e) }))
    };
    let mut puzzle = match Puzzle::parse(name, &ask.text) {
        Ok(p) => p,
        Err(e) => return bad(request, &e),
    };
    if let Some(seed) = ask.seed {
        puzzle.seed = seed;
    }
    if let Some(solver) = ask.solver.as_deref() {
        match SolverName::from_str(solver, true) {
            Ok(s) => puzzle.set_solver(spec_of(s)),
            Err(_) => {
                return http::refuse(
                    request,
                    Refusal::new(
                        400,
                        format!(
                            "there is no solver `{}`; the solvers are auto, backtrack, warnsdorff, genetic and symmetric",
                            engine::error::escape_controls(solver)
                        ),
                    ),
                );
            }
        }
    }
    if let Some(e) = puzzle.refusal(Use::Solve { draws: None }) {
        return bad(request, &e);
    }
    if let SolverSpec::Genetic(opts) = &puzzle.solver
        && let Some((message, help)) =
            engine::puzzle::genetic_too_big(&puzzle.board, &puzzle.piece, opts)
    {
        return http::refuse(request, Refusal::new(400, format!("{message} ({help})")));
    }
    let runs = &studio.runs;
    let id = runs.next.fetch_add(1, Ordering::SeqCst);
    let job = Arc::new(Job {
        puzzle,
        control: Control::new(),
        taken: AtomicBool::new(false),
        created: Instant::now(),
    });
    let Ok(mut jobs) = runs.jobs.lock() else {
        return http::refuse(
            request,
            Refusal::new(500, "the studio's list of runs broke"),
        );
    };
    let waiting: Vec<(u64, Instant)> = jobs
        .iter()
        .filter(|(_, j)| !j.taken.load(Ordering::SeqCst))
        .map(|(&id, j)| (id, j.created))
        .collect();
    if waiting.len() >= MAX_WAITING
        && let Some(&(oldest, _)) = waiting.iter().min_by_key(|(_, created)| *created)
    {
        jobs.remove(&oldest);
    }
    jobs.insert(id, job);
    drop(jobs);
    http::json(request, 201, &json!({ "id": id }));
}

/// `POST /api/runs/ID/ACTION`: pause, step, resume or stop a search.
pub fn steer(studio: &Studio, request: Request, id: u64, action: &str) {
    let Some(job) = studio.runs.job(id) else {
        return http::refuse(
            request,
            Refusal::new(404, format!("there is no search {id}")),
        );
    };
    let c = &job.control;
    match action {
        "pause" => c.pause(),
        "step" => c.step(),
        "resume" => c.resume(),
        "stop" => c.stop(),
        _ => {
            return http::refuse(
                request,
                Refusal::new(
                    404,
                    format!(
                        "a search can be paused, stepped, resumed or stopped, not `{}`",
                        engine::error::escape_controls(action)
                    ),
                ),
            );
        }
    }
    http::json(request, 200, &json!({ "id": id, "paused": c.is_paused() }));
}

/// One Server-Sent Event; its data is one line of JSON.
fn event(w: &mut dyn Write, name: &str, data: &str) -> std::io::Result<()> {
    chunk(w, &format!("event: {name}\ndata: {data}\n\n"))
}

/// Writes `text` as one chunk of the stream (`Transfer-Encoding:
/// chunked`, so that a client knows where the stream ends; the empty
/// chunk ends it) and sends it at once.
fn chunk(w: &mut dyn Write, text: &str) -> std::io::Result<()> {
    // One write of the whole chunk, so that the connection's deadline is
    // for all of it.
    w.write_all(format!("{:x}\r\n{text}\r\n", text.len()).as_bytes())?;
    w.flush()
}

/// `GET /api/runs/ID/events`: queues the search, runs it and streams it.
pub fn stream(studio: &Studio, request: Request, id: u64) {
    let runs = &studio.runs;
    let Some(job) = runs.job(id) else {
        return http::refuse(
            request,
            Refusal::new(404, format!("there is no search {id}")),
        );
    };
    if job.taken.swap(true, Ordering::SeqCst) {
        return http::refuse(
            request,
            Refusal::new(409, format!("search {id} is already being watched")),
        );
    }
    let mut w = request.into_stream();
    let mut head = String::from(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n",
    );
    for h in http::common_headers() {
        head.push_str(&format!("{}: {}\r\n", h.0, h.1));
    }
    head.push_str("\r\n");
    if w.write_all(head.as_bytes())
        .and_then(|()| w.flush())
        .is_ok()
    {
        // A page that went away is not written to again: the write would
        // wait for it as long as the first that failed.
        if watch(runs, id, &job, &mut w) {
            let _ = w.write_all(b"0\r\n\r\n").and_then(|()| w.flush());
        }
    }
    runs.forget(id);
}

/// Queues the search, runs it and streams it to `w` until it ends or the
/// page goes away; false if it went away.
fn watch(runs: &Runs, id: u64, job: &Job, w: &mut dyn Write) -> bool {
    let ticket = runs.slots.join();
    let mut shown = 0;
    let mut beat = Instant::now();
    let slot = loop {
        match runs.slots.take(ticket, HEARTBEAT) {
            Ok(slot) => break slot,
            Err(place) => {
                let gone = if place != shown {
                    shown = place;
                    event(w, "queue", &json!({ "place": place }).to_string())
                } else if beat.elapsed() >= HEARTBEAT {
                    beat = Instant::now();
                    chunk(w, ": waiting\n\n")
                } else {
                    Ok(())
                };
                let stopped =
                    job.control.is_stopped() || interrupt::INTERRUPTED.load(Ordering::SeqCst);
                if gone.is_err() || stopped {
                    runs.slots.leave(ticket);
                    if stopped {
                        let _ = event(
                            w,
                            "failed",
                            &json!({ "error": "stopped before it started" }).to_string(),
                        );
                        let _ = event(w, "done", "{}");
                    }
                    return gone.is_ok();
                }
            }
        }
    };
    let puzzle = &job.puzzle;
    let control = &job.control;
    let limits = Limits {
        interrupt: Some(&interrupt::INTERRUPTED),
        cancel: Some(&control.cancel),
        ..Limits::none()
    };
    let timed_out = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<LiveSample>();
    let (start_tx, start_rx) = mpsc::channel::<String>();
    let started = Instant::now();
    let solved = std::thread::scope(|scope| {
        let searcher = std::thread::Builder::new()
            .name("search".into())
            .spawn_scoped(scope, || {
                let progress = Progress::new();
                let graph = match puzzle.graph(&limits) {
                    Ok(g) => g,
                    Err(stop) => {
                        return (
                            Ok(Report::stopped(stop, started.elapsed(), Default::default())),
                            None,
                        );
                    }
                };
                let scene = Scene::new(puzzle);
                let board = html::page_json(&scene, &[]).unwrap_or_default();
                let solver = puzzle.solver.kind();
                let _ = start_tx.send(format!("{{\"solver\":{},\"page\":{board}}}", json!(solver)));
                let mut tap = Tap::new(&puzzle.board, control, tx);
                let mut rec = player::recorder(&GifOptions::default());
                let report = runner::solve(
                    &puzzle.task(&graph),
                    puzzle.solver,
                    Run::new(limits, &progress, (&mut tap, &mut rec)),
                );
                tap.flush();
                (report, Some((rec, graph)))
            });
        let Ok(searcher) = searcher else {
            return None;
        };
        let mut batch: Vec<LiveSample> = Vec::new();
        let mut gone = false;
        let mut paused = false;
        let mut last = Instant::now();
        let mut beat = Instant::now();
        loop {
            let ended = match rx.recv_timeout(BATCH) {
                Ok(s) => {
                    // And all that came with it: one write for many.
                    batch.push(s);
                    batch.extend(rx.try_iter());
                    false
                }
                Err(RecvTimeoutError::Timeout) => false,
                Err(RecvTimeoutError::Disconnected) => true,
            };
            // Running time, paused time left out, against the limit.
            let running = started.elapsed().saturating_sub(control.paused_for());
            if running.as_secs_f64() > runs.time_limit && !control.is_paused() {
                timed_out.store(true, Ordering::SeqCst);
                control.stop();
            }
            if gone {
                batch.clear();
                if ended {
                    break;
                }
                continue;
            }
            let mut wrote = Ok(());
            if let Ok(start) = start_rx.try_recv() {
                wrote = event(w, "start", &start);
            }
            if control.is_paused() != paused {
                paused = !paused;
                wrote = wrote
                    .and_then(|()| event(w, "paused", &json!({ "paused": paused }).to_string()));
            }
            if !batch.is_empty() && (ended || last.elapsed() >= BATCH || paused) {
                let events = batch.last().map_or(0, |s| s.l + 1);
                let data = json!({ "events": events, "samples": batch }).to_string();
                wrote = wrote.and_then(|()| event(w, "samples", &data));
                batch.clear();
                last = Instant::now();
                beat = Instant::now();
            } else if beat.elapsed() >= HEARTBEAT {
                beat = Instant::now();
                wrote = wrote.and_then(|()| chunk(w, ": running\n\n"));
            }
            if wrote.is_err() {
                // The page went away: its search stops.
                gone = true;
                control.stop();
            }
            if ended {
                break;
            }
        }
        searcher.join().ok().map(|r| (r, gone))
    });
    drop(slot);
    let Some(((solved, kept), gone)) = solved else {
        let _ = event(
            w,
            "failed",
            &json!({ "error": "the search failed" }).to_string(),
        );
        return true;
    };
    if gone {
        return false;
    }
    let mut report = match solved {
        Ok(r) => r,
        Err(bug) => {
            let _ = event(
                w,
                "failed",
                &json!({ "error": bug.to_string() }).to_string(),
            );
            let _ = event(w, "done", "{}");
            return true;
        }
    };
    if timed_out.load(Ordering::SeqCst)
        && let Outcome::Interrupted { best } = &report.outcome
    {
        report.outcome = Outcome::GaveUp {
            limit: Limit::Time,
            best: best.clone(),
        };
    }
    match kept {
        Some((rec, graph)) => {
            let done = Finished {
                puzzle: puzzle.clone(),
                report,
                rec,
                graph,
            };
            let files = runs.kept.keep(id, done);
            if let Some(done) = files {
                let _ = send_end(
                    w,
                    id,
                    &done.puzzle,
                    &done.report,
                    Some((&done.rec, &done.graph)),
                    runs.time_limit,
                );
            }
        }
        None => {
            let _ = send_end(w, id, puzzle, &report, None, runs.time_limit);
        }
    }
    true
}

/// The end of a stream: the command line's report, the whole search for
/// the player, and `done`.
fn send_end(
    w: &mut dyn Write,
    id: u64,
    puzzle: &Puzzle,
    report: &Report,
    kept: Option<(&engine::render::record::Recorder, &engine::model::MoveGraph)>,
    time_limit: f64,
) -> std::io::Result<()> {
    let mut words = Vec::new();
    text::write_report_text(
        &mut words,
        &crate::cli::title(puzzle),
        &puzzle.board,
        puzzle.goal.closed,
        report,
        crate::cli::grid_choice(false, false),
    )?;
    let words = String::from_utf8_lossy(&words).into_owned();
    let (status, tour) = match &report.outcome {
        Outcome::Found(t) => ("found", Some(t.clone())),
        Outcome::Impossible(_) => ("impossible", None),
        Outcome::GaveUp { .. } => ("gave_up", None),
        Outcome::Interrupted { .. } => ("stopped", None),
    };
    let mut summary = words.lines().nth(1).unwrap_or_default().to_string();
    if matches!(
        report.outcome,
        Outcome::GaveUp {
            limit: Limit::Time,
            ..
        }
    ) {
        summary = format!("{summary} (the studio's time limit is {time_limit} s)");
    }
    // The files the page may download (`GET /api/runs/ID/FILE`).
    let mut files: Vec<String> = Vec::new();
    if kept.is_some() {
        if tour.is_some() {
            files.extend(["tour.gif", "tour.png", "tour.svg"].map(String::from));
        }
        files.extend(["player.html", "trace.jsonl"].map(String::from));
    }
    let files: Vec<String> = files
        .into_iter()
        .map(|f| format!("/api/runs/{id}/{f}"))
        .collect();
    let squares: Option<Vec<String>> = tour
        .as_ref()
        .map(|t| t.iter().map(|&s| puzzle.board.name(s)).collect());
    event(
        w,
        "report",
        &json!({
            "status": status,
            "summary": summary,
            "text": words,
            "tour": tour,
            "squares": squares,
            "files": files,
        })
        .to_string(),
    )?;
    if let Some((rec, graph)) = kept {
        let scene = Scene::new(puzzle).with_graph(graph);
        let page = html::page_json(&scene, &[Played { rec, report }])?;
        event(w, "player", &page)?;
    }
    event(w, "done", "{}")
}

/// As many slots as cores, and the searches queued for them in order.
struct Slots {
    max: usize,
    state: Mutex<SlotState>,
    moved: Condvar,
}

struct SlotState {
    running: usize,
    next_ticket: u64,
    queue: VecDeque<u64>,
}

/// A slot held: given back when dropped.
pub struct Slot<'a>(&'a Slots);

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        if let Ok(mut s) = self.0.state.lock() {
            s.running = s.running.saturating_sub(1);
        }
        self.0.moved.notify_all();
    }
}

impl Slots {
    fn new(max: usize) -> Slots {
        Slots {
            max,
            state: Mutex::new(SlotState {
                running: 0,
                next_ticket: 0,
                queue: VecDeque::new(),
            }),
            moved: Condvar::new(),
        }
    }

    /// Joins the end of the queue; the ticket.
    fn join(&self) -> u64 {
        let Ok(mut s) = self.state.lock() else {
            return u64::MAX;
        };
        let ticket = s.next_ticket;
        s.next_ticket += 1;
        s.queue.push_back(ticket);
        ticket
    }

    /// Takes a slot when `ticket` is first in the queue and one is free,
    /// waiting at most `wait`; else the ticket's place (1 = next).
    fn take(&self, ticket: u64, wait: Duration) -> Result<Slot<'_>, usize> {
        let Ok(mut s) = self.state.lock() else {
            return Err(usize::MAX);
        };
        let deadline = Instant::now() + wait;
        loop {
            let place = s.queue.iter().position(|&t| t == ticket).unwrap_or(0);
            if place == 0 && s.running < self.max {
                s.queue.pop_front();
                s.running += 1;
                drop(s);
                self.moved.notify_all();
                return Ok(Slot(self));
            }
            let now = Instant::now();
            if now >= deadline {
                // Places count from the next to run: the first waiting.
                return Err(place + 1);
            }
            s = match self.moved.wait_timeout(s, deadline - now) {
                Ok((s, _)) => s,
                Err(_) => return Err(usize::MAX),
            };
        }
    }

    /// Leaves the queue without running.
    fn leave(&self, ticket: u64) {
        if let Ok(mut s) = self.state.lock() {
            s.queue.retain(|&t| t != ticket);
        }
        self.moved.notify_all();
    }
}
