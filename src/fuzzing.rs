//! Entry points for fuzzing (and for replaying the fuzz corpus in tests):
//! each takes arbitrary bytes and must never panic, hang or exhaust memory.

use crate::halt::Never;
use crate::model::MoveGraph;
use crate::puzzle::Puzzle;
use crate::solve::backtrack::BacktrackOptions;
use crate::solve::{Outcome, Solver};

/// The largest board the fuzz entry points build a move graph for; larger
/// boards are only parsed (building them is correct but slow, which a fuzzer
/// reports as a hang).
const GRAPH_CELLS: u64 = 4096;

/// Piece expressions.
pub fn piece(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(p) = crate::puzzle::lang::resolve_piece(text, 0, &[])
    {
        assert!(!p.moves().is_empty());
    }
}

/// Board expressions (and picture boards).
pub fn board(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data)
        && text.len() < 1 << 16
        && let Ok(b) = crate::puzzle::lang::parse_board(text, 0)
    {
        assert!(!b.is_empty());
        assert!(b.len() <= b.width() as usize * b.height() as usize);
    }
}

/// Whole puzzle files: parse, then on small boards build the graph, run the
/// quick proofs and a short search, and verify any tour found.
pub fn puzzle(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(p) = Puzzle::parse("fuzz.ron", text) else {
        return;
    };
    let cells = u64::from(p.board.width()) * u64::from(p.board.height());
    if cells > GRAPH_CELLS || MoveGraph::estimate_bytes(&p.board, &p.piece) > 1 << 24 {
        return;
    }
    let Ok(g) = p.graph(&Never);
    let Ok(a) = crate::analysis::analyse(&g, &p.goal, &p.board, &Never);
    let opts = BacktrackOptions {
        node_limit: Some(20_000),
        ..BacktrackOptions::default()
    };
    let r = opts.solve_quietly(&p.task(&g));
    if let Outcome::Found(t) = &r.outcome {
        assert!(a.impossible.is_none(), "a proof contradicts a tour");
        assert_eq!(
            crate::verify::verify(&p.board, &p.piece, &p.goal, t),
            Ok(())
        );
    }
}
