//! Replays the fuzz corpus (fuzz/corpus/TARGET/*) through the library entry
//! points the fuzz targets use: every input found while fuzzing, including
//! those that once crashed, must now pass without a panic.

use std::path::Path;

fn replay(target: &str, run: fn(&[u8])) -> usize {
    let dir = Path::new("fuzz/corpus").join(target);
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
        let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let outcome = std::panic::catch_unwind(|| run(&data));
        assert!(outcome.is_ok(), "{} panics", path.display());
        count += 1;
    }
    count
}

#[test]
fn piece_corpus() {
    assert!(replay("piece", engine::fuzzing::piece) > 0);
}

#[test]
fn board_corpus() {
    assert!(replay("board", engine::fuzzing::board) > 0);
}

#[test]
fn puzzle_corpus() {
    assert!(replay("puzzle", engine::fuzzing::puzzle) > 0);
}
