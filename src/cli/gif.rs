//! The GIF flags shared by `run` and `archive show` (and `run`'s
//! `--steps`, for its search GIF): checked, sized against the memory budget
//! before any work, and the output file opened early so a bad path fails
//! at once.

use std::path::{Path, PathBuf};

use engine::budget;
use engine::error::{Error, ErrorKind};
use engine::output::{Kind, PendingFile};
use engine::puzzle::Puzzle;
use engine::render::gif::{self, GifError, GifOptions, Layout, Style};

use super::{BAD_INPUT, GAVE_UP, INTERRUPTED_CODE, bad_flag, flag_error};

/// How the path is drawn (`--style`).
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum StyleName {
    /// Visited squares numbered with their step.
    Numbers,
    /// The path over the squares, no numbers.
    Path,
    /// The path coloured by step, blue to orange.
    Gradient,
}

/// How GIFs look.
#[derive(clap::Args)]
pub struct GifFlags {
    /// Pixels per board square in GIFs [default: 48, less on boards over
    /// 640 pixels a side].
    #[arg(long, value_name = "PX")]
    pub cell: Option<u32>,
    /// Frames per second of GIFs [default: a tour lasts 10 to 16 s; a
    /// search shows 4 steps a second].
    #[arg(long, value_name = "N")]
    pub fps: Option<u32>,
    /// The most frames a GIF may have [default: 300 for a tour, 200 for a
    /// search].
    #[arg(long, value_name = "N")]
    pub max_frames: Option<usize>,
    /// How the path is drawn [default: numbers where they fit, else path,
    /// else gradient].
    #[arg(long, value_enum)]
    pub style: Option<StyleName>,
}

/// The flag of the search GIF alone (`run` draws one, `archive show` not).
#[derive(clap::Args)]
pub struct StepsFlag {
    /// The search's events drawn one by one in the search GIF, like 1..300
    /// (the rest as a time-lapse), or `none` [default: 1..100; 1..10 on
    /// cells under 12 pixels, none under 6].
    #[arg(long, value_name = "A..B")]
    pub steps: Option<String>,
}

impl GifFlags {
    /// The flags, with `--steps` (`steps`, from `run`), checked.
    pub fn options(&self, steps: Option<&str>) -> Result<GifOptions, Error> {
        if let Some(cell) = self.cell
            && !(4..=256).contains(&cell)
        {
            return Err(bad_flag(
                "--cell",
                &cell.to_string(),
                "the cell size must be 4 to 256 pixels",
            ));
        }
        if let Some(fps) = self.fps
            && !(1..=50).contains(&fps)
        {
            return Err(bad_flag(
                "--fps",
                &fps.to_string(),
                "the frame rate must be 1 to 50 frames per second",
            ));
        }
        if let Some(max) = self.max_frames
            && max < 2
        {
            return Err(bad_flag(
                "--max-frames",
                &max.to_string(),
                "a GIF needs at least 2 frames",
            ));
        }
        let steps = match steps {
            None => None,
            Some(text) => Some(parse_steps(text).ok_or_else(|| {
                bad_flag(
                    "--steps",
                    text,
                    "expected the first and last event to draw one by one, like 1..300, or none",
                )
            })?),
        };
        Ok(GifOptions {
            cell: self.cell,
            fps: self.fps,
            max_frames: self.max_frames,
            style: self.style.map(|s| match s {
                StyleName::Numbers => Style::Numbers,
                StyleName::Path => Style::Path,
                StyleName::Gradient => Style::Gradient,
            }),
            steps,
        })
    }
}

/// `A..B` (1 <= A <= B) as (A, B); `none` as an empty window.
fn parse_steps(text: &str) -> Option<(u64, u64)> {
    if text.trim() == "none" {
        return Some((1, 0));
    }
    let (a, b) = text.split_once("..")?;
    let (a, b): (u64, u64) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
    (1 <= a && a <= b).then_some((a, b))
}

/// The GIF output files the flags name (`(flag, path)`), checked before
/// any work so a bad output fails at once, with nothing written: each must
/// be a regular file or not exist yet (a symbolic link stands for the file
/// it points to), none may be the puzzle file, the archive (or its
/// journal), or another output, and an existing one must be of the flag's
/// own kind unless `force` ([`super::own_kind`]). They are written only at
/// the end.
pub fn outputs<const N: usize>(
    puzzle: Option<&Path>,
    archives: &[Option<&Path>],
    flags: [(&str, Option<&Path>); N],
    force: bool,
) -> Result<[Option<PendingFile>; N], Error> {
    // Standard input (`-`) is no file.
    let puzzle = puzzle.filter(|p| p.as_os_str() != "-");
    let mut inputs: Vec<(&str, Option<PathBuf>)> =
        vec![("the puzzle file", puzzle.map(Path::to_path_buf))];
    for a in archives.iter().flatten() {
        inputs.push(("the archive", Some(a.to_path_buf())));
        for suffix in ["-wal", "-shm", "-journal"] {
            let mut name = a.as_os_str().to_owned();
            name.push(suffix);
            inputs.push(("the archive's journal", Some(name.into())));
        }
    }
    let inputs: Vec<(&str, Option<&Path>)> =
        inputs.iter().map(|(w, p)| (*w, p.as_deref())).collect();
    super::distinct_outputs(&flags, &inputs)?;
    for (flag, path) in flags {
        if let Some(path) = path {
            super::own_kind(flag, path, &kind_of_flag(flag), force)?;
        }
    }
    let mut out = Vec::with_capacity(N);
    for (flag, path) in flags {
        out.push(
            path.map(|p| {
                PendingFile::create(p).map_err(|e| {
                    flag_error(
                        ErrorKind::Io,
                        flag,
                        &p.display().to_string(),
                        format!(
                            "cannot write {} here: {e}",
                            match flag {
                                "--trace" => "the trace",
                                "--png" => "a PNG",
                                "--svg" => "an SVG",
                                "--html" => "the player",
                                _ => "a GIF",
                            }
                        ),
                    )
                })
            })
            .transpose()?,
        );
    }
    out.try_into().map_err(|_| {
        Error::about(
            ErrorKind::Internal,
            "GIF",
            "the outputs could not be listed",
        )
    })
}

/// The kind of file a drawing flag writes.
fn kind_of_flag(flag: &str) -> Kind {
    match flag {
        "--trace" => engine::render::trace::KIND,
        "--png" => Kind::PNG,
        "--svg" => Kind::SVG,
        "--html" => Kind::HTML,
        _ => Kind::GIF,
    }
}

/// Refuses GIFs that cannot be drawn as asked, before the search starts:
/// step numbers that do not fit the cell (at `--style`), a step window
/// larger than the frame budget (at `--steps`), and GIFs that would need
/// more than [`budget::GIF`] (at `--max-frames` when the search's samples
/// are what does not fit, else at `--cell`).
pub fn check_memory(
    puzzle: &Puzzle,
    opts: &GifOptions,
    tour: bool,
    search: bool,
) -> Result<(), Error> {
    if opts.style == Some(Style::Numbers) {
        let need = Layout::numbers_need(&puzzle.board);
        let cell = opts.cell_for(&puzzle.board);
        if Layout::board_cell(&puzzle.board, cell) < need {
            let help = if Layout::board_cell(&puzzle.board, 256) >= need {
                format!("--cell {need} fits them; or --style path")
            } else {
                "--style path or --style gradient".to_string()
            };
            return Err(bad_flag(
                "--style",
                "numbers",
                format!(
                    "step numbers need {need} pixels a square on this board, and it gets {}",
                    Layout::board_cell(&puzzle.board, cell)
                ),
            )
            .with_help(help));
        }
    }
    if let Some((first, last)) = opts.steps {
        let most = opts.search_frames() - 1;
        if last >= first && last - first + 1 > most as u64 {
            return Err(flag_error(
                ErrorKind::TooBig,
                "--steps",
                &format!("{first}..{last}"),
                format!(
                    "{} steps do not fit in {} frames",
                    last - first + 1,
                    opts.search_frames()
                ),
            )
            .with_help(format!("--max-frames {} fits them", last - first + 2)));
        }
    }
    let need = |opts: &GifOptions| gif::memory(&puzzle.board, opts, tour, search);
    let now = need(opts);
    if now.total() <= budget::GIF {
        return Ok(());
    }
    let image = format!(
        "{}x{}-pixel images ({} to draw and encode)",
        now.width,
        now.height,
        budget::bytes(now.drawing)
    );
    let why = |frames: &str| {
        format!(
            "the {} could need {}: {image}{frames}, more than the {} allowed",
            if tour && search { "GIFs" } else { "GIF" },
            budget::bytes_over(now.total(), budget::GIF),
            budget::bytes(budget::GIF)
        )
    };
    if now.drawing <= budget::GIF {
        // The snapshots do not fit: the most frames that do (2 is the least
        // a GIF has).
        let fits = |frames: usize| {
            need(&GifOptions {
                max_frames: Some(frames),
                ..*opts
            })
            .total()
                <= budget::GIF
        };
        let asked = opts.search_frames();
        let frames = format!(
            " and up to {} snapshots of the search over {} squares, kept until its GIF is drawn ({})",
            asked - 1,
            puzzle.board.len(),
            budget::bytes(now.recording)
        );
        let help = match budget::largest_that_fits(2, asked, fits) {
            Some(most) => format!("--max-frames {most} fits"),
            None => "no search GIF fits a board this large; --gif draws the tour alone".to_string(),
        };
        let value = asked.to_string();
        return Err(
            flag_error(ErrorKind::TooBig, "--max-frames", &value, why(&frames)).with_help(help),
        );
    }
    // Not reached with today's layout, which keeps an image within 4,096
    // pixels of board a side (see the GIF module's tests).
    let cell = opts.cell_for(&puzzle.board).to_string();
    Err(flag_error(ErrorKind::TooBig, "--cell", &cell, why("")).with_help("a smaller --cell fits"))
}

/// Reports a failed write of a picture (`what`: GIF, PNG or SVG); the
/// exit code to end with, if it failed. A limit or Ctrl-C while it was
/// drawn (or a Ctrl-C just before it was put in place) leaves no file:
/// exit 3 or 130.
pub fn failed<T>(what: &str, path: &Option<PathBuf>, r: Result<T, GifError>) -> Option<u8> {
    let name = path
        .as_deref()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let stopped = |stop: engine::halt::Stop| {
        super::out::warn(format_args!("{stop}: no {what} was written to {name}"));
        Some(match stop {
            engine::halt::Stop::Limit(_) => GAVE_UP,
            _ => INTERRUPTED_CODE,
        })
    };
    match r {
        Ok(_) => None,
        Err(GifError::Stopped(stop)) => stopped(stop),
        Err(GifError::Io(e)) if e.kind() == std::io::ErrorKind::Interrupted => {
            stopped(engine::halt::Stop::Interrupted)
        }
        Err(GifError::Io(e)) => {
            super::out::warn(Error::about(
                ErrorKind::Io,
                &name,
                format!("cannot write the {what}: {e}"),
            ));
            Some(BAD_INPUT)
        }
    }
}
