//! The count's one entry point (`count::count_job`, `count::count_task`):
//! the counter it picks and why, the fallback from the frontier to the
//! search, proofs, symmetries that move no square, the refusals, stops
//! before the count; and that the library's text and counts name no
//! command-line flag.

use engine::count::{
    self, Count, CountError, CountRequest, Field, Method, OneSearch, Shard, Status, Work,
};
use engine::halt::{Limit, Limits, Stop};
use engine::model::TourSymmetry;
use engine::progress::Progress;
use engine::puzzle::Puzzle;

use crate::util::puzzle;

/// Counts `p` as `request` asks, under `limits`.
fn count_within(
    p: &Puzzle,
    request: &CountRequest,
    limits: &Limits<'_>,
) -> Result<Count, CountError> {
    let job = count::Job {
        board: &p.board,
        piece: &p.piece,
        goal: p.goal,
        constraints: &p.constraints,
    };
    count::count_job(&job, request, limits, &Progress::new())
}

/// Counts `p` as `request` asks, with no limits.
fn count_of(p: &Puzzle, request: &CountRequest) -> Result<Count, CountError> {
    count_within(p, request, &Limits::none())
}

/// The method that counted, by its report name.
fn method(c: &Count) -> Option<&'static str> {
    c.work().map(Work::name)
}

#[test]
fn the_estimates_pick_the_frontier_and_a_request_the_search() {
    let p = puzzle(r#"Puzzle(board: "5x5", piece: "knight")"#);
    let c = count_of(&p, &CountRequest::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (c.tours, c.status(), method(&c)),
        (1728, Status::Complete, Some("frontier"))
    );
    let used = c
        .method
        .as_ref()
        .map(|m| (m.asked, m.why.contains("depth-first")));
    assert_eq!(used, Some((false, true)), "{c:?}");
    let asked = CountRequest {
        method: Some(Method::Dfs),
        ..CountRequest::default()
    };
    let c = count_of(&p, &asked).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((c.tours, method(&c)), (1728, Some("dfs")));
    let used = c.method.as_ref().map(|m| (m.asked, m.why.as_str()));
    assert_eq!(used, Some((true, "as asked")));
    assert_eq!(
        c.work().and_then(Work::search).map(|s| s.tasks_done > 0),
        Some(true)
    );
}

#[test]
fn a_frontier_count_over_its_memory_falls_back_to_the_search() {
    // On a board that wraps the frontier is tried first, with no estimate;
    // 1 KiB is too little for its states.
    let p = puzzle(r#"Puzzle(board: "3x5 torus", piece: "knight", tour: Closed)"#);
    let small = CountRequest {
        memory: 1024,
        ..CountRequest::default()
    };
    let fell_back = count_of(&p, &small).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(method(&fell_back), Some("dfs"), "{fell_back:?}");
    let why = fell_back
        .method
        .as_ref()
        .map(|m| m.why.clone())
        .unwrap_or_default();
    assert!(
        why.contains("tried first; its states passed 1 KiB at square"),
        "{why}"
    );
    // With room, the subsets are cheaper still on these 15 squares; the
    // frontier asked for counts the same.
    let chosen = count_of(&p, &CountRequest::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(method(&chosen), Some("subset"), "{chosen:?}");
    let frontier = count_of(
        &p,
        &CountRequest {
            method: Some(Method::Frontier),
            ..CountRequest::default()
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(method(&frontier), Some("frontier"), "{frontier:?}");
    assert_eq!(
        (chosen.tours, chosen.cycles_x2),
        (frontier.tours, frontier.cycles_x2)
    );
    assert_eq!(
        (fell_back.tours, fell_back.cycles_x2),
        (frontier.tours, frontier.cycles_x2)
    );
    assert_eq!(fell_back.tours, 317_831_760);
    // Asked for, the frontier is refused instead.
    let asked = CountRequest {
        method: Some(Method::Frontier),
        ..small
    };
    match count_of(&p, &asked) {
        Err(e @ CountError::FrontierUnfit(count::frontier::Unfit::TooBig { .. })) => {
            assert_eq!(e.field(), Some(Field::Method));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_proof_settles_the_count() {
    let p = puzzle(r#"Puzzle(board: "5x5", piece: "knight", tour: Closed)"#);
    let c = count_of(&p, &CountRequest::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.status(), Status::Proven);
    assert_eq!((c.tours, c.cycles_x2, method(&c)), (0, Some(0), None));
    assert!(c.proof.is_some_and(|p| p.contains("dark squares")));
}

#[test]
fn a_symmetry_that_moves_no_square_counts_every_closed_tour() {
    // The mirror of the ranks of a board of one rank.
    let p = puzzle(r#"Puzzle(board: "5x1", piece: "WD", tour: Closed, symmetry: MirrorRanks)"#);
    let c = count_of(&p, &CountRequest::default()).unwrap_or_else(|e| panic!("{e}"));
    let plain = puzzle(r#"Puzzle(board: "5x1", piece: "WD", tour: Closed)"#);
    let every = count_of(&plain, &CountRequest::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((c.tours, c.cycles_x2), (every.tours, every.cycles_x2));
    assert_eq!((c.tours, c.cycles()), (10, Some(1)));
    assert_eq!(
        (method(&c), c.turned(), c.folded()),
        (Some("symmetric"), None, None)
    );
    assert_eq!(
        c.symmetric().map(|s| s.symmetry),
        Some(TourSymmetry::MirrorRanks)
    );
    // An open tour's ends cannot change places under it.
    let open = puzzle(r#"Puzzle(board: "5x1", piece: "WD", symmetry: MirrorRanks)"#);
    let c = count_of(&open, &CountRequest::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((c.status(), c.tours), (Status::Proven, 0));
    assert!(c.proof.is_some_and(|p| p.contains("moves no square")));
}

#[test]
fn one_search_is_not_split_nor_counted_by_the_frontier() {
    let clued = puzzle(
        r##"Puzzle(piece: "knight", clues: r#"
            .  .  .  . 25
            .  .  .  .  .
            .  .  .  .  .
            .  .  .  .  .
            1  .  .  .  .
        "#)"##,
    );
    let mirror =
        puzzle(r#"Puzzle(board: "6x5", piece: "knight", tour: Closed, symmetry: MirrorFiles)"#);
    let shard = CountRequest {
        shard: Shard::new(1, 2),
        ..CountRequest::default()
    };
    let frontier = CountRequest {
        method: Some(Method::Frontier),
        ..CountRequest::default()
    };
    let sym = OneSearch::Symmetry(TourSymmetry::MirrorFiles);
    for (p, request, error, field) in [
        (
            &clued,
            shard,
            CountError::OneSearchInShards(OneSearch::Clues),
            Field::Shard,
        ),
        (
            &clued,
            frontier,
            CountError::FrontierOfOneSearch(OneSearch::Clues),
            Field::Method,
        ),
        (
            &mirror,
            shard,
            CountError::OneSearchInShards(sym),
            Field::Shard,
        ),
        (
            &mirror,
            frontier,
            CountError::FrontierOfOneSearch(sym),
            Field::Method,
        ),
    ] {
        let got = count_of(p, &request);
        assert_eq!(got.as_ref().err(), Some(&error), "{got:?}");
        assert_eq!(error.field(), Some(field));
    }
    let plain = puzzle(r#"Puzzle(board: "5x5", piece: "knight")"#);
    let both = CountRequest {
        shard: Shard::new(1, 2),
        ..frontier
    };
    // The frontier counts in shards: pairs of ends, weighted.
    let half = count_of(&plain, &both).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(method(&half), Some("frontier"));
    assert!(half.tours > 0 && half.tours < 1728, "{}", half.tours);
    // The clue search counts what the frontier may not.
    let c = count_of(&clued, &CountRequest::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (method(&c), c.clues(), c.cycles_x2),
        (Some("clues"), Some(2), None)
    );
    assert!(c.tours > 0);
}

#[test]
fn a_stop_before_the_count_spares_a_shards_setup() {
    let p = puzzle(r#"Puzzle(board: "6x6", piece: "knight")"#);
    let past = Limits::none().with_time(Some(0.0));
    let c = count_within(&p, &CountRequest::default(), &past).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.stopped, Some(Stop::Limit(Limit::Time)));
    assert_eq!((c.tours, c.cycles_x2, method(&c)), (0, None, None));
    // A shard lists its tasks whatever the deadline, and stops in them.
    let shard = CountRequest {
        shard: Shard::new(2, 3),
        ..CountRequest::default()
    };
    let c = count_within(&p, &shard, &past).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (c.stopped, method(&c)),
        (Some(Stop::Limit(Limit::Time)), Some("dfs"))
    );
    let search = c.work().and_then(Work::search).copied();
    let listed = search.and_then(|s| s.tasks.map(|t| (s.tasks_done, t)));
    assert!(listed.is_some_and(|(done, all)| done < all), "{search:?}");
    assert_eq!(c.shard, Shard::new(2, 3));
}

/// The string literals of the non-test code of every `.rs` file under
/// `src/dir`, with the file and line of each.
fn literals(dir: &str) -> Vec<(String, usize, String)> {
    fn walk(path: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(path) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src")
        .join(dir);
    let mut files = Vec::new();
    walk(&root, &mut files);
    assert!(!files.is_empty(), "{}", root.display());
    let mut found = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for (i, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            if line.trim_start().starts_with("//") {
                continue;
            }
            for (k, part) in line.split('"').enumerate() {
                if k % 2 == 1 {
                    found.push((f.display().to_string(), i + 1, part.to_string()));
                }
            }
        }
    }
    found
}

#[test]
fn the_library_text_names_no_flag() {
    for dir in ["render", "count"] {
        for (file, line, text) in literals(dir) {
            let flag = text
                .match_indices("--")
                .any(|(at, _)| text[at + 2..].starts_with(|c: char| c.is_ascii_lowercase()));
            assert!(!flag, "{file}:{line} names a flag: {text:?}");
        }
    }
}
