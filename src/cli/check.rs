//! `engine check`: parse a puzzle and print what is known without
//! searching; exit 1 when a proof rules every tour out.

use std::path::PathBuf;

use engine::analysis;
use engine::error::Error;
use engine::halt::Never;
use engine::render::text;

use super::{DONE, IMPOSSIBLE};

/// `engine check`'s flags.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// The puzzle file (RON).
    puzzle: PathBuf,
    /// Print the grid even for a large board.
    #[arg(long)]
    grid: bool,
}

/// Runs `engine check`; the exit code.
pub fn exec(args: CheckArgs) -> Result<u8, Error> {
    let puzzle = super::load(&args.puzzle)?;
    let Ok(graph) = puzzle.graph(&Never);
    let name = |s| puzzle.board.name(s);
    let Ok(a) = analysis::analyse_board(
        &graph,
        &puzzle.goal,
        &puzzle.board,
        &puzzle.piece,
        &name,
        &Never,
    );
    print!(
        "{}",
        text::check_report(
            &super::title(&puzzle),
            &puzzle.board,
            &puzzle.piece_text,
            &puzzle.piece,
            &a,
            args.grid
        )
    );
    Ok(if a.impossible.is_some() {
        IMPOSSIBLE
    } else {
        DONE
    })
}
