//! The GIF flags shared by `run` and `archive show`: checked, sized against
//! the memory budget before any work, and the output file opened early so a
//! bad path fails at once.

use std::path::{Path, PathBuf};

use engine::budget;
use engine::error::Error;
use engine::output::PendingFile;
use engine::puzzle::Puzzle;
use engine::render::gif::{self, GifError, GifOptions};

use super::{BAD_INPUT, INTERRUPTED_CODE, bad_flag};

/// How GIFs look.
#[derive(clap::Args)]
pub struct GifFlags {
    /// Pixels per board square in GIFs.
    #[arg(long, value_name = "PX", default_value_t = 48)]
    pub cell: u32,
    /// Frames per second of GIFs.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub fps: u32,
    /// The most frames a GIF may have.
    #[arg(long, value_name = "N", default_value_t = 600)]
    pub max_frames: usize,
}

impl GifFlags {
    /// The flags, checked.
    pub fn options(&self) -> Result<GifOptions, Error> {
        if !(4..=256).contains(&self.cell) {
            return Err(bad_flag(
                "--cell",
                &self.cell.to_string(),
                "the cell size must be 4 to 256 pixels",
            ));
        }
        if !(1..=50).contains(&self.fps) {
            return Err(bad_flag(
                "--fps",
                &self.fps.to_string(),
                "the frame rate must be 1 to 50 frames per second",
            ));
        }
        if self.max_frames < 2 {
            return Err(bad_flag(
                "--max-frames",
                &self.max_frames.to_string(),
                "a GIF needs at least 2 frames",
            ));
        }
        Ok(GifOptions {
            cell: self.cell,
            fps: self.fps,
            max_frames: self.max_frames,
        })
    }
}

/// The GIF output files the flags name (`(flag, path)`), checked before
/// any work so a bad output fails at once, with nothing written: each must
/// be a regular file or not exist yet (a symbolic link stands for the file
/// it points to), and none may be the puzzle file, the archive (or its
/// journal), or another output. They are written only at the end.
pub fn outputs<const N: usize>(
    puzzle: Option<&Path>,
    archives: &[Option<&Path>],
    flags: [(&str, Option<&Path>); N],
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
    let mut out = Vec::with_capacity(N);
    for (flag, path) in flags {
        out.push(
            path.map(|p| {
                PendingFile::create(p).map_err(|e| {
                    bad_flag(
                        flag,
                        &p.display().to_string(),
                        format!("cannot write a GIF here: {e}"),
                    )
                })
            })
            .transpose()?,
        );
    }
    out.try_into()
        .map_err(|_| Error::about("GIF", "the outputs could not be listed"))
}

/// Refuses GIFs that would need more than [`budget::GIF`], before the
/// search starts: at `--max-frames` when the search's snapshots are what
/// does not fit, else at `--cell`.
pub fn check_memory(
    puzzle: &Puzzle,
    opts: &GifOptions,
    tour: bool,
    search: bool,
) -> Result<(), Error> {
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
                max_frames: frames,
                ..*opts
            })
            .total()
                <= budget::GIF
        };
        let frames = format!(
            " and up to {} snapshots of the search over {} squares, kept until its GIF is drawn ({})",
            opts.max_frames - 1,
            puzzle.board.len(),
            budget::bytes(now.recording)
        );
        let help = match budget::largest_that_fits(2, opts.max_frames, fits) {
            Some(most) => format!("--max-frames {most} fits"),
            None => "no search GIF fits a board this large; --gif draws the tour alone".to_string(),
        };
        let value = opts.max_frames.to_string();
        return Err(bad_flag("--max-frames", &value, why(&frames)).with_help(help));
    }
    // Not reached with today's layout, which keeps an image within 4,096
    // pixels of board a side (see the GIF module's tests).
    Err(bad_flag("--cell", &opts.cell.to_string(), why("")).with_help("a smaller --cell fits"))
}

/// Reports a failed GIF write; the exit code to end with, if it failed.
pub fn failed<T>(path: &Option<PathBuf>, r: Result<T, GifError>) -> Option<u8> {
    let name = path
        .as_deref()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    match r {
        Ok(_) => None,
        Err(GifError::Stopped(stop)) => {
            super::out::warn(format_args!("{stop}: no GIF was written to {name}"));
            Some(INTERRUPTED_CODE)
        }
        Err(GifError::Io(e)) => {
            super::out::warn(Error::about(&name, format!("cannot write the GIF: {e}")));
            Some(BAD_INPUT)
        }
    }
}
