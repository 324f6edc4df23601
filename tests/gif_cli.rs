//! `engine run --gif / --search-gif` as a user runs it: files written whole
//! or not at all, whatever happens.

use std::path::Path;

use engine::verify::verify;

use crate::util::{ctrl_c, engine, engine_process, files, load, setup, tour_from_json};

/// Frame count and size of a GIF file, decoded with the `gif` crate.
fn frames(path: &Path) -> (usize, u16, u16) {
    let f = std::fs::File::open(path).expect("GIF exists");
    let mut d = gif::DecodeOptions::new().read_info(f).expect("a GIF");
    let mut n = 0;
    while d.read_next_frame().expect("frame").is_some() {
        n += 1;
    }
    assert_eq!(d.repeat(), gif::Repeat::Infinite);
    (n, d.width(), d.height())
}

/// Checks the tour printed by `--format json` with the verifier.
fn verify_json(puzzle_file: &Path, stdout: &[u8]) -> usize {
    let p = load(puzzle_file);
    let v: serde_json::Value = serde_json::from_slice(stdout).expect("JSON");
    let tour = tour_from_json(&p, &v);
    verify(&p.board, &p.piece, &p.goal, &tour).expect("a valid tour");
    tour.len()
}

const HOLED: &str = r#"Puzzle(
    name: "Holed 4x4",
    board: "4x4 - b1 a3 a4 c4 d4",
    piece: "knight",
    solver: Backtrack(),
)"#;

#[test]
fn writes_both_gifs_and_nothing_else() {
    let (dir, file) = setup(HOLED);
    let out = engine()
        .arg("run")
        .arg(&file)
        .args(["--format", "json", "--gif"])
        .arg(dir.path().join("tour.gif"))
        .arg("--search-gif")
        .arg(dir.path().join("search.gif"))
        .assert()
        .success();
    let n = verify_json(&file, &out.get_output().stdout);
    assert_eq!(files(dir.path()), ["p.ron", "search.gif", "tour.gif"]);
    let (count, w, h) = frames(&dir.path().join("tour.gif"));
    assert_eq!((count, w), (n, 256));
    assert!(h > 4 * 48);
    let (count, _, _) = frames(&dir.path().join("search.gif"));
    assert!((2..=600).contains(&count));
}

#[test]
fn flags_shape_the_gif() {
    let (dir, file) = setup(HOLED);
    let gif = dir.path().join("t.gif");
    engine()
        .arg("run")
        .arg(&file)
        .args(["--cell", "100", "--max-frames", "4", "--fps", "20", "--gif"])
        .arg(&gif)
        .assert()
        .success();
    let (count, w, h) = frames(&gif);
    // 4x4 squares of 100 pixels, the rank numbers beside them.
    assert_eq!(count, 4);
    assert!((410..=460).contains(&w), "{w}");
    assert!(h > 400);
}

#[test]
fn a_missing_directory_fails_before_searching() {
    let (dir, file) = setup(HOLED);
    engine()
        .arg("run")
        .arg(&file)
        .arg("--gif")
        .arg(dir.path().join("no/such/dir/t.gif"))
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains("cannot write a GIF"));
    assert_eq!(files(dir.path()), ["p.ron"]);
}

#[test]
fn bad_gif_flags_are_usage_errors() {
    let (dir, file) = setup(HOLED);
    for args in [
        ["--cell", "2"],
        ["--fps", "0"],
        ["--fps", "100"],
        ["--max-frames", "1"],
    ] {
        engine()
            .arg("run")
            .arg(&file)
            .args(args)
            .arg("--gif")
            .arg(dir.path().join("t.gif"))
            .assert()
            .code(2)
            .stderr(predicates::str::contains(args[0]));
    }
    assert_eq!(files(dir.path()), ["p.ron"]);
}

#[test]
fn giving_up_writes_no_tour_gif_but_the_search_gif() {
    let (dir, file) = setup(
        r#"Puzzle(board: "8x8", piece: "knight", tour: Closed,
                  solver: Backtrack(order: Given, node_limit: 50000))"#,
    );
    engine()
        .arg("run")
        .arg(&file)
        .args(["--max-frames", "30", "--gif"])
        .arg(dir.path().join("tour.gif"))
        .arg("--search-gif")
        .arg(dir.path().join("search.gif"))
        .assert()
        .code(3)
        .stderr(predicates::str::contains("no GIF was written"));
    assert_eq!(files(dir.path()), ["p.ron", "search.gif"]);
    let (count, _, _) = frames(&dir.path().join("search.gif"));
    assert!((16..=30).contains(&count), "{count}");
}

#[test]
fn a_proof_without_search_still_gets_its_search_gif() {
    let (dir, file) = setup(r#"Puzzle(board: "5x5", piece: "knight", tour: Closed)"#);
    engine()
        .arg("run")
        .arg(&file)
        .arg("--gif")
        .arg(dir.path().join("tour.gif"))
        .arg("--search-gif")
        .arg(dir.path().join("search.gif"))
        .assert()
        .code(1);
    assert_eq!(files(dir.path()), ["p.ron", "search.gif"]);
    // The bare board, then the proof drawn.
    assert_eq!(frames(&dir.path().join("search.gif")).0, 2);
}

#[cfg(unix)]
#[test]
fn ctrl_c_leaves_no_gif() {
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    // A closed 8x8 tour by plain backtracking from a1 takes far too long.
    let (dir, file) = setup(
        r#"Puzzle(board: "8x8", piece: "knight", tour: Closed, solver: Backtrack(order: Given))"#,
    );
    let mut child = engine_process()
        .arg("run")
        .arg(&file)
        .arg("--gif")
        .arg(dir.path().join("tour.gif"))
        .arg("--search-gif")
        .arg(dir.path().join("search.gif"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("started");
    std::thread::sleep(Duration::from_millis(1000));
    ctrl_c(&child);
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if started.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("engine did not stop after Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
    assert_eq!(files(dir.path()), ["p.ron"]);
}

/// Runs `engine run` on `file` with `args`, the tour printed as JSON and
/// checked by the verifier; returns the tour.
fn run_verified(file: &Path, args: &[&std::ffi::OsStr]) -> Vec<u32> {
    let out = engine()
        .arg("run")
        .arg(file)
        .args(["--format", "json"])
        .args(args)
        .assert()
        .success();
    let p = load(file);
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).expect("JSON");
    let tour = tour_from_json(&p, &v);
    verify(&p.board, &p.piece, &p.goal, &tour).expect("a valid tour");
    tour
}

/// The points of an SVG path's `d` (`M`, `L` and `h`/`v` free), each with
/// whether it starts a new piece (`M`).
fn points(d: &str) -> Vec<(bool, f64, f64)> {
    let mut out = Vec::new();
    let mut rest = d;
    while let Some(c) = rest.chars().next() {
        assert!(c == 'M' || c == 'L', "{d}");
        rest = &rest[1..];
        let end = rest.find(['M', 'L']).unwrap_or(rest.len());
        let (x, y) = rest[..end].split_once(' ').expect("x y");
        out.push((c == 'M', x.parse().expect("x"), y.parse().expect("y")));
        rest = &rest[end..];
    }
    out
}

/// The value of attribute `name` of the element with `id="id"`.
fn attribute<'a>(svg: &'a str, id: &str, name: &str) -> Option<&'a str> {
    let at = svg.find(&format!("id=\"{id}\""))?;
    let element = &svg[svg[..at].rfind('<')?..];
    let element = &element[..element.find('>')?];
    let start = element.find(&format!(" {name}=\""))? + name.len() + 3;
    Some(&element[start..start + element[start..].find('"')?])
}

#[test]
fn svg_stills_draw_the_tour_as_vectors() {
    use engine::render::svg::{CELL, origin};
    let (dir, file) = setup(HOLED);
    let svg = dir.path().join("t.svg");
    let tour = run_verified(&file, &["--svg".as_ref(), svg.as_os_str()]);
    let text = std::fs::read_to_string(&svg).expect("the SVG");
    assert!(text.starts_with("<svg ") && text.trim_end().ends_with("</svg>"));
    // The path runs through the centres of the tour's squares, in order.
    let p = load(&file);
    let origin = origin(&p.board);
    assert_eq!(origin, (40, 20));
    let rows = i64::from(p.board.height());
    let centre = |s: u32| {
        let c = p.board.cell(s);
        (
            (origin.0 + i64::from(c.x) * CELL + CELL / 2) as f64,
            (origin.1 + (rows - 1 - i64::from(c.y)) * CELL + CELL / 2) as f64,
        )
    };
    let drawn = points(attribute(&text, "tour", "d").expect("the path"));
    let want: Vec<(bool, f64, f64)> = tour
        .iter()
        .enumerate()
        .map(|(i, &s)| (i == 0, centre(s).0, centre(s).1))
        .collect();
    assert_eq!(drawn, want);
    assert!(attribute(&text, "closing", "d").is_none(), "an open tour");
    // A dot and a step number per square, the board's labels, the caption.
    assert_eq!(text.matches("<circle ").count(), tour.len());
    for label in [
        ">a</text>",
        ">d</text>",
        ">1</text>",
        ">4</text>",
        ">11</text>",
    ] {
        assert!(text.contains(label), "{label}");
    }
    assert!(text.contains(">Holed 4x4</text>"));
    assert_eq!(files(dir.path()), ["p.ron", "t.svg"]);
    // No tour, no picture.
    let (dir, file) = setup(r#"Puzzle(board: "5x5", piece: "knight", tour: Closed)"#);
    engine()
        .arg("run")
        .arg(&file)
        .arg("--svg")
        .arg(dir.path().join("t.svg"))
        .arg("--png")
        .arg(dir.path().join("t.png"))
        .assert()
        .code(1)
        .stderr(predicates::str::contains("no SVG was written"))
        .stderr(predicates::str::contains("no PNG was written"));
    assert_eq!(files(dir.path()), ["p.ron"]);
}

#[test]
fn svg_moves_across_a_wrapping_edge_leave_and_come_back() {
    use engine::render::svg::{CELL, origin};
    let (dir, file) = setup(
        r#"Puzzle(name: "Torus <&>", board: "6x6 torus", piece: "knight", tour: Closed,
                  solver: Warnsdorff())"#,
    );
    let svg = dir.path().join("t.svg");
    let tour = run_verified(&file, &["--svg".as_ref(), svg.as_os_str()]);
    let text = std::fs::read_to_string(&svg).expect("the SVG");
    let drawn = points(attribute(&text, "tour", "d").expect("the path"));
    let o = origin(&load(&file).board);
    let (x0, y0) = (o.0 as f64, o.1 as f64);
    let (x1, y1) = (x0 + 6.0 * CELL as f64, y0 + 6.0 * CELL as f64);
    let on_edge = |x: f64, y: f64| x == x0 || x == x1 || y == y0 || y == y1;
    // Every point is on the board; every piece after the first starts on
    // an edge, where the one before it left.
    assert!(
        drawn
            .iter()
            .all(|&(_, x, y)| (x0..=x1).contains(&x) && (y0..=y1).contains(&y))
    );
    let breaks: Vec<usize> = (1..drawn.len()).filter(|&i| drawn[i].0).collect();
    assert!(!breaks.is_empty(), "a torus tour wraps somewhere");
    for i in breaks {
        assert!(on_edge(drawn[i].1, drawn[i].2) && on_edge(drawn[i - 1].1, drawn[i - 1].2));
    }
    // Square centres (points off the edges) are the tour's, in order.
    let centres: Vec<(f64, f64)> = drawn
        .iter()
        .filter(|&&(_, x, y)| !on_edge(x, y))
        .map(|&(_, x, y)| (x, y))
        .collect();
    assert_eq!(centres.len(), tour.len());
    assert!(attribute(&text, "closing", "d").is_some());
    assert!(text.contains("<title>Torus &lt;&amp;&gt;</title>"));
    assert_eq!(text.matches("class=\"wrap\"").count(), 4);
}

#[test]
fn png_stills_are_the_tour_gifs_last_frame() {
    use engine::render::gif::{self, GifOptions, Scene};
    let (dir, file) =
        setup(r#"Puzzle(name: "Closed 6x6", board: "6x6", piece: "knight", tour: Closed)"#);
    let (png, tgif) = (dir.path().join("t.png"), dir.path().join("t.gif"));
    let tour = run_verified(
        &file,
        &[
            "--png".as_ref(),
            png.as_os_str(),
            "--gif".as_ref(),
            tgif.as_os_str(),
        ],
    );
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&png).expect("the PNG"),
    ));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut px = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut px).expect("its pixels");
    assert_eq!(info.color_type, png::ColorType::Indexed);
    let (_, w, h) = frames(&tgif);
    assert_eq!((info.width, info.height), (u32::from(w), u32::from(h)));
    // A dot on every square's centre, the closing move in its colour, the
    // orange ring on the last square.
    let p = load(&file);
    let lay = gif::tour_layout(&Scene::new(&p), &GifOptions::default());
    for &s in &tour[..tour.len() - 1] {
        let (x, y) = lay.centre(p.board.cell(s));
        assert_eq!(px[(y * info.width + x) as usize], gif::VISITED, "{s}");
    }
    assert!(px.contains(&gif::CLOSING) && px.contains(&gif::MARKER));
    // An open tour has no closing move.
    engine()
        .arg("run")
        .arg(&file)
        .args(["--open", "--png"])
        .arg(&png)
        .assert()
        .success();
    let mut reader = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&png).expect("the PNG"),
    ))
    .read_info()
    .expect("a PNG");
    let mut px = vec![0; reader.output_buffer_size().expect("size")];
    reader.next_frame(&mut px).expect("its pixels");
    assert!(!px.contains(&gif::CLOSING) && px.contains(&gif::VISITED));
}
