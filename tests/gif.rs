//! The GIFs, decoded with the `gif` crate and checked pixel by pixel.

use engine::model::Cell;
use engine::progress::Progress;
use engine::puzzle::Puzzle;
use engine::render::gif::{
    self, CANDIDATE, CHURN, CLOSING, FLASH, GREEN, GifOptions, INK, LABEL, Layout, PART, PATH,
    PendingFile, RAMP_START, RED, REMOVED, REPAIRED, STRIP_HIGH, STRIP_LOW, Scene, Style,
    TRANSPARENT, VISITED, search_gif, tour_gif,
};
use engine::render::record::Recorder;
use engine::search::event::{Event, Observer, Why};
use engine::solve::runner;
use engine::solve::{Limit, Limits, Outcome, Report, Run, Stats};
use engine::verify::verify;

use crate::util::{files, puzzle, solve};

/// A decoded GIF: its frames composed one over the other, as a viewer
/// shows them.
struct Decoded {
    width: usize,
    height: usize,
    repeat: ::gif::Repeat,
    /// Per frame: the composed image (palette indices) after it; all but
    /// the last are empty unless every frame was asked for.
    shown: Vec<Vec<u8>>,
    delays: Vec<u16>,
    palette_len: usize,
}

impl Decoded {
    fn at(&self, frame: usize, (x, y): (u32, u32)) -> u8 {
        self.shown[frame][y as usize * self.width + x as usize]
    }
    fn last(&self, p: (u32, u32)) -> u8 {
        self.at(self.shown.len() - 1, p)
    }
}

fn decode(bytes: &[u8]) -> Decoded {
    decode_frames(bytes, true)
}

/// Decodes, keeping only the last composed image unless `all`.
fn decode_frames(bytes: &[u8], all: bool) -> Decoded {
    let mut o = ::gif::DecodeOptions::new();
    o.set_color_output(::gif::ColorOutput::Indexed);
    let mut d = o.read_info(bytes).expect("a GIF");
    let (width, height) = (usize::from(d.width()), usize::from(d.height()));
    let palette_len = d.global_palette().map_or(0, |p| p.len() / 3);
    let mut canvas = vec![TRANSPARENT; width * height];
    let mut shown = Vec::new();
    let mut delays = Vec::new();
    while let Some(f) = d.read_next_frame().expect("frame decodes") {
        assert_eq!(f.dispose, ::gif::DisposalMethod::Keep);
        let (l, t, w) = (
            usize::from(f.left),
            usize::from(f.top),
            usize::from(f.width),
        );
        assert!(l + w <= width && t + usize::from(f.height) <= height);
        for (i, &px) in f.buffer.iter().enumerate() {
            if Some(px) != f.transparent {
                canvas[(t + i / w) * width + l + i % w] = px;
            }
        }
        if shown.is_empty() {
            // Every pixel is drawn by the first frame; none is transparent.
            assert!(!canvas.contains(&TRANSPARENT));
        }
        shown.push(if all { canvas.clone() } else { Vec::new() });
        delays.push(f.delay);
    }
    let repeat = d.repeat();
    if let Some(last) = shown.last_mut() {
        *last = canvas;
    }
    Decoded {
        width,
        height,
        repeat,
        shown,
        delays,
        palette_len,
    }
}

/// The layout of `p`'s GIFs at the default options (square centres do
/// not depend on the caption).
fn layout(p: &Puzzle) -> Layout {
    gif::tour_layout(&Scene::new(p), &GifOptions::default())
}

/// The tour `engine run` finds for `p` (verified).
fn tour_of(p: &Puzzle) -> Vec<u32> {
    let r = solve(p);
    let Outcome::Found(t) = r.outcome else {
        panic!("expected a tour, got {:?}", r.outcome)
    };
    t
}

fn tour_bytes(p: &Puzzle, tour: &[u32], opts: &GifOptions) -> (Vec<u8>, gif::GifInfo) {
    let mut out = Vec::new();
    let info = tour_gif(&mut out, &Scene::new(p), tour, opts, &Limits::none()).expect("written");
    (out, info)
}

#[test]
fn knight_tour_8x8_one_frame_per_move() {
    let p = puzzle(r#"Puzzle(board: "8x8", piece: "knight", start: "a1")"#);
    let tour = tour_of(&p);
    let (bytes, info) = tour_bytes(&p, &tour, &GifOptions::default());
    let d = decode(&bytes);
    assert_eq!(d.shown.len(), 64);
    assert_eq!(info.frames, 64);
    assert_eq!(info.style, Style::Numbers);
    // Room for the rank numbers beside the board, the caption below.
    assert!(d.width > 8 * 48);
    assert!(d.height > 8 * 48 + 40, "a caption below the board");
    assert_eq!(d.repeat, ::gif::Repeat::Infinite);
    assert_eq!(d.palette_len, usize::from(RAMP_START));
    // By default the walk takes 16 s (a quarter of a second a move); the
    // last frame is held two seconds.
    let walk: u32 = d.delays[..63].iter().map(|&c| u32::from(c)).sum();
    assert!((1500..=1600).contains(&walk), "{walk}");
    assert!(d.delays[..63].iter().all(|&c| (24..=26).contains(&c)));
    assert_eq!(d.delays[63], 200);
    let lay = layout(&p);
    for (i, &s) in tour.iter().enumerate() {
        let centre = lay.centre(p.board.cell(s));
        assert_eq!(d.last(centre), VISITED, "square {}", p.board.name(s));
        // Before its move, the square is not marked visited.
        if i > 0 {
            assert_ne!(d.at(i - 1, centre), VISITED);
            assert_eq!(d.at(i, centre), VISITED);
        }
    }
}

#[test]
fn removed_squares_show_as_removed() {
    let p = puzzle(r#"Puzzle(board: "4x4 - b1 a3 a4 c4 d4", piece: "knight")"#);
    let tour = tour_of(&p);
    let (bytes, _) = tour_bytes(&p, &tour, &GifOptions::default());
    let d = decode(&bytes);
    assert_eq!(d.shown.len(), 11);
    // A 4x4 board at 48 pixels is centred on the 256-pixel minimum width.
    assert_eq!(d.width, 256);
    let lay = layout(&p);
    let (x, y) = lay.centre(Cell::new(0, 0));
    let (x1, _) = lay.centre(Cell::new(3, 0));
    assert_eq!(x1 - x, 3 * 48);
    assert!(
        x > 24 + 20 && x + 3 * 48 + 24 <= 256,
        "centred, clear of the rank numbers"
    );
    assert!(y > 3 * 48);
    let mut removed = 0;
    for y in 0..4 {
        for x in 0..4 {
            let c = Cell::new(x, y);
            let want = if p.board.is_square(c) {
                VISITED
            } else {
                removed += 1;
                REMOVED
            };
            assert_eq!(d.last(lay.centre(c)), want, "{c}");
        }
    }
    assert_eq!(removed, 5);
}

#[test]
fn closed_tours_draw_the_closing_move_last() {
    let p = puzzle(r#"Puzzle(board: "6x6", piece: "knight", tour: Closed)"#);
    let tour = tour_of(&p);
    let (bytes, _) = tour_bytes(&p, &tour, &GifOptions::default());
    let d = decode(&bytes);
    assert_eq!(d.shown.len(), 36);
    let lay = layout(&p);
    let (a, b) = (
        lay.centre(p.board.cell(tour[35])),
        lay.centre(p.board.cell(tour[0])),
    );
    // The middle of a knight move lies between squares, clear of numbers.
    let mid = ((a.0 + b.0) / 2, (a.1 + b.1) / 2);
    assert_eq!(d.last(mid), CLOSING);
    assert_ne!(d.at(34, mid), CLOSING);
}

#[test]
fn frames_are_capped_and_every_move_is_shown() {
    let p = puzzle(r#"Puzzle(board: "8x8", piece: "knight", start: "a1")"#);
    let tour = tour_of(&p);
    let opts = GifOptions {
        max_frames: Some(10),
        ..GifOptions::default()
    };
    let (bytes, _) = tour_bytes(&p, &tour, &opts);
    let d = decode(&bytes);
    assert_eq!(d.shown.len(), 10);
    let lay = layout(&p);
    for &s in &tour {
        assert_eq!(d.last(lay.centre(p.board.cell(s))), VISITED);
    }
}

/// A boustrophedon wazir tour: rank 1 left to right, rank 2 back, …
fn boustrophedon(w: u32, h: u32) -> Vec<u32> {
    (0..h)
        .flat_map(|y| (0..w).map(move |i| y * w + if y % 2 == 0 { i } else { w - 1 - i }))
        .collect()
}

#[test]
fn large_boards_are_drawn_path_only() {
    // The top rank removed; a boustrophedon over the other 79 ranks.
    let p =
        puzzle(r#"Puzzle(board: "80x80 torus - (0,79)..(79,79)", piece: "wazir", start: "a1")"#);
    let tour = boustrophedon(80, 79);
    verify(&p.board, &p.piece, &p.goal, &tour).expect("valid");
    check_path_only(&p, &tour);
}

fn check_path_only(p: &Puzzle, tour: &[u32]) {
    let (bytes, info) = tour_bytes(p, tour, &GifOptions::default());
    assert_eq!(info.style, Style::Gradient);
    let d = decode_frames(&bytes, false);
    // At most the default 300 frames, cut where the drawing stays compact.
    assert!((150..=300).contains(&d.shown.len()), "{}", d.shown.len());
    assert_eq!(d.shown.len(), info.frames);
    assert_eq!(d.palette_len, 256);
    // Frames are timed by their moves, 16 seconds in all by default.
    let total: u32 = d.delays[..d.delays.len() - 1]
        .iter()
        .map(|&c| u32::from(c))
        .sum();
    assert!((1590..=1610).contains(&total), "{total}");
    let lay = layout(p);
    assert_eq!(d.width as u32, lay.width);
    assert!(lay.pixels_per_square() >= 3.0);
    for y in 0..p.board.height() {
        for x in 0..p.board.width() {
            let c = Cell::new(x, y);
            let px = d.last(lay.centre(c));
            if p.board.is_square(c) {
                assert!(px >= RAMP_START, "{c}: {px}");
            } else {
                assert_eq!(px, REMOVED, "{c}");
            }
        }
    }
}

#[test]
fn a_1000x1000_tour_is_bounded() {
    let p = puzzle(r#"Puzzle(board: "1000x1000", piece: "leaper 0 1", start: "a1")"#);
    let tour = boustrophedon(1000, 1000);
    verify(&p.board, &p.piece, &p.goal, &tour).expect("valid");
    let opts = GifOptions {
        max_frames: Some(40),
        ..GifOptions::default()
    };
    let (bytes, info) = tour_bytes(&p, &tour, &opts);
    assert!(bytes.len() < 5 << 20);
    let d = decode_frames(&bytes, false);
    assert!(d.shown.len() <= 40 && d.shown.len() >= 20);
    let lay = layout(&p);
    assert_eq!(info.frames, d.shown.len());
    assert_eq!(lay.pixels_per_square(), 1.0);
    // One pixel per square: every one of them is on the path.
    for y in 0..1000 {
        for x in 0..1000 {
            assert!(d.last(lay.centre(Cell::new(x, y))) >= RAMP_START);
        }
    }
}

fn report(outcome: Outcome) -> Report {
    Report {
        outcome,
        stats: Stats::default(),
        solver: engine::solve::SolverId::default(),
        starts: None,
    }
}

#[test]
fn search_gif_of_a_backtracking_search() {
    let p = puzzle(
        r#"Puzzle(board: "5x5", piece: "knight", start: "a1", solver: Backtrack(order: Given))"#,
    );
    let g = crate::util::graph_of(&p);
    let opts = GifOptions {
        max_frames: Some(25),
        ..GifOptions::default()
    };
    let mut rec = Recorder::new(opts.search_frames() - 1);
    let r = runner::solve(
        &p.task(&g),
        p.solver,
        Run::new(Limits::none(), &Progress::new(), &mut rec),
    )
    .expect("no bug");
    let Outcome::Found(tour) = &r.outcome else {
        panic!("5x5 has a tour from a1")
    };
    verify(&p.board, &p.piece, &p.goal, tour).expect("valid");
    assert!(rec.events() > 1000, "a real search: {}", rec.events());
    let mut out = Vec::new();
    let info =
        search_gif(&mut out, &Scene::new(&p), &rec, &r, &opts, &Limits::none()).expect("written");
    let d = decode(&out);
    assert!(d.shown.len() <= 25 && d.shown.len() >= 12);
    assert_eq!(d.shown.len(), rec.len() + 1);
    assert_eq!(info.frames, d.shown.len());
    assert_eq!(d.repeat, ::gif::Repeat::Infinite);
    assert_eq!(*d.delays.last().unwrap_or(&0), 200);
    // At least three status lines, more where a long one wraps.
    let lay = gif::search_layout(&Scene::new(&p), &opts, 3, true);
    assert_eq!(d.width as u32, lay.width);
    assert!(d.height as u32 >= lay.height);
    for &s in tour {
        assert_eq!(d.last(lay.centre(p.board.cell(s))), VISITED);
    }
}

#[test]
fn search_gif_never_exceeds_max_frames() {
    let p = puzzle(
        r#"Puzzle(board: "6x6", piece: "knight", start: "a1", solver: Backtrack(order: Given, node_limit: 300000))"#,
    );
    let g = crate::util::graph_of(&p);
    for max in [2usize, 3, 4, 7, 64, 600] {
        let opts = GifOptions {
            max_frames: Some(max),
            ..GifOptions::default()
        };
        let mut rec = Recorder::new(max - 1);
        let r = runner::solve(
            &p.task(&g),
            p.solver,
            Run::new(Limits::none(), &Progress::new(), &mut rec),
        )
        .expect("no bug");
        if let Outcome::Found(t) = &r.outcome {
            verify(&p.board, &p.piece, &p.goal, t).expect("valid");
        }
        let mut out = Vec::new();
        search_gif(&mut out, &Scene::new(&p), &rec, &r, &opts, &Limits::none()).expect("written");
        let d = decode(&out);
        assert!(d.shown.len() <= max, "{} > {max}", d.shown.len());
        assert!(d.shown.len() >= 2.min(max));
    }
}

#[test]
fn retreats_flash_red() {
    let p = puzzle(r#"Puzzle(board: "3x4", piece: "knight")"#);
    let b = &p.board;
    let sq = |n: &str| -> u32 {
        (0..b.len() as u32)
            .find(|&s| b.name(s) == n)
            .expect("square")
    };
    let (a1, b3, c1) = (sq("a1"), sq("b3"), sq("c1"));
    let mut rec = Recorder::new(99);
    rec.event(Event::Advance, &[a1]);
    rec.event(Event::Advance, &[a1, b3]);
    rec.event(Event::Advance, &[a1, b3, c1]);
    rec.event(Event::Retreat(c1, Why::Tried), &[a1, b3]);
    let mut out = Vec::new();
    let r = report(Outcome::GaveUp {
        limit: Limit::Nodes,
        best: vec![a1, b3, c1],
    });
    search_gif(
        &mut out,
        &Scene::new(&p),
        &rec,
        &r,
        &GifOptions::default(),
        &Limits::none(),
    )
    .expect("written");
    let d = decode(&out);
    assert_eq!(d.shown.len(), 5);
    let lay = layout(&p);
    let c = lay.centre(b.cell(c1));
    assert_eq!(d.at(2, c), VISITED);
    assert_eq!(d.at(3, c), FLASH, "the abandoned square flashes");
    // The final frame shows the longest path.
    assert_eq!(d.at(4, c), VISITED);
}

#[test]
fn genetic_generations_show_legal_green_and_illegal_red() {
    // A hand-driven observer standing in for the genetic solver.
    let p = puzzle(r#"Puzzle(board: "5x5", piece: "knight")"#);
    let b = &p.board;
    let at = |x: u32, y: u32| b.square_at(Cell::new(x, y)).expect("square");
    // a1 -> b3 -> c5 legal, then c5 -> c4 is no knight move.
    let walk = [at(0, 0), at(1, 2), at(2, 4), at(2, 3), at(0, 4)];
    let mut rec = Recorder::new(9);
    rec.event(
        Event::Generation {
            generation: 1,
            fitness: 2,
            legal: 3,
        },
        &walk,
    );
    rec.event(
        Event::Generation {
            generation: 2,
            fitness: 3,
            legal: 3,
        },
        &walk,
    );
    let mut out = Vec::new();
    let r = report(Outcome::GaveUp {
        limit: Limit::Generations,
        best: walk[..3].to_vec(),
    });
    search_gif(
        &mut out,
        &Scene::new(&p),
        &rec,
        &r,
        &GifOptions::default(),
        &Limits::none(),
    )
    .expect("written");
    let d = decode(&out);
    assert_eq!(d.shown.len(), 3);
    let lay = layout(&p);
    let mid = |s: u32, t: u32| {
        let (a, b2) = (lay.centre(b.cell(s)), lay.centre(b.cell(t)));
        ((a.0 + b2.0) / 2, (a.1 + b2.1) / 2)
    };
    assert_eq!(d.at(0, mid(walk[0], walk[1])), GREEN);
    assert_eq!(d.at(0, mid(walk[3], walk[4])), RED);
    assert_eq!(d.at(0, lay.centre(b.cell(walk[1]))), VISITED);
    assert_eq!(d.at(0, lay.centre(b.cell(walk[4]))), RED);
    // The final frame: the best legal path, no red left.
    assert!(!d.shown[2].contains(&RED));
}

#[test]
fn pending_files_leave_nothing_behind() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("t.gif");
    let listing = || files(dir.path());
    // Checking the path creates nothing.
    let f = PendingFile::create(&out).expect("writable");
    assert!(listing().is_empty());
    // A failure while writing removes the partial file.
    let r: Result<(), gif::GifError> = f.write(|w| {
        use std::io::Write;
        w.write_all(b"GIF89a partial")?;
        Err(gif::GifError::Stopped(engine::halt::Stop::Interrupted))
    });
    assert!(r.is_err());
    assert!(listing().is_empty());
    // A hard exit's clean-up removes a file being written.
    let f = PendingFile::create(&out).expect("writable");
    let r: Result<(), gif::GifError> = f.write(|_| {
        assert_eq!(listing().len(), 1, "the temporary file");
        gif::discard_pending();
        assert!(listing().is_empty());
        Err(gif::GifError::Stopped(engine::halt::Stop::Interrupted))
    });
    assert!(r.is_err());
    // A missing directory is found up front.
    assert!(PendingFile::create(&dir.path().join("nope/t.gif")).is_err());
    // Success renames into place and leaves only the output.
    let f = PendingFile::create(&out).expect("writable");
    f.write(|w| -> Result<(), gif::GifError> {
        use std::io::Write;
        w.write_all(b"done")?;
        Ok(())
    })
    .expect("written");
    assert_eq!(listing(), ["t.gif"]);
}

#[test]
fn cancelling_stops_between_frames() {
    let p = puzzle(r#"Puzzle(board: "5x5", piece: "knight", start: "a1")"#);
    let tour = tour_of(&p);
    let flag = std::sync::atomic::AtomicBool::new(true);
    let mut out = Vec::new();
    let r = tour_gif(
        &mut out,
        &Scene::new(&p),
        &tour,
        &GifOptions::default(),
        &Limits {
            interrupt: Some(&flag),
            ..Limits::none()
        },
    );
    assert!(matches!(
        r,
        Err(gif::GifError::Stopped(engine::halt::Stop::Interrupted))
    ));
}

/// Drives a recorder the way Warnsdorff's rule does: a walk that dies,
/// a restart, then a walk that completes `tour`.
fn warnsdorff_events(rec: &mut Recorder, tour: &[u32], dead_end: usize) {
    let mut path = Vec::new();
    for &s in tour.iter().rev().take(dead_end) {
        path.push(s);
        rec.event(Event::Advance, &path);
    }
    rec.event(Event::Restart, &[]);
    path.clear();
    for &s in tour {
        path.push(s);
        rec.event(Event::Advance, &path);
    }
}

#[test]
fn warnsdorff_walks_and_restarts() {
    let p = puzzle(r#"Puzzle(board: "6x6", piece: "knight", start: "a1")"#);
    let tour = tour_of(&p);
    let mut rec = Recorder::new(99);
    warnsdorff_events(&mut rec, &tour, 20);
    assert_eq!((rec.events(), rec.restarts()), (56, 1));
    let r = report(Outcome::Found(tour.clone()));
    let mut out = Vec::new();
    search_gif(
        &mut out,
        &Scene::new(&p),
        &rec,
        &r,
        &GifOptions::default(),
        &Limits::none(),
    )
    .expect("written");
    let d = decode(&out);
    assert_eq!(d.shown.len(), 57);
    let lay = layout(&p);
    let first_walk_end = lay.centre(p.board.cell(tour[35 - 19]));
    // The first walk's last square, shown, then cleared by the restart.
    assert_eq!(d.at(19, first_walk_end), VISITED);
    assert_ne!(d.at(20, first_walk_end), VISITED);
    for &s in &tour {
        assert_eq!(d.last(lay.centre(p.board.cell(s))), VISITED);
    }
}

#[test]
fn path_only_search_gif() {
    let p = puzzle(r#"Puzzle(board: "70x70", piece: "wazir", start: "a1")"#);
    let tour = boustrophedon(70, 70);
    verify(&p.board, &p.piece, &p.goal, &tour).expect("valid");
    let opts = GifOptions {
        max_frames: Some(50),
        ..GifOptions::default()
    };
    let mut rec = Recorder::new(opts.search_frames() - 1);
    warnsdorff_events(&mut rec, &tour, 3000);
    let r = report(Outcome::Found(tour.clone()));
    let mut out = Vec::new();
    let info =
        search_gif(&mut out, &Scene::new(&p), &rec, &r, &opts, &Limits::none()).expect("written");
    assert_eq!(info.style, Style::Gradient);
    let d = decode_frames(&out, false);
    assert!(d.shown.len() <= 50 && d.shown.len() >= 25);
    let lay = layout(&p);
    for &s in &tour {
        assert!(d.last(lay.centre(p.board.cell(s))) >= RAMP_START);
    }
}

/// How many pixels of `colour` a composed frame has.
fn count(frame: &[u8], colour: u8) -> usize {
    frame.iter().filter(|&&c| c == colour).count()
}

#[test]
fn styles_draw_as_asked_with_labels() {
    let p = puzzle(r#"Puzzle(board: "8x8", piece: "knight", start: "a1")"#);
    let tour = tour_of(&p);
    for (style, numbers, ramp) in [
        (Style::Numbers, true, false),
        (Style::Path, false, false),
        (Style::Gradient, false, true),
    ] {
        let opts = GifOptions {
            style: Some(style),
            ..GifOptions::default()
        };
        let (bytes, info) = tour_bytes(&p, &tour, &opts);
        assert_eq!(info.style, style);
        let d = decode_frames(&bytes, false);
        let last = &d.shown[d.shown.len() - 1];
        // File letters and rank numbers in every style.
        assert!(count(last, LABEL) > 100, "{style:?}");
        assert_eq!(count(last, INK) > 0, numbers, "{style:?}: step numbers");
        assert_eq!(last.iter().any(|&c| c >= RAMP_START), ramp, "{style:?}");
        assert_eq!(d.palette_len, if ramp { 256 } else { 64 });
    }
}

/// Solves `p` recording it as `opts` asks, and draws its search GIF.
fn search_of(p: &Puzzle, opts: &GifOptions) -> (Report, Decoded) {
    let g = crate::util::graph_of(p);
    let mut rec = opts.recorder();
    let r = runner::solve(
        &p.task(&g),
        p.solver,
        Run::new(Limits::none(), &Progress::new(), &mut rec),
    )
    .expect("no bug");
    if let Outcome::Found(t) = &r.outcome {
        verify(&p.board, &p.piece, &p.goal, t).expect("valid");
    }
    let mut out = Vec::new();
    let scene = Scene::new(p).with_graph(&g);
    search_gif(&mut out, &scene, &rec, &r, opts, &Limits::none()).expect("written");
    (r, decode(&out))
}

#[test]
fn warnsdorff_shows_its_candidates_step_by_step() {
    let p = puzzle(
        r#"Puzzle(board: "6x6", piece: "knight", tour: Closed, start: "a1", solver: Warnsdorff(tie_break: First))"#,
    );
    let (r, d) = search_of(&p, &GifOptions::default());
    assert!(r.stats.rotations > 0, "this search closes by rotations");
    // Every event is a step frame (36 advances and the rotations), then the
    // outcome.
    assert_eq!(d.shown.len() as u64, r.stats.nodes + r.stats.rotations + 1);
    assert!(d.delays[..d.shown.len() - 1].iter().all(|&c| c == 25));
    let with_candidates = d.shown.iter().filter(|f| count(f, CANDIDATE) > 0).count();
    assert!(with_candidates >= 30, "{with_candidates}");
    // The strip grows frame by frame.
    let strip: Vec<usize> = d.shown.iter().map(|f| count(f, STRIP_LOW)).collect();
    assert!(strip.windows(2).all(|w| w[0] <= w[1]) && strip[strip.len() - 1] > strip[0]);
}

#[test]
fn a_long_search_is_a_window_of_steps_then_a_time_lapse() {
    let p = puzzle(
        r#"Puzzle(board: "5x5", piece: "knight", start: "a1", solver: Backtrack(order: Given))"#,
    );
    let opts = GifOptions {
        max_frames: Some(80),
        steps: Some((1, 30)),
        ..GifOptions::default()
    };
    let (r, d) = search_of(&p, &opts);
    assert!(r.stats.nodes > 5000);
    assert!(
        d.shown.len() <= 80 && d.shown.len() >= 60,
        "{}",
        d.shown.len()
    );
    let steps = d.delays.iter().filter(|&&c| c == 25).count();
    assert_eq!(steps, 30);
    // Step frames show retreats (the abandoned square flashed); the
    // time-lapse shows the churning part of its deepest paths apart.
    assert!(d.shown[..30].iter().any(|f| count(f, FLASH) > 0));
    let lapse = &d.shown[30..d.shown.len() - 1];
    assert!(lapse.iter().filter(|f| count(f, CHURN) > 0).count() > lapse.len() / 2);
    assert!(lapse.iter().all(|f| count(f, PATH) > 0));
}

#[test]
fn a_proof_is_drawn() {
    let p = puzzle(r#"Puzzle(board: "5x5", piece: "knight", tour: Closed)"#);
    let (r, d) = search_of(&p, &GifOptions::default());
    assert!(matches!(r.outcome, Outcome::Impossible(_)));
    // The bare board, then the two colour classes: 13 squares and 12.
    assert_eq!(d.shown.len(), 2);
    let lay = layout(&p);
    let class = |c: u8| {
        (0..25)
            .filter(|&s| d.last(lay.centre(p.board.cell(s))) == c)
            .count()
    };
    assert_eq!((class(PART), class(PART + 1)), (13, 12));
    assert_eq!(count(&d.shown[0], PART), 0);
}

#[test]
fn a_proof_by_parts_is_drawn_with_its_legend_whole() {
    // 3x3: b2 has no moves, so the knight's graph falls into two parts.
    let p = puzzle(r#"Puzzle(name: "Three by three", board: "3x3", piece: "knight")"#);
    let (r, _, d) = searched(&p, &GifOptions::default());
    let Outcome::Impossible(why) = &r.outcome else {
        panic!("no tour on 3x3")
    };
    let lay = layout(&p);
    let b2 = p.board.square_at(Cell::new(1, 1)).expect("b2");
    let part = |s: u32| d.last(lay.centre(p.board.cell(s)));
    assert_eq!(part(b2), PART + 1);
    assert!((0..9).filter(|&s| s != b2).all(|s| part(s) == PART));
    // The legend's lines, in the parts' colours and the red of the ring,
    // under the board; the reason and the legend wrap onto as many lines
    // as they need (more than three on a board this narrow).
    let below = |c: u8| {
        let board_bottom = lay.centre(p.board.cell(0)).1 as usize + 30;
        d.shown[1][board_bottom * d.width..].contains(&c)
    };
    assert!(below(PART) && below(PART + 1) && below(RED));
    let three = gif::search_layout(&Scene::new(&p), &GifOptions::default(), 3, false);
    assert_eq!(d.width as u32, three.width);
    assert!(why.len() > 80 && d.height as u32 >= three.height + 4 * 10);
}

/// Runs `p`'s solver watched by a recorder for a search GIF with `opts`;
/// the report (its tour verified) and the GIF, decoded frame by frame.
fn searched(p: &Puzzle, opts: &GifOptions) -> (Report, Recorder, Decoded) {
    let g = crate::util::graph_of(p);
    let mut rec = opts.recorder();
    let r = runner::solve(
        &p.task(&g),
        p.solver,
        Run::new(Limits::none(), &Progress::new(), &mut rec),
    )
    .expect("no bug");
    if let Outcome::Found(tour) = &r.outcome {
        verify(&p.board, &p.piece, &p.goal, tour).expect("valid");
    }
    let mut out = Vec::new();
    let scene = Scene::new(p).with_graph(&g);
    search_gif(&mut out, &scene, &rec, &r, opts, &Limits::none()).expect("written");
    (r, rec, decode(&out))
}

#[test]
fn genetic_gifs_show_repaired_genes_and_the_fitness_chart() {
    // The write-up's algorithm: 41 generations for this seed.
    let p = puzzle(
        r#"Puzzle(board: "8x8", piece: "knight", start: "a1",
                  solver: Genetic(preset: Classic), seed: 8)"#,
    );
    let (r, rec, d) = searched(&p, &GifOptions::default());
    assert!(matches!(r.outcome, Outcome::Found(_)));
    let generations = r.stats.generations;
    assert!(generations > 10, "{generations}");
    // One frame per generation, then the tour.
    assert_eq!(d.shown.len() as u64, generations + 1);
    // The chart covers every generation, its means below its bests.
    let chart = rec.lineage().chart();
    assert_eq!(chart.iter().map(|c| c.count).sum::<u64>(), generations);
    assert!(
        chart
            .iter()
            .all(|c| c.mean <= c.best as f64 && c.best <= 64)
    );
    assert_eq!(chart.last().map(|c| c.best), Some(64));
    // Generation 1's random genes: kept ones green, repaired ones orange,
    // both counted in the caption's colours and drawn.
    assert!(d.shown[0].contains(&GREEN) && d.shown[0].contains(&REPAIRED));
    rec.replay(|s| {
        let repaired = rec.lineage().repaired_of(s.index);
        assert!(repaired.iter().all(|&i| 0 < i && i < s.path.len()));
        Ok::<_, ()>(())
    })
    .expect("replayed");
    // The chart is drawn under the board: best over mean.
    let last = d.shown.last().expect("frames");
    assert!(last.contains(&STRIP_HIGH) && last.contains(&STRIP_LOW));
}

#[test]
fn genetic_gifs_solved_at_once_show_the_population() {
    // Warnsdorff repair: a random population already holds a tour.
    let p = puzzle(r#"Puzzle(board: "8x8", piece: "knight", start: "a1", solver: Genetic())"#);
    let (r, rec, d) = searched(&p, &GifOptions::default());
    assert_eq!(r.stats.generations, 1);
    let shown = rec.lineage().population();
    assert_eq!(shown.len(), engine::search::event::POPULATION_SHOWN);
    let g = crate::util::graph_of(&p);
    for ind in shown {
        // Every walk shown is a path of the piece's moves from the start,
        // a tour when its fitness says so.
        assert_eq!(ind.walk.first(), Some(&0));
        assert!(
            ind.walk
                .windows(2)
                .all(|m| g.neighbours(m[0]).any(|t| t == m[1]))
        );
        if ind.fitness == 64 {
            verify(&p.board, &p.piece, &p.goal, &ind.walk).expect("a tour");
        }
        assert_eq!(ind.repaired.len(), ind.walk.len());
    }
    // The walks, the generation, the tour.
    assert_eq!(d.shown.len(), shown.len() + rec.len() + 1);
    assert!(d.shown[0].contains(&GREEN));
}
