//! `engine archive`: the figures, the list and the runs of the local
//! archive of saved tours.

use std::path::PathBuf;

use clap::Subcommand;

use engine::error::{Error, ErrorKind, escape_controls};
use engine::render::gif::{self, Scene};
use engine::render::text;
use engine::solve::Outcome;

use super::gif::GifFlags;
use super::interrupt;
use super::{ArchiveFlag, DONE, bad_flag, flag_error, out};

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
    },
    /// The most recent runs.
    List {
        /// How many runs to list.
        #[arg(long, default_value_t = 50)]
        limit: usize,
        #[command(flatten)]
        archive: ArchiveFlag,
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
        #[command(flatten)]
        archive: ArchiveFlag,
        /// Write an animated GIF of the run's tour to OUT.
        #[arg(long, value_name = "OUT")]
        gif: Option<PathBuf>,
        #[command(flatten)]
        look: GifFlags,
    },
}

/// Runs `engine archive …`; the exit code.
pub fn exec(cmd: ArchiveCommand) -> Result<u8, Error> {
    match cmd {
        ArchiveCommand::Stats { puzzle, archive } => {
            let only = puzzle
                .as_deref()
                .map(engine::puzzle::Puzzle::load)
                .transpose()?;
            let store = archive.open_existing()?;
            let rows = store.stats(only.as_ref())?;
            if rows.is_empty() {
                out::print(&format!(
                    "No runs saved in {} yet.\n",
                    store.path().display()
                ))?;
            } else {
                out::print(&text::archive_stats(&rows))?;
            }
            Ok(DONE)
        }
        ArchiveCommand::List { limit, archive } => {
            let store = archive.open_existing()?;
            out::print(&text::archive_list(&store.list(limit)?))?;
            Ok(DONE)
        }
        ArchiveCommand::Show {
            id,
            grid,
            archive,
            gif: gif_path,
            look,
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
            let [gif_out] = super::gif::outputs(
                None,
                &[Some(store.path())],
                [("--gif", gif_path.as_deref())],
            )?;
            out::print(&format!(
                "{}Saved {} from {}\n",
                text::report_text(
                    &super::title(p),
                    &p.board,
                    p.goal.closed,
                    &run.report,
                    super::grid_choice(grid),
                ),
                run.created,
                escape_controls(&p.file)
            ))?;
            if let Some(file) = gif_out {
                let Outcome::Found(tour) = &run.report.outcome else {
                    out::warn(format_args!(
                        "run {number} has no tour, so no GIF was written to {}",
                        file.path().display()
                    ));
                    return Ok(DONE);
                };
                interrupt::install();
                let scene = Scene::new(p);
                let r =
                    file.write(|w| gif::tour_gif(w, &scene, tour, &gif_opts, &interrupt::limits()));
                if let Some(c) = super::gif::failed(&gif_path, r) {
                    return Ok(c);
                }
            }
            Ok(DONE)
        }
    }
}
