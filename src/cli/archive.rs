//! `engine archive`: the figures, the list and the runs of the local
//! archive of saved tours. Each takes the flags every command takes:
//! `--format json` prints one JSON object, `--quiet` prints nothing (the
//! exit code says whether the archive was read), and `--time-limit` stops
//! what takes time — drawing a run's GIF; reading needs no limit.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::Subcommand;

use engine::error::{Error, ErrorKind, escape_controls};
use engine::render::gif::{self, Scene};
use engine::render::{json, text};
use engine::solve::Outcome;

use super::gif::GifFlags;
use super::interrupt;
use super::{ArchiveFlag, DONE, Format, bad_flag, flag_error, out};

/// The archive's subcommands.
#[derive(Subcommand)]
pub enum ArchiveCommand {
    /// Per puzzle and solver: runs, distinct tours, nodes or generations, time, success rate.
    Stats {
        /// A puzzle file: keep the rows of every tour kind, start and end on
        /// its board and piece, not only the file's.
        puzzle: Option<PathBuf>,
        #[command(flatten)]
        archive: ArchiveFlag,
        /// Output format: `json` prints the rows as one JSON object.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Stop reading the puzzle file after this many seconds (exit 3);
        /// the figures are read at once, with nothing to stop.
        #[arg(long, value_name = "SECS", value_parser = super::seconds)]
        time_limit: Option<f64>,
        /// Print nothing: the exit code alone says whether the archive was
        /// read.
        #[arg(long, short)]
        quiet: bool,
    },
    /// The most recent runs.
    List {
        /// How many runs to list.
        #[arg(long, default_value_t = 50)]
        limit: usize,
        #[command(flatten)]
        archive: ArchiveFlag,
        /// Output format: `json` prints the runs as one JSON object.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Accepted as by every command; the runs are read at once, with
        /// nothing to stop.
        #[arg(long, value_name = "SECS", value_parser = super::seconds)]
        time_limit: Option<f64>,
        /// Print nothing: the exit code alone says whether the archive was
        /// read.
        #[arg(long, short)]
        quiet: bool,
    },
    /// One run, printed as `run` prints it.
    // `show` draws only the tour's GIF: its defaults alone.
    #[command(
        mut_arg("fps", |a| a.help("Frames per second of the GIF [default: the tour lasts 10 to 16 s]")),
        mut_arg("max_frames", |a| a.help("The most frames the GIF may have [default: 300]"))
    )]
    Show {
        /// The run's id (from `archive list`).
        id: String,
        /// Print the numbered grid even for a large board.
        #[arg(long)]
        grid: bool,
        /// Print the tour's move list even for a large board.
        #[arg(long)]
        moves: bool,
        #[command(flatten)]
        archive: ArchiveFlag,
        /// Write an animated GIF of the run's tour to OUT.
        #[arg(long, value_name = "OUT")]
        gif: Option<PathBuf>,
        /// Search the run's puzzle again (with its seed) and write the search
        /// to OUT as an HTML player, as `run --html` does.
        #[arg(long, value_name = "OUT")]
        html: Option<PathBuf>,
        #[command(flatten)]
        look: GifFlags,
        /// Output format: `json` prints the run as `run --format json` does.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Stop drawing the GIF after this many seconds (exit 3; no GIF is
        /// written).
        #[arg(long, value_name = "SECS", value_parser = super::seconds)]
        time_limit: Option<f64>,
        /// Print nothing (a GIF asked is still written): the exit code
        /// alone says whether the run is there.
        #[arg(long, short)]
        quiet: bool,
        /// Replace an output file that exists even when it seems to be of
        /// another kind (judged by its first bytes: a puzzle file, a database,
        /// a text…); without it such a file is refused.
        #[arg(long)]
        force: bool,
    },
}

/// Runs `engine archive …`; the exit code.
pub fn exec(cmd: ArchiveCommand) -> Result<u8, Error> {
    let started = Instant::now();
    match cmd {
        ArchiveCommand::Stats {
            puzzle,
            archive,
            format,
            time_limit,
            quiet,
        } => {
            // The puzzle file is read under the limit: it may be large.
            let only = match puzzle {
                Some(path) => {
                    interrupt::install();
                    let limits = interrupt::limits().with_time_from(started, time_limit);
                    let file = path.clone();
                    match super::watch::within(&limits, move || engine::puzzle::Puzzle::load(&file))
                    {
                        Ok(p) => Some(p?),
                        Err(stop) => {
                            out::warn(format_args!(
                                "{}: {stop} before the puzzle was read",
                                path.display()
                            ));
                            return Ok(match stop {
                                engine::halt::Stop::Limit(_) => super::GAVE_UP,
                                _ => super::INTERRUPTED_CODE,
                            });
                        }
                    }
                }
                None => None,
            };
            let store = archive.open_existing()?;
            let rows = store.stats(only.as_ref())?;
            skipped(&rows.skipped);
            if quiet {
                return Ok(DONE);
            }
            match format {
                Format::Json => out::print(&report(&json::StatsJson::new(store.path(), &rows))?)?,
                Format::Text if rows.is_empty() && rows.skipped.is_empty() => out::print(
                    &format!("No runs saved in {} yet.\n", store.path().display()),
                )?,
                Format::Text if rows.is_empty() => out::print(&format!(
                    "No run in {} reads: {} damaged.\n",
                    store.path().display(),
                    match rows.skipped.len() {
                        1 => "the one saved is".to_string(),
                        n => format!("all {n} saved are"),
                    }
                ))?,
                Format::Text => out::print(&text::archive_stats(&rows))?,
            }
            Ok(DONE)
        }
        ArchiveCommand::List {
            limit,
            archive,
            format,
            time_limit: _,
            quiet,
        } => {
            let store = archive.open_existing()?;
            let rows = store.list(limit)?;
            skipped(&rows.skipped);
            if quiet {
                return Ok(DONE);
            }
            out::print(&match format {
                Format::Text => text::archive_list(&rows),
                Format::Json => report(&json::ListJson::new(store.path(), &rows))?,
            })?;
            Ok(DONE)
        }
        ArchiveCommand::Show {
            id,
            grid,
            moves,
            archive,
            gif: gif_path,
            html: html_path,
            look,
            format,
            time_limit,
            quiet,
            force,
        } => {
            let gif_opts = look.options(None)?;
            let number: i64 = id.trim().parse().map_err(|_| {
                bad_flag(
                    "ID",
                    &id,
                    "a run id is a whole number (see `engine archive list`)",
                )
            })?;
            let store = archive.open_existing()?;
            let Some(run) = store.show(number)? else {
                return Err(flag_error(
                    ErrorKind::UnknownName,
                    "ID",
                    &id,
                    format!("no run {number} in {}", store.path().display()),
                ));
            };
            let p = &run.puzzle;
            super::gif::check_memory(p, &gif_opts, gif_path.is_some(), false)?;
            let [gif_out, html_out] = super::gif::outputs(
                None,
                &[Some(store.path())],
                [
                    ("--gif", gif_path.as_deref()),
                    ("--html", html_path.as_deref()),
                ],
                force,
            )?;
            if !quiet {
                match format {
                    Format::Text => out::print(&format!(
                        "{}Saved {} from {}\n",
                        text::report_text(
                            &super::title(p),
                            &p.board,
                            p.goal.closed,
                            &run.report,
                            super::grid_choice(grid, moves),
                        ),
                        escape_controls(&run.created),
                        escape_controls(&p.file)
                    ))?,
                    Format::Json => {
                        // Streamed, as `run` writes it: a huge tour's
                        // squares are many megabytes.
                        let mut stdout = out::stdout();
                        let mut w = std::io::BufWriter::with_capacity(1 << 16, &mut stdout);
                        json::RunJson::new(
                            &p.name,
                            &p.board,
                            &p.piece,
                            p.goal.closed,
                            &run.report,
                            Some(number),
                        )
                        .write(&mut w)
                        .and_then(|()| writeln!(w))
                        .and_then(|()| w.flush())
                        .map_err(out::failed)?;
                    }
                }
            }
            if let Some(file) = html_out {
                interrupt::install();
                let limits = interrupt::limits().with_time_from(started, time_limit);
                let Ok(graph) = p.graph(&limits) else {
                    out::warn(format_args!(
                        "stopped: no player was written to {}",
                        file.path().display()
                    ));
                    return Ok(super::GAVE_UP);
                };
                let progress = engine::progress::Progress::new();
                let recorded =
                    super::player::record(p, &graph, p.solver, limits, &progress, &gif_opts);
                let (again, rec) = match recorded {
                    Ok(r) => r,
                    Err(bug) => {
                        out::warn(bug);
                        return Ok(super::BUG);
                    }
                };
                if again.outcome.path() != run.report.outcome.path() {
                    out::warn(format_args!(
                        "the search again ended otherwise than run {number} (a limit, or another version of engine): the player shows the new search"
                    ));
                }
                if let Err(e) = super::player::write(file, p, &graph, &[(&again, &rec)]) {
                    out::warn(Error::about(
                        ErrorKind::Io,
                        &html_path
                            .as_deref()
                            .map(|p| p.display().to_string())
                            .unwrap_or_default(),
                        format!("cannot write the player: {e}"),
                    ));
                    return Ok(super::BAD_INPUT);
                }
            }
            if let Some(file) = gif_out {
                let Outcome::Found(tour) = &run.report.outcome else {
                    out::warn(format_args!(
                        "run {number} has no tour, so no GIF was written to {}",
                        file.path().display()
                    ));
                    return Ok(DONE);
                };
                interrupt::install();
                let limits = interrupt::limits().with_time_from(started, time_limit);
                let scene = Scene::new(p);
                let r = file.write(|w| gif::tour_gif(w, &scene, tour, &gif_opts, &limits));
                if let Some(c) = super::gif::failed("GIF", &gif_path, r) {
                    return Ok(c);
                }
            }
            Ok(DONE)
        }
    }
}

/// Warns of the damaged runs a table leaves out: which run, which column,
/// what it holds.
fn skipped(damage: &[engine::archive::Damage]) {
    for d in damage {
        out::warn(format_args!("warning: {d}; it is left out"));
    }
}

/// A JSON report as one line.
fn report<T: serde::Serialize>(r: &T) -> Result<String, Error> {
    json::line(r).map_err(|e| Error::about(ErrorKind::Internal, "the JSON output", e.to_string()))
}
