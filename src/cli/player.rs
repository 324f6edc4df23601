//! The HTML player's recordings (`run --html`, `--compare`, `archive show
//! --html`): a search recorded with the search GIF's recorder and sampling
//! (a larger budget by default: a page costs little per step), and the
//! page written whole or not at all.

use engine::halt::Limits;
use engine::model::MoveGraph;
use engine::output::PendingFile;
use engine::progress::Progress;
use engine::puzzle::Puzzle;
use engine::render::gif::{GifOptions, Scene};
use engine::render::html::{self, Played};
use engine::render::record::Recorder;
use engine::solve::{Report, Run, SolverSpec, runner};

/// The player's default samples: steps and time-lapse together.
pub const PLAYER_FRAMES: usize = 1000;
/// The player's default step window: events 1 to this one by one.
pub const PLAYER_STEPS: u64 = 500;

/// The recorder for a player: `--steps` and `--max-frames` as given, else
/// the player's defaults.
pub fn recorder(opts: &GifOptions) -> Recorder {
    GifOptions {
        max_frames: Some(opts.max_frames.unwrap_or(PLAYER_FRAMES)),
        steps: Some(opts.steps.unwrap_or((1, PLAYER_STEPS))),
        ..*opts
    }
    .recorder()
}

/// Searches `puzzle` on `graph` with `spec`, recorded for the player.
pub fn record(
    puzzle: &Puzzle,
    graph: &MoveGraph,
    spec: SolverSpec,
    limits: Limits<'_>,
    progress: &Progress,
    opts: &GifOptions,
) -> Result<(Report, Recorder), runner::InvalidTour> {
    let mut rec = recorder(opts);
    let report = runner::solve(
        &puzzle.task(graph),
        spec,
        Run::new(limits, progress, &mut rec),
    )?;
    Ok((report, rec))
}

/// Writes the player of `runs` on `puzzle`'s board to `file`.
pub fn write(
    file: PendingFile,
    puzzle: &Puzzle,
    graph: &MoveGraph,
    runs: &[(&Report, &Recorder)],
) -> std::io::Result<()> {
    let scene = Scene::new(puzzle).with_graph(graph);
    let played: Vec<Played> = runs
        .iter()
        .map(|&(report, rec)| Played { rec, report })
        .collect();
    file.write(|w| html::write_player(w, &scene, &played))
}
