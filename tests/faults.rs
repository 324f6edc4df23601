//! Faults around the answers: output paths that would destroy a file,
//! special files, temporaries left by a killed process, stdout closed or
//! full, and the small lies of a careless front end (numbers, start and
//! end, names with control characters, flags reported as files).

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime};

use crate::util::{engine, engine_process, files, setup};

const SMALL: &str = r#"Puzzle(name: "Small", board: "5x5", piece: "knight", start: "a1")"#;

/// Runs `engine ARGS` in `dir`: exit code, stdout, stderr.
fn run_in(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = engine_process()
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap_or_else(|e| panic!("mkfifo: {e}"));
    assert!(ok.success());
}

#[test]
fn outputs_never_overwrite_an_input_or_each_other() {
    let (dir, file) = setup(SMALL);
    let d = dir.path();
    let puzzle = std::fs::read(&file).unwrap_or_else(|e| panic!("{e}"));
    // The puzzle file, by its name and through another path.
    for (flag, out) in [("--gif", "p.ron"), ("--search-gif", "./p.ron")] {
        let (code, stdout, err) = run_in(d, &["run", "p.ron", flag, out]);
        assert_eq!(code, Some(2), "{err}");
        assert!(stdout.is_empty(), "no search ran");
        assert!(
            err.starts_with(&format!("error: {flag}: this is the puzzle file")),
            "{err}"
        );
    }
    assert_eq!(std::fs::read(&file).ok(), Some(puzzle));
    // The archive (and its journal), when saving or just named.
    let (code, _, err) = run_in(d, &["run", "p.ron", "--save", "--archive", "x.db"]);
    assert_eq!(code, Some(0), "{err}");
    let db = std::fs::read(d.join("x.db")).unwrap_or_else(|e| panic!("{e}"));
    for args in [
        &[
            "run",
            "p.ron",
            "--save",
            "--archive",
            "x.db",
            "--gif",
            "x.db",
        ][..],
        &["run", "p.ron", "--archive", "x.db", "--search-gif", "x.db"],
        &[
            "run",
            "p.ron",
            "--save",
            "--archive",
            "x.db",
            "--gif",
            "x.db-journal",
        ],
    ] {
        let (code, stdout, err) = run_in(d, args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(stdout.is_empty());
        assert!(err.contains("this is the archive"), "{err}");
    }
    let (code, _, err) = run_in(
        d,
        &["archive", "show", "1", "--archive", "x.db", "--gif", "x.db"],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--gif: this is the archive"), "{err}");
    assert_eq!(std::fs::read(d.join("x.db")).ok(), Some(db));
    // Both GIFs to one file.
    let (code, _, err) = run_in(
        d,
        &["run", "p.ron", "--gif", "g.gif", "--search-gif", "g.gif"],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.starts_with("error: --search-gif: --gif writes to this file already"),
        "{err}"
    );
    assert_eq!(files(d), ["p.ron", "x.db"]);
}

#[test]
fn outputs_must_be_regular_files() {
    let (dir, _) = setup(SMALL);
    let d = dir.path();
    std::fs::create_dir(d.join("folder")).unwrap_or_else(|e| panic!("{e}"));
    mkfifo(&d.join("fifo"));
    for (out, what) in [
        ("folder", "it is a directory, not a regular file"),
        ("fifo", "it is a FIFO (named pipe), not a regular file"),
        ("/dev/null", "it is a character device, not a regular file"),
    ] {
        let (code, stdout, err) = run_in(d, &["run", "p.ron", "--gif", out]);
        assert_eq!(code, Some(2), "{out}: {err}");
        assert!(stdout.is_empty());
        assert!(
            err.starts_with("error: --gif: cannot write a GIF here"),
            "{err}"
        );
        assert!(err.contains(what), "{out}: {err}");
    }
    assert_eq!(files(d), ["fifo", "folder", "p.ron"]);
    assert!(
        std::fs::metadata("/dev/null").is_ok_and(|m| !m.is_file()),
        "/dev/null is still a device"
    );
}

#[test]
fn an_output_path_ending_in_a_slash_is_refused_before_the_search() {
    let (dir, _) = setup(SMALL);
    let d = dir.path();
    for (flag, out) in [
        ("--gif", "new.gif/"),
        ("--svg", "new.svg/"),
        ("--trace", "t.jsonl/"),
    ] {
        let (code, stdout, err) = run_in(d, &["run", "p.ron", flag, out]);
        assert_eq!(code, Some(2), "{flag} {out}: {err}");
        assert!(
            stdout.is_empty(),
            "{flag} {out}: nothing is solved:\n{stdout}"
        );
        assert!(err.starts_with(&format!("error: {flag}: ")), "{err}");
        assert!(err.contains("ends in `/`"), "{err}");
    }
    let (code, _, err) = run_in(d, &["make", "p.ron", "-o", "out.ron/"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.starts_with("error: --output: "), "{err}");
    assert_eq!(files(d), ["p.ron"]);
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_is_followed() {
    let (dir, _) = setup(SMALL);
    let d = dir.path();
    std::fs::create_dir(d.join("real")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(d.join("real/t.gif"), b"GIF89a old").unwrap_or_else(|e| panic!("{e}"));
    std::os::unix::fs::symlink("real/t.gif", d.join("link.gif")).unwrap_or_else(|e| panic!("{e}"));
    let (code, _, err) = run_in(d, &["run", "p.ron", "--gif", "link.gif"]);
    assert_eq!(code, Some(0), "{err}");
    // The link is still a link, and the file it points to is the GIF.
    let link = std::fs::symlink_metadata(d.join("link.gif")).unwrap_or_else(|e| panic!("{e}"));
    assert!(link.file_type().is_symlink());
    let gif = std::fs::read(d.join("real/t.gif")).unwrap_or_else(|e| panic!("{e}"));
    assert!(gif.starts_with(b"GIF89a"));
    assert_eq!(files(&d.join("real")), ["t.gif"]);
    // A link to the puzzle file is the puzzle file.
    std::os::unix::fs::symlink("p.ron", d.join("alias.gif")).unwrap_or_else(|e| panic!("{e}"));
    let (code, _, err) = run_in(d, &["run", "p.ron", "--gif", "alias.gif"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("this is the puzzle file"), "{err}");
    // A link to nothing is refused, and nothing is created.
    std::os::unix::fs::symlink("missing/x.gif", d.join("dangling.gif"))
        .unwrap_or_else(|e| panic!("{e}"));
    let (code, _, err) = run_in(d, &["run", "p.ron", "--gif", "dangling.gif"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("symbolic link to a file that does not exist"),
        "{err}"
    );
    assert!(!d.join("missing").exists());
}

#[test]
fn special_files_as_the_archive_are_refused_untouched() {
    let (dir, _) = setup(SMALL);
    let d = dir.path();
    mkfifo(&d.join("fifo.db"));
    let before = files(d);
    for (db, what) in [
        ("fifo.db", "is a FIFO (named pipe), not an archive file"),
        ("/dev/null", "is a character device, not an archive file"),
    ] {
        for args in [
            &["run", "p.ron", "--save", "--archive", db][..],
            &["archive", "list", "--archive", db],
        ] {
            let (code, stdout, err) = run_in(d, args);
            assert_eq!(code, Some(2), "{args:?}: {err}");
            assert!(stdout.is_empty(), "{args:?}: no search ran");
            assert!(err.starts_with(&format!("error: {db}: {what}")), "{err}");
        }
    }
    assert_eq!(files(d), before);
    assert!(!Path::new("/dev/null-journal").exists());
}

/// A refused output leaves nothing behind, not even the archive `--save`
/// would have created: every output is checked before the archive is made,
/// and an archive that cannot be made leaves no folder behind.
#[test]
fn a_refused_output_creates_no_archive() {
    let (dir, _) = setup(SMALL);
    let d = dir.path();
    std::fs::write(d.join("s.ron"), SMALL.replace(")", ", save: true)"))
        .unwrap_or_else(|e| panic!("{e}"));
    let long = format!("sub/{}.db", "x".repeat(300));
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "run",
                "p.ron",
                "--save",
                "--archive",
                "new.db",
                "--gif",
                "new.db",
            ],
            "error: --gif: this is the archive",
        ),
        (
            &[
                "run",
                "p.ron",
                "--save",
                "--archive",
                "new.db",
                "--gif",
                "/nonexistent/a.gif",
            ],
            "error: --gif: cannot write a GIF here",
        ),
        (
            &[
                "run",
                "s.ron",
                "--archive",
                "sub/new.db",
                "--png",
                "no/such/a.png",
            ],
            "error: --png: cannot write a PNG here",
        ),
        (
            &[
                "run",
                "p.ron",
                "--save",
                "--archive",
                "new.db",
                "--trace",
                "t.jsonl/",
            ],
            "error: --trace: ",
        ),
        (
            &["run", "p.ron", "--save", "--archive", "sub/new.db/"],
            "error: --archive: the path ends in `/`",
        ),
        (
            &["run", "p.ron", "--save", "--archive", &long],
            "cannot create the archive",
        ),
    ];
    for (args, said) in cases {
        let (code, stdout, err) = run_in(d, args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(stdout.is_empty(), "{args:?}: no search ran:\n{stdout}");
        assert!(err.contains(said), "{args:?}: {err}");
        assert_eq!(files(d), ["p.ron", "s.ron"], "{args:?}: {err}");
    }
}

/// `archive list`, `stats` and `show` only read: an archive that does not
/// exist is an error, and neither it nor its folder is created.
#[test]
fn reading_commands_never_create_an_archive() {
    let (dir, _) = setup(SMALL);
    let d = dir.path();
    for db in ["none.db", "sub/none.db"] {
        for args in [
            &["archive", "list", "--archive", db][..],
            &["archive", "stats", "--archive", db],
            &["archive", "stats", "p.ron", "--archive", db],
            &["archive", "show", "1", "--archive", db],
            &["archive", "show", "1", "--archive", db, "--gif", "t.gif"],
        ] {
            let (code, stdout, err) = run_in(d, args);
            assert_eq!(code, Some(2), "{args:?}: {err}");
            assert!(stdout.is_empty(), "{args:?}: {stdout}");
            assert!(
                err.starts_with(&format!("error: {db}: no archive at this path")),
                "{args:?}: {err}"
            );
            assert!(err.contains("run --save"), "{args:?}: {err}");
            assert_eq!(files(d), ["p.ron"], "{args:?}");
        }
        // The environment's archive alike.
        let out = engine_process()
            .args(["archive", "list"])
            .env("ENGINE_ARCHIVE", db)
            .current_dir(d)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(files(d), ["p.ron"]);
    }
}

/// A temporary file named as the GIF writer names them, for `target`:
/// `.<target>.<random>.<mark>.part`, the mark the first 4 bytes of the
/// SHA-256 of `engine temporary\0.<target>.<random>`, in hex.
fn temporary(dir: &Path, target: &str, random: &str) -> std::path::PathBuf {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!("engine temporary\0.{target}.{random}"));
    let mark: String = digest[..4].iter().map(|b| format!("{b:02x}")).collect();
    let p = dir.join(format!(".{target}.{random}.{mark}.part"));
    std::fs::write(&p, b"left by a killed process").unwrap_or_else(|e| panic!("{e}"));
    p
}

#[test]
fn stale_temporaries_are_swept_and_live_ones_kept() {
    let (dir, _) = setup(SMALL);
    let d = dir.path();
    let hour_ago = SystemTime::now() - Duration::from_secs(3600);
    let age = |p: &Path| {
        std::fs::File::options()
            .write(true)
            .open(p)
            .and_then(|f| f.set_modified(hour_ago))
            .unwrap_or_else(|e| panic!("{e}"));
    };
    let stale = temporary(d, "t.gif", "aB3xY9");
    age(&stale);
    // Being written by another process: locked.
    let held = temporary(d, "t.gif", "Zz9Zz9");
    age(&held);
    let lock = std::fs::File::open(&held).unwrap_or_else(|e| panic!("{e}"));
    lock.lock().unwrap_or_else(|e| panic!("{e}"));
    // Just created: a writer may not have locked it yet.
    let fresh = temporary(d, "t.gif", "Qq1Qq1");
    // Not ours: another target's, or not named as ours.
    let other = temporary(d, "u.gif", "aB3xY9");
    age(&other);
    // Named as the old writers named them, and with a wrong mark.
    let unmarked = d.join(".t.gif.aB3xY9.part");
    std::fs::write(&unmarked, b"x").unwrap_or_else(|e| panic!("{e}"));
    age(&unmarked);
    let forged = d.join(".t.gif.aB3xY9.01234567.part");
    std::fs::write(&forged, b"x").unwrap_or_else(|e| panic!("{e}"));
    age(&forged);
    let odd = d.join(".t.gif.not-random.part");
    std::fs::write(&odd, b"x").unwrap_or_else(|e| panic!("{e}"));
    age(&odd);
    let (code, _, err) = run_in(d, &["run", "p.ron", "--gif", "t.gif"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!stale.exists(), "the stale temporary is swept");
    for kept in [&held, &fresh, &other, &odd, &unmarked, &forged] {
        assert!(kept.exists(), "{} is kept", kept.display());
    }
    assert!(d.join("t.gif").exists());
    drop(lock);
}

#[test]
fn sigterm_while_writing_a_gif_leaves_no_temporary() {
    // A 300x300 tour GIF takes a while to write; the search before it is quick.
    let (dir, _) =
        setup(r#"Puzzle(board: "300x300", piece: "knight", start: "a1", solver: Warnsdorff())"#);
    let d = dir.path();
    let mut child = engine_process()
        .args([
            "run",
            "p.ron",
            "--quiet",
            "--gif",
            "t.gif",
            "--max-frames",
            "100000",
        ])
        .current_dir(d)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    // Wait for the temporary to appear, then ask the process to end.
    let started = std::time::Instant::now();
    while !files(d).iter().any(|f| f.ends_with(".part")) {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no temporary appeared: {:?}",
            files(d)
        );
        if child.try_wait().ok().flatten().is_some() {
            panic!("the run ended before its GIF was being written");
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let sent = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap_or_else(|e| panic!("kill: {e}"));
    assert!(sent.success());
    let status = child.wait().unwrap_or_else(|e| panic!("{e}"));
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut err);
    }
    assert_eq!(status.code(), Some(130), "{err}");
    assert_eq!(files(d), ["p.ron"], "{err}");
}

/// Runs `engine ARGS` in `dir` with stdout a pipe that is closed after one
/// byte: exit code and stderr.
fn closed_after_one_byte(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let mut child = engine_process()
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut out = child.stdout.take().unwrap_or_else(|| panic!("stdout"));
    let mut one = [0u8; 1];
    let _ = out.read_exact(&mut one);
    drop(out);
    let output = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Runs `engine ARGS` in `dir` with stdout on /dev/full.
fn full_disk(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let full = std::fs::File::options()
        .write(true)
        .open("/dev/full")
        .unwrap_or_else(|e| panic!("/dev/full: {e}"));
    let out = engine_process()
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(full)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_closed_or_full_stdout_is_never_a_panic_nor_a_silent_loss() {
    // Outputs large enough to fill a pipe's buffer.
    let (dir, _) = setup(r#"Puzzle(board: "200x200", piece: "knight", start: "a1")"#);
    let d = dir.path();
    let (code, _, err) = run_in(d, &["run", "p.ron", "--save", "--archive", "a.db"]);
    assert_eq!(code, Some(0), "{err}");
    std::fs::write(
        d.join("count.ron"),
        r#"Puzzle(board: "5x5", piece: "knight")"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let cases: &[(&[&str], i32)] = &[
        (&["run", "p.ron", "--quiet"], 0),
        (&["run", "p.ron", "--quiet", "--format", "json"], 0),
        (&["check", "p.ron", "--grid"], 0),
        (&["count", "count.ron", "--quiet"], 0),
        (&["archive", "list", "--archive", "a.db"], 0),
        (&["archive", "stats", "--archive", "a.db"], 0),
        (&["archive", "show", "1", "--archive", "a.db", "--grid"], 0),
    ];
    for (args, code) in cases {
        // A closed pipe: quiet, and the command's own exit code.
        let (got, err) = closed_after_one_byte(d, args);
        assert_eq!(got, Some(*code), "{args:?} | head -c 1: {err}");
        assert!(err.is_empty(), "{args:?} | head -c 1: {err}");
        // A full disk: exit 2, and why.
        let (got, err) = full_disk(d, args);
        assert_eq!(got, Some(2), "{args:?} > /dev/full: {err}");
        assert!(
            err.starts_with(
                "error: standard output: cannot write the output: No space left on device"
            ),
            "{args:?} > /dev/full: {err}"
        );
    }
}

#[test]
fn node_limits_are_exact_and_zero_is_refused() {
    // A limit of n enters n nodes, whichever search, goal and start.
    for order in ["Given", "Warnsdorff"] {
        for tour in ["Open", "Closed"] {
            for start in ["any", "c3"] {
                for n in [1u64, 2, 3, 7, 4095, 4096, 4097, 10_000] {
                    let text = format!(
                        "Puzzle(board: \"7x8\", piece: \"knight\", tour: {tour}, start: \"{start}\", solver: Backtrack(order: {order}, node_limit: {n}))"
                    );
                    let (dir, _) = setup(&text);
                    let (code, out, err) =
                        run_in(dir.path(), &["run", "p.ron", "--format", "json"]);
                    let v: serde_json::Value =
                        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out} {err}"));
                    if v["status"] == "found" {
                        assert!(v["stats"]["nodes"].as_u64() <= Some(n), "{text}: {v}");
                        continue;
                    }
                    assert_eq!(code, Some(3), "{text}: {err}");
                    assert_eq!(v["stats"]["nodes"].as_u64(), Some(n), "{text}: {v}");
                }
            }
        }
    }
    // A tour completed by the n-th node is found with a limit of n, not n − 1.
    let (dir, _) = setup(
        r#"Puzzle(board: "5x5", piece: "knight", start: "a1", solver: Backtrack(node_limit: 25))"#,
    );
    let (code, out, err) = run_in(dir.path(), &["run", "p.ron", "--format", "json"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let (dir, _) = setup(
        r#"Puzzle(board: "5x5", piece: "knight", start: "a1", solver: Backtrack(node_limit: 24))"#,
    );
    let (code, _, err) = run_in(dir.path(), &["run", "p.ron"]);
    assert_eq!(code, Some(3), "{err}");
}

#[test]
fn start_equal_to_end_is_refused_with_both_places() {
    let (dir, _) = setup("Puzzle(\n  board: \"5x5\",\n  piece: \"N\",\n  end: \"c3\",\n)");
    let (code, out, err) = run_in(dir.path(), &["run", "p.ron", "--start", "(2,2)"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty());
    assert!(
        err.starts_with("error: --start: c3 is the puzzle's `end` too (p.ron:4:9)"),
        "{err}"
    );
    // A closed tour has no end; a board of one square starts where it ends.
    let (dir, _) = setup(r#"Puzzle(board: "1x1", piece: "N", start: "a1", end: "a1")"#);
    let (code, _, err) = run_in(dir.path(), &["run", "p.ron"]);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn a_byte_order_mark_is_accepted() {
    let (dir, _) = setup("\u{FEFF}Puzzle(board: \"4x4\", piece: \"N\", tour: Closed)");
    let (code, out, err) = run_in(dir.path(), &["check", "p.ron"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(out.starts_with("p — N on 4x4"), "{out}");
    // Positions after it are as an editor shows them.
    let (dir, _) = setup("\u{FEFF}Puzzle(board: \"4x4 - z9\", piece: \"N\")");
    let (code, _, err) = run_in(dir.path(), &["check", "p.ron"]);
    assert_eq!(code, Some(2));
    assert!(
        err.starts_with("error: p.ron:1:22: z9 is off the 4x4 board"),
        "{err}"
    );
}

#[test]
fn control_characters_never_reach_the_terminal() {
    let (dir, _) = setup(
        "Puzzle(name: \"Evil\\u{1b}]0;owned\\u{7}\\u{1b}[2J\", board: \"5x5\", piece: \"N\\t| C\", start: \"a1\", save: true)",
    );
    let d = dir.path();
    for args in [
        &["check", "p.ron"][..],
        &["run", "p.ron", "--archive", "a.db"],
        &["archive", "list", "--archive", "a.db"],
        &["archive", "stats", "--archive", "a.db"],
        &["archive", "show", "1", "--archive", "a.db"],
    ] {
        let (code, out, err) = run_in(d, args);
        assert!(matches!(code, Some(0 | 1)), "{args:?}: {err}");
        assert!(
            !out.contains('\u{1b}') && !out.contains('\u{7}'),
            "{args:?}: {out:?}"
        );
        assert!(!err.contains('\u{1b}'), "{args:?}: {err:?}");
    }
    let (_, out, _) = run_in(d, &["check", "p.ron"]);
    assert!(
        out.starts_with("Evil\\u{1b}]0;owned\\u{7}\\u{1b}[2J — N\\t| C on 5x5"),
        "{out}"
    );
    // In messages too: a file name and a quoted name.
    let (dir, _) = setup("Puzzle(board: \"5x5\", piece: \"N\", unknown\\u{1b}: 1)");
    let (_, _, err) = run_in(dir.path(), &["check", "p.ron"]);
    assert!(!err.contains('\u{1b}'), "{err:?}");
}

#[test]
fn flags_are_reported_as_flags() {
    let (dir, _) = setup(SMALL);
    let d = dir.path();
    for (args, start) in [
        (
            &["run", "p.ron", "--start", "z9"][..],
            "error: --start: z9 is off the 5x5 board",
        ),
        (
            &["run", "p.ron", "--cell", "1"],
            "error: --cell: the cell size",
        ),
        (&["count", "p.ron", "--shard", "0/2"], "error: --shard: "),
    ] {
        let (code, _, err) = run_in(d, args);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.starts_with(start), "{args:?}: {err}");
        assert!(!err.contains(":1:1"), "{args:?}: a made-up position: {err}");
    }
    // Numbers as written, not as read.
    for cmd in ["run", "check", "count"] {
        engine()
            .args([cmd, "p.ron", "--time-limit", "1e400"])
            .current_dir(d)
            .assert()
            .code(2)
            .stderr(predicates::str::starts_with(
                "error: --time-limit: a time limit is at most 1e9 seconds",
            ))
            .stderr(predicates::str::contains(" | --time-limit 1e400\n"));
    }
}

/// Each output flag and the first bytes of a file of its own kind.
const KINDS: [(&str, &[u8]); 6] = [
    ("--gif", b"GIF89a"),
    ("--search-gif", b"GIF89a"),
    ("--png", b"\x89PNG\r\n\x1a\n"),
    ("--svg", b"<svg"),
    ("--html", b"<!DOCTYPE html>"),
    ("--trace", br#"{"trace":"engine search events""#),
];

#[test]
fn an_output_over_a_file_of_another_kind_is_refused_unless_forced() {
    let (dir, _) = setup(SMALL);
    let d = dir.path();
    // Files of other kinds: a puzzle, an SQLite database, a text.
    std::fs::write(d.join("other.ron"), SMALL).unwrap_or_else(|e| panic!("{e}"));
    let (code, _, err) = run_in(d, &["run", "p.ron", "--save", "--archive", "x.db"]);
    assert_eq!(code, Some(0), "{err}");
    std::fs::write(d.join("notes.txt"), "my notes\n").unwrap_or_else(|e| panic!("{e}"));
    for (i, (flag, mark)) in KINDS.into_iter().enumerate() {
        for (target, seems) in [
            ("other.ron", "a puzzle file"),
            ("x.db", "an SQLite database"),
            ("notes.txt", "a text file"),
        ] {
            let before = std::fs::read(d.join(target)).unwrap_or_else(|e| panic!("{e}"));
            let (code, stdout, err) = run_in(d, &["run", "p.ron", flag, target]);
            assert_eq!(code, Some(2), "{flag} {target}: {err}");
            assert!(stdout.is_empty(), "no search ran");
            assert!(
                err.starts_with(&format!(
                    "error: {flag}: `{target}` seems to be {seems}, not "
                )),
                "{err}"
            );
            assert!(err.contains("--force to replace it"), "{err}");
            assert_eq!(std::fs::read(d.join(target)).ok(), Some(before));
        }
        // Forced, the file is replaced by one of the flag's kind.
        let forced = format!("forced{i}.txt");
        std::fs::write(d.join(&forced), "a text\n").unwrap_or_else(|e| panic!("{e}"));
        let (code, _, err) = run_in(d, &["run", "p.ron", flag, &forced, "--force"]);
        assert_eq!(code, Some(0), "{flag}: {err}");
        let written = std::fs::read(d.join(&forced)).unwrap_or_else(|e| panic!("{e}"));
        assert!(written.starts_with(mark), "{flag}");
        // A file of its own kind (the one just written) or an empty one is
        // replaced as before, without --force.
        let (code, _, err) = run_in(d, &["run", "p.ron", flag, &forced]);
        assert_eq!(code, Some(0), "{flag}: {err}");
        std::fs::write(d.join("empty"), "").unwrap_or_else(|e| panic!("{e}"));
        let (code, _, err) = run_in(d, &["run", "p.ron", flag, "empty"]);
        assert_eq!(code, Some(0), "{flag}: {err}");
        assert!(
            std::fs::read(d.join("empty"))
                .unwrap_or_default()
                .starts_with(mark)
        );
        std::fs::remove_file(d.join("empty")).unwrap_or_else(|e| panic!("{e}"));
    }
    // A GIF is not a PNG, nor a PNG an SVG.
    let (code, _, err) = run_in(d, &["run", "p.ron", "--png", "forced0.txt"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("seems to be a GIF image, not a PNG"), "{err}");
    // `archive show` draws under the same rule.
    for (flag, mark) in [KINDS[0], KINDS[4]] {
        let (code, _, err) = run_in(
            d,
            &[
                "archive",
                "show",
                "1",
                "--archive",
                "x.db",
                flag,
                "other.ron",
            ],
        );
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("seems to be a puzzle file"), "{err}");
        let (code, _, err) = run_in(
            d,
            &[
                "archive",
                "show",
                "1",
                "--archive",
                "x.db",
                flag,
                "notes.txt",
                "--force",
            ],
        );
        assert_eq!(code, Some(0), "{err}");
        let written = std::fs::read(d.join("notes.txt")).unwrap_or_default();
        assert!(written.starts_with(mark), "{flag}");
        std::fs::write(d.join("notes.txt"), "my notes\n").unwrap_or_else(|e| panic!("{e}"));
    }
    assert_eq!(
        std::fs::read(d.join("other.ron")).ok(),
        Some(SMALL.as_bytes().to_vec())
    );
}

#[test]
fn make_writes_over_a_puzzle_it_made_and_not_over_one_written_by_hand() {
    let (dir, _) = setup(SMALL);
    let d = dir.path();
    let make = |out: &str, force: bool| {
        let mut args = vec![
            "make", "--board", "4x5", "--seed", "3", "-o", out, "--quiet",
        ];
        if force {
            args.push("--force");
        }
        run_in(d, &args)
    };
    // A puzzle written by hand, as the output or as a picture's place.
    std::fs::write(d.join("mine.ron"), SMALL).unwrap_or_else(|e| panic!("{e}"));
    let (code, stdout, err) = make("mine.ron", false);
    assert_eq!(code, Some(2), "{err}");
    assert!(stdout.is_empty());
    assert!(
        err.starts_with(
            "error: --output: `mine.ron` seems to be a puzzle file, not a puzzle made by `engine make`"
        ),
        "{err}"
    );
    std::fs::write(d.join("made.svg"), "my notes\n").unwrap_or_else(|e| panic!("{e}"));
    let (code, _, err) = make("made.ron", false);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.starts_with("error: --output (its blank picture): `made.svg` seems to be a text file, not an SVG picture"),
        "{err}"
    );
    assert_eq!(
        files(d),
        ["made.svg", "mine.ron", "p.ron"],
        "nothing written"
    );
    // Forced, all three are written; made again, they are replaced.
    let (code, _, err) = make("made.ron", true);
    assert_eq!(code, Some(0), "{err}");
    // The same puzzle; the header's command is the one that made it.
    let after_command = |text: String| text.split_once('\n').map(|(_, rest)| rest.to_string());
    let first = std::fs::read_to_string(d.join("made.ron")).unwrap_or_default();
    let (code, _, err) = make("made.ron", false);
    assert_eq!(code, Some(0), "{err}");
    let again = std::fs::read_to_string(d.join("made.ron")).unwrap_or_default();
    assert!(first.contains(" --force`") && !again.contains(" --force`"));
    assert_eq!(after_command(again), after_command(first));
    assert!(
        std::fs::read(d.join("made-solution.svg"))
            .unwrap_or_default()
            .starts_with(b"<svg")
    );
    assert_eq!(
        std::fs::read(d.join("mine.ron")).ok(),
        Some(SMALL.as_bytes().to_vec())
    );
}
