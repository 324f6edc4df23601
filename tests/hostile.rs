//! Hostile puzzle files, made by generators, one family at a time:
//! exponential unions, long alias chains, deep nesting, huge jump lists,
//! huge boards with long-range pieces, endless inputs. Each must end within
//! a second — with exit 2 and a message, or with a proof (exit 1) — under
//! `run`, `check` and `count`. A hang is killed after ten seconds; a case
//! slower than a second is tried once more before it fails, so that a
//! moment of load on a shared machine is not taken for a hang.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::engine_process;

/// What a case must end with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ends {
    /// Exit 2 with this fragment in the message.
    Refused(&'static str),
    /// Exit 1: a proof that no tour exists (`check` and `run`), or a count of 0.
    Proof,
    /// Exit 3: the time limit ran out.
    TimeLimit,
}

/// Runs `cmd` to its end or for ten seconds: the exit code, stdout, stderr
/// and how long it took.
fn timed(cmd: &mut Command) -> (Option<i32>, String, String, Duration) {
    timed_for(cmd, Duration::from_secs(10))
}

/// Runs `cmd` to its end or for `bound`: the exit code (None when it was
/// killed, by a signal or at the bound), stdout, stderr and how long it
/// took.
fn timed_for(cmd: &mut Command, bound: Duration) -> (Option<i32>, String, String, Duration) {
    let started = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("engine does not start: {e}"));
    let mut out = child.stdout.take().unwrap_or_else(|| panic!("stdout"));
    let mut err = child.stderr.take().unwrap_or_else(|| panic!("stderr"));
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let status = loop {
        if let Some(s) = child.try_wait().unwrap_or_else(|e| panic!("{e}")) {
            break Some(s);
        }
        if started.elapsed() > bound {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let took = started.elapsed();
    let out = reader.join().unwrap_or_default();
    let err = err_reader.join().unwrap_or_default();
    (status.and_then(|s| s.code()), out, err, took)
}

/// Runs `engine ARGS` (in `dir`) and checks that it ends as `ends` within
/// a second.
fn ends_within_a_second(dir: &Path, args: &[&str], ends: Ends, what: &str) {
    let mut tries = 0;
    loop {
        tries += 1;
        let (code, out, err, took) = timed(engine_process().args(args).current_dir(dir));
        let what = format!("{what}: engine {}", args.join(" "));
        assert!(code.is_some(), "{what}: still running after 10 s");
        match ends {
            Ends::Refused(fragment) => {
                assert_eq!(code, Some(2), "{what}:\n{err}");
                assert!(err.contains(fragment), "{what}: no `{fragment}` in\n{err}");
                assert!(err.len() < 2000, "{what}: a long message:\n{err}");
                assert!(out.is_empty(), "{what}: printed {out}");
            }
            Ends::Proof => assert_eq!(code, Some(1), "{what}:\n{out}\n{err}"),
            Ends::TimeLimit => assert_eq!(code, Some(3), "{what}:\n{out}\n{err}"),
        }
        assert!(!err.contains("panicked"), "{what}: {err}");
        if took <= Duration::from_secs(1) {
            return;
        }
        // A loaded machine can slow one run; a hang or a blow-up slows all.
        assert!(tries < 3, "{what}: took {took:?}, three times");
    }
}

/// Writes `text` as `p.ron` in a new folder and runs every case on it.
fn each_command(text: &str, ends: Ends, what: &str) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.path().join("p.ron"), text).unwrap_or_else(|e| panic!("{e}"));
    for cmd in [
        &["check", "p.ron"][..],
        &["run", "p.ron", "--quiet"],
        &["count", "p.ron", "--quiet"],
    ] {
        // `count` proves by counting 0 tours (exit 0).
        let ends = match (cmd[0], ends) {
            ("count", Ends::Proof) => {
                let (code, out, err, _) = timed(engine_process().args(cmd).current_dir(dir.path()));
                assert_eq!(code, Some(0), "{what}: count:\n{out}\n{err}");
                assert!(out.contains("\n0 "), "{what}: count:\n{out}");
                continue;
            }
            (_, e) => e,
        };
        ends_within_a_second(dir.path(), cmd, ends, what);
    }
}

/// A 4x4 board has no closed knight's tour (Schwenk): a puzzle on it whose
/// piece turns out to be the knight ends with that proof.
fn closed_4x4(piece: &str, pieces: &str) -> String {
    format!("Puzzle(board: \"4x4\", tour: Closed, piece: \"{piece}\", pieces: {{ {pieces} }})")
}

#[test]
fn exponential_unions() {
    // p0 = p1 | p1, …: 2^depth expansions for a naive resolver.
    for depth in [10, 60, 1000] {
        let defs: Vec<String> = (0..depth)
            .map(|i| format!("\"p{i}\": \"p{} | p{}\"", i + 1, i + 1))
            .collect();
        let valid = format!("{}, \"p{depth}\": \"knight\"", defs.join(", "));
        each_command(&closed_4x4("p0", &valid), Ends::Proof, "exponential union");
        // Wider: each name used four times.
        let wide: Vec<String> = (0..depth)
            .map(|i| format!("\"p{i}\": \"p{0} | (p{0} + p{0}) | p{0}\"", i + 1))
            .collect();
        let text = closed_4x4("p0", &format!("{}, \"p{depth}\": \"N\"", wide.join(", ")));
        each_command(&text, Ends::Proof, "four-way exponential union");
        // The same, with an error at the bottom and one after it.
        let bottom = format!("{}, \"p{depth}\": \"wizard\"", defs.join(", "));
        each_command(
            &closed_4x4("p0", &bottom),
            Ends::Refused("unknown piece `wizard`"),
            "exponential union over an unknown name",
        );
        let after = format!("{valid}, \"zz\": \"leaper 0 0\"");
        each_command(
            &closed_4x4("p0", &after),
            Ends::Refused("(0,0)"),
            "an error after an exponential union",
        );
    }
}

#[test]
fn long_alias_chains() {
    // 20,000 is the chain of the report; a longer one takes longer to read
    // (about 0.4 s for 100,000 aliases) and would test the machine's load.
    for len in [1000, 20_000] {
        let defs: Vec<String> = (0..len)
            .map(|i| format!("\"p{i}\": \"p{}\"", i + 1))
            .collect();
        let chain = defs.join(", ");
        each_command(
            &closed_4x4("p0", &format!("{chain}, \"p{len}\": \"leaper 1 2\"")),
            Ends::Proof,
            "alias chain",
        );
        // Defined from the bottom up, used from the top.
        let reversed: Vec<String> = defs.iter().rev().cloned().collect();
        each_command(
            &closed_4x4("p0", &format!("\"p{len}\": \"N\", {}", reversed.join(", "))),
            Ends::Proof,
            "alias chain, reversed",
        );
        each_command(
            &closed_4x4("p0", &format!("{chain}, \"p{len}\": \"p0\"")),
            Ends::Refused("cycle in `pieces`: p0 -> p1 -> p2 -> p3 -> …"),
            "alias cycle",
        );
        // An unused long chain still gets its error.
        each_command(
            &closed_4x4("N", &format!("{chain}, \"p{len}\": \"nope\"")),
            Ends::Refused("unknown piece `nope`"),
            "unused chain with an unknown name",
        );
    }
}

#[test]
fn deep_nesting() {
    let nest = |depth: usize| format!("{}N{}", "(".repeat(depth), ")".repeat(depth));
    each_command(&closed_4x4(&nest(32), ""), Ends::Proof, "nesting 32");
    for depth in [33, 1000, 1_000_000] {
        each_command(
            &closed_4x4(&nest(depth), ""),
            Ends::Refused("nested more than 32 deep"),
            "deep nesting",
        );
    }
    // Nesting spread over definitions: each at most 32 deep, 2,000 in all.
    let defs: Vec<String> = (0..2000)
        .map(|i| {
            format!(
                "\"p{i}\": \"{}p{}{}\"",
                "(".repeat(30),
                i + 1,
                ")".repeat(30)
            )
        })
        .collect();
    let text = closed_4x4("p0", &format!("{}, \"p2000\": \"N\"", defs.join(", ")));
    each_command(&text, Ends::Proof, "nesting through definitions");
    // Nesting in the RON document itself.
    for depth in [200, 100_000] {
        let text = format!(
            "Puzzle(board: \"4x4\", piece: \"N\", name: {}\"x\"{})",
            "[".repeat(depth),
            "]".repeat(depth)
        );
        each_command(&text, Ends::Refused(""), "nested RON");
    }
}

#[test]
fn huge_jump_lists() {
    // Far jumps: on a 3x3 board no square has a move, which is a proof.
    let far = |n: usize| -> String {
        let jumps: Vec<String> = (0..n)
            .map(|i| format!("({},{})", 3 + i / 100, 3 + i % 100))
            .collect();
        format!("jumps {}", jumps.join(", "))
    };
    for n in [100, 4096] {
        let text = format!("Puzzle(board: \"3x3\", piece: \"{}\")", far(n));
        each_command(&text, Ends::Proof, "a long jump list");
    }
    for n in [4097, 200_000] {
        let text = format!("Puzzle(board: \"3x3\", piece: \"{}\")", far(n));
        each_command(
            &text,
            Ends::Refused("more than 4096 jumps"),
            "too many jumps",
        );
    }
    // Repeats are dropped, but a list longer than the cap is refused as written.
    let same = format!("jumps {}", vec!["(5,5)"; 100_000].join(", "));
    each_command(
        &format!("Puzzle(board: \"3x3\", piece: \"{same}\")"),
        Ends::Refused("more than 4096 jumps"),
        "a long list of one jump",
    );
    // Unions of long lists: the move set would pass the cap.
    let a: Vec<String> = (0..3000)
        .map(|i| format!("({},{})", 3 + i / 60, 3 + i % 60))
        .collect();
    let b: Vec<String> = (0..3000)
        .map(|i| format!("({},{})", -3 - i / 60, 3 + i % 60))
        .collect();
    let text = format!(
        "Puzzle(board: \"3x3\", piece: \"a | b\", pieces: {{ \"a\": \"jumps {}\", \"b\": \"jumps {}\" }})",
        a.join(", "),
        b.join(", ")
    );
    each_command(
        &text,
        Ends::Refused("this union has 6000 moves, more than the 4096 a piece may have"),
        "a union of long lists",
    );
    // A big list used by many names, each adding one move: the work of
    // resolving them all is bounded.
    let defs: Vec<String> = (0..6000)
        .map(|i| format!("\"q{i}\": \"a | jumps ({},{})\"", 200 + i, 7))
        .collect();
    let text = format!(
        "Puzzle(board: \"3x3\", piece: \"q0\", pieces: {{ \"a\": \"jumps {}\", {} }})",
        a.join(", "),
        defs.join(", ")
    );
    each_command(
        &text,
        Ends::Refused("moves in all"),
        "many copies of a long list",
    );
    // The same with forty moves added by each name: unions that hash.
    let defs: Vec<String> = (0..1500)
        .map(|i| {
            let jumps: Vec<String> = (0..40)
                .map(|j| format!("({},{})", 200 + i, 7 + j))
                .collect();
            format!("\"q{i}\": \"a | jumps {}\"", jumps.join(", "))
        })
        .collect();
    let text = format!(
        "Puzzle(board: \"3x3\", piece: \"q0\", pieces: {{ \"a\": \"jumps {}\", {} }})",
        a.join(", "),
        defs.join(", ")
    );
    each_command(
        &text,
        Ends::Refused("moves in all"),
        "many copies of a long list, forty moves added to each",
    );
    // A Betza word of 200,000 letters is nine atoms (a million took 0.8 s
    // to read on a loaded machine, too near the bound of a second).
    let word = "NC".repeat(100_000);
    each_command(
        &format!("Puzzle(board: \"2x2\", piece: \"{word}\")"),
        Ends::Proof,
        "a long Betza word",
    );
}

#[test]
fn huge_boards_with_long_range_pieces() {
    // Refused by the move graph's memory estimate, in every command.
    for piece in ["rook", "queen", "nightrider", "rider 1 0 max 2000", "WWNN"] {
        let text = format!("Puzzle(board: \"4096x4096\", piece: \"{piece}\")");
        each_command(
            &text,
            Ends::Refused("allowed"),
            "a rider on the largest board",
        );
    }
    let jumps: Vec<String> = (0..300)
        .map(|i| format!("({},{})", i + 1, 2 * i + 1))
        .collect();
    let text = format!(
        "Puzzle(board: \"4096x4096\", piece: \"jumps {}\")",
        jumps.join(", ")
    );
    each_command(
        &text,
        Ends::Refused("allowed"),
        "300 jumps on the largest board",
    );
    // Within the budget but seconds of work: the time limit covers setup in
    // every command, `check` included.
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let jumps: Vec<String> = (0..40).map(|i| format!("({},{})", i + 1, 40 - i)).collect();
    for (name, piece) in [
        ("far.ron", "leaper 1000 1001".to_string()),
        ("jumps.ron", format!("jumps {}", jumps.join(", "))),
    ] {
        let text = format!("Puzzle(board: \"4096x4096\", piece: \"{piece}\")");
        std::fs::write(dir.path().join(name), text).unwrap_or_else(|e| panic!("{e}"));
        for cmd in ["check", "run", "count"] {
            ends_within_a_second(
                dir.path(),
                &[cmd, name, "--time-limit", "0.2"],
                Ends::TimeLimit,
                "a long-range piece on the largest board",
            );
        }
    }
}

#[test]
fn endless_and_special_inputs() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    for cmd in ["run", "check", "count"] {
        for (path, what) in [
            ("/dev/zero", "a character device"),
            ("/dev/urandom", "a character device"),
            ("/", "a directory"),
        ] {
            ends_within_a_second(dir.path(), &[cmd, path], Ends::Refused(what), path);
        }
    }
    // A FIFO with no writer would block whoever opens it.
    let fifo = dir.path().join("fifo.ron");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap_or_else(|e| panic!("mkfifo: {e}"));
    assert!(made.success());
    for cmd in ["run", "check", "count"] {
        ends_within_a_second(
            dir.path(),
            &[cmd, "fifo.ron"],
            Ends::Refused("is a FIFO (named pipe), not a puzzle file"),
            "a FIFO",
        );
    }
    // A file over the size cap is refused with its size, without reading it.
    let big = dir.path().join("big.ron");
    let f = std::fs::File::create(&big).unwrap_or_else(|e| panic!("{e}"));
    f.set_len(engine::puzzle::MAX_FILE_BYTES + 1)
        .unwrap_or_else(|e| panic!("{e}"));
    ends_within_a_second(
        dir.path(),
        &["check", "big.ron"],
        Ends::Refused("is 32.000 MiB (33554433 bytes); a puzzle file may have at most 32 MiB"),
        "a large file",
    );
}

#[test]
fn standard_input_is_read_with_the_cap() {
    // `-` reads a puzzle from standard input…
    let out = engine_process()
        .args(["check", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            if let Some(mut i) = c.stdin.take() {
                i.write_all(br#"Puzzle(board: "4x4", piece: "N", tour: Closed)"#)?;
            }
            c.wait_with_output()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("<stdin> — N on 4x4"));
    // …but never forever.
    let started = Instant::now();
    let zero = std::fs::File::open("/dev/zero").unwrap_or_else(|e| panic!("{e}"));
    let out = engine_process()
        .args(["run", "-"])
        .stdin(zero)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("error: <stdin>: is more than 32 MiB"),
        "{err}"
    );
    assert!(started.elapsed() < Duration::from_secs(10));
}

// ---------------------------------------------------------------------------
// A damaged archive: an SQLite file with the engine's tables and nonsense in
// them (a hand edit, a broken disk, another program). Every value read is
// untrusted: a damaged run is named with its column, never a panic.

/// The columns of the archive's tables, as the engine makes them.
fn archive_columns(conn: &rusqlite::Connection, table: &str) -> Vec<String> {
    let mut q = conn
        .prepare(&format!("SELECT name FROM pragma_table_info('{table}')"))
        .unwrap_or_else(|e| panic!("{e}"));
    q.query_map([], |r| r.get(0))
        .and_then(|r| r.collect())
        .unwrap_or_else(|e| panic!("{e}"))
}

/// A table's name and its columns, each with the values saved in it.
type Table = (String, Vec<(String, Value)>);

/// An archive holding one real run of `puzzles/holed4x4.ron` (and the
/// columns of its tables, each with the saved values), rebuilt with
/// tables that have the same columns but no types and no constraints, so
/// any value fits in any cell.
fn loose_archive(dir: &Path) -> (std::path::PathBuf, Vec<Table>) {
    let path = dir.join("a.sqlite");
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/holed4x4.ron");
    let saved = engine_process()
        .args(["run", "--quiet", "--save", "--archive"])
        .arg(&path)
        .arg(&puzzle)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(saved.status.code(), Some(0));
    let conn = rusqlite::Connection::open(&path).unwrap_or_else(|e| panic!("{e}"));
    conn.execute_batch("PRAGMA foreign_keys = OFF")
        .unwrap_or_else(|e| panic!("{e}"));
    let mut tables = Vec::new();
    for table in ["puzzles", "tours", "runs"] {
        let cols = archive_columns(&conn, table);
        let row: Vec<Value> = conn
            .query_row(&format!("SELECT * FROM {table}"), [], |r| {
                (0..cols.len()).map(|i| r.get(i)).collect()
            })
            .unwrap_or_else(|e| panic!("{e}"));
        conn.execute_batch(&format!(
            "DROP TABLE {table}; CREATE TABLE {table} ({});",
            cols.join(", ")
        ))
        .unwrap_or_else(|e| panic!("{e}"));
        tables.push((table.to_string(), cols.into_iter().zip(row).collect()));
    }
    (path, tables)
}

/// Writes `rows` of `table` (each a full row of values, in the table's
/// column order) over what the table held.
fn fill(path: &Path, table: &str, rows: &[Vec<Value>]) {
    let conn = rusqlite::Connection::open(path).unwrap_or_else(|e| panic!("{e}"));
    conn.execute(&format!("DELETE FROM {table}"), [])
        .unwrap_or_else(|e| panic!("{e}"));
    for row in rows {
        let marks = vec!["?"; row.len()].join(", ");
        conn.execute(
            &format!("INSERT INTO {table} VALUES ({marks})"),
            rusqlite::params_from_iter(row),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    }
}

use rusqlite::types::Value;

/// Nonsense for a cell: every SQLite type, and the edges of each.
fn nonsense() -> Vec<Value> {
    vec![
        Value::Null,
        Value::Integer(-1),
        Value::Integer(i64::MIN),
        Value::Integer(i64::MAX),
        Value::Integer(4096),
        Value::Real(f64::INFINITY),
        Value::Real(f64::NEG_INFINITY),
        Value::Real(1e300),
        Value::Real(-0.5),
        Value::Text(String::new()),
        Value::Text("garbage \u{1b}[31mred".into()),
        Value::Text("x".repeat(100_000)),
        Value::Blob(vec![0xff, 0xfe, 0, 1, 2]),
        Value::Blob(Vec::new()),
    ]
}

#[test]
fn damaged_archive_cells_are_named_not_panics() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (path, tables) = loose_archive(dir.path());
    let archive = path.to_string_lossy().into_owned();
    let (_, runs) = &tables[2];
    let good: Vec<Value> = runs.iter().map(|(_, v)| v.clone()).collect();
    for (i, (column, _)) in runs.iter().enumerate() {
        if column == "id" {
            continue;
        }
        for bad in nonsense() {
            let mut row = good.clone();
            row[i] = bad.clone();
            fill(&path, "runs", &[row]);
            for args in [
                &["archive", "list", "--archive", &archive][..],
                &["archive", "stats", "--archive", &archive],
                &["archive", "show", "1", "--archive", &archive],
                &[
                    "archive",
                    "show",
                    "1",
                    "--format",
                    "json",
                    "--archive",
                    &archive,
                ],
            ] {
                let what = format!("`{column}` = {bad:?}: engine {}", args.join(" "));
                let (code, out, err, took) = timed(engine_process().args(args));
                assert!(!err.contains("panicked"), "{what}: {err}");
                assert!(took < Duration::from_secs(5), "{what}: took {took:?}");
                assert!(matches!(code, Some(0 | 2)), "{what}: exit {code:?}\n{err}");
                // Whatever is said about a damaged run names it and its column.
                if err.contains("damaged") {
                    assert!(
                        err.contains(&format!("run 1 is damaged: column `runs.{column}`")),
                        "{what}: {err}"
                    );
                    assert!(err.len() < 1000, "{what}: a long message:\n{err}");
                    assert!(!err.contains('\u{1b}'), "{what}: an escape printed");
                }
                assert!(!out.contains('\u{1b}'), "{what}: an escape printed");
            }
        }
    }
}

/// A cell of any SQLite type, the edges likelier than chance finds them.
fn any_cell() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<i64>().prop_map(Value::Integer),
        (-3i64..5000).prop_map(Value::Integer),
        any::<f64>().prop_map(Value::Real),
        prop::sample::select(vec![
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            -1e-9,
            1e16
        ])
        .prop_map(Value::Real),
        ".{0,12}".prop_map(Value::Text),
        prop::sample::select(vec![
            "found",
            "gave_up",
            "impossible",
            "time",
            "{}",
            "[]",
            "null"
        ])
        .prop_map(|s| Value::Text(s.into())),
        prop::collection::vec(any::<u8>(), 0..12).prop_map(Value::Blob),
    ]
}

/// A table's rows: each of `base`'s cells kept or replaced by nonsense.
fn rows_like(base: Vec<Value>) -> impl Strategy<Value = Vec<Vec<Value>>> {
    let row = base
        .into_iter()
        .map(|v| prop_oneof![3 => Just(v), 1 => any_cell()].boxed())
        .collect::<Vec<_>>();
    prop::collection::vec(row, 0..4)
}

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The archive's reads (`list`, `stats`, `show` of every run) and what
    /// prints them, on random cells in every column of every table: a
    /// result or an error, never a panic; every row read or left out with
    /// the column that is damaged.
    #[test]
    fn archive_reads_survive_random_cells(
        (puzzles, tours, runs) in {
            let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
            let (_, t) = loose_archive(dir.path());
            let base = |i: usize| t[i].1.iter().map(|(_, v)| v.clone()).collect::<Vec<_>>();
            (rows_like(base(0)), rows_like(base(1)), rows_like(base(2)))
        },
    ) {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let (path, _) = loose_archive(dir.path());
        fill(&path, "puzzles", &puzzles);
        fill(&path, "tours", &tours);
        fill(&path, "runs", &runs);
        read_everything(&path);
    }
}

/// Reads and prints everything `archive list/stats/show` would.
fn read_everything(path: &Path) {
    use engine::archive::Archive;
    use engine::render::{json, text};
    let store = match Archive::open_existing(path) {
        Ok(s) => s,
        Err(e) => {
            assert_eq!(e.kind, engine::error::ErrorKind::Archive, "{e}");
            return;
        }
    };
    if let Ok(rows) = store.list(100) {
        let _ = text::archive_list(&rows);
        let _ = json::line(&json::ListJson::new(path, &rows));
        for d in &rows.skipped {
            assert!(d.to_string().contains(" is damaged: column `"), "{d}");
        }
    }
    if let Ok(rows) = store.stats(None) {
        let _ = text::archive_stats(&rows);
        let _ = json::line(&json::StatsJson::new(path, &rows));
    }
    let conn = rusqlite::Connection::open(path).unwrap_or_else(|e| panic!("{e}"));
    let ids: Vec<Value> = conn
        .prepare("SELECT id FROM runs")
        .and_then(|mut q| q.query_map([], |r| r.get(0))?.collect())
        .unwrap_or_else(|e| panic!("{e}"));
    for id in ids {
        let Value::Integer(id) = id else { continue };
        if let Ok(Some(run)) = store.show(id) {
            let p = &run.puzzle;
            let _ = text::report_text(
                &p.name,
                &p.board,
                p.goal.closed,
                &run.report,
                Default::default(),
            );
            let mut sink = Vec::new();
            let _ = json::RunJson::new(
                &p.name,
                &p.board,
                &p.piece,
                p.goal.closed,
                &run.report,
                Some(id),
            )
            .write(&mut sink);
        }
    }
}

// ---------------------------------------------------------------------------
// Thread counts: `--threads` is at most four per core, refused above with the
// number that is allowed; the largest allowed still stops on time.

/// The most worker threads `count` takes on this machine: four per core.
fn most_threads() -> usize {
    4 * std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[test]
fn thread_counts_are_capped() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(
        dir.path().join("p5.ron"),
        "Puzzle(board: \"5x5\", piece: \"knight\")",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let most = most_threads();
    let refusal = format!("at most {most} worker threads");
    let refusal: &'static str = Box::leak(refusal.into_boxed_str());
    for threads in [most + 1, 4000, 65535, 1 << 20] {
        let t = threads.to_string();
        for method in ["dfs", "frontier"] {
            ends_within_a_second(
                dir.path(),
                &[
                    "count",
                    "p5.ron",
                    "--threads",
                    &t,
                    "--method",
                    method,
                    "--time-limit",
                    "2",
                ],
                Ends::Refused(refusal),
                "too many threads",
            );
        }
    }
    // The most allowed counts, and stops at its limit on a board too big to finish.
    let t = most.to_string();
    let (code, out, err, took) = timed(
        engine_process()
            .args(["count", "p5.ron", "--threads", &t, "--method", "dfs"])
            .current_dir(dir.path()),
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("1728 directed open tours"), "{out}");
    assert!(took < Duration::from_secs(2), "{took:?}");
    ends_within_a_second(
        dir.path(),
        &[
            "count",
            "--board",
            "8x8",
            "--threads",
            &t,
            "--method",
            "dfs",
            "--time-limit",
            "0.3",
        ],
        Ends::TimeLimit,
        "the most threads under a time limit",
    );
}

// ---------------------------------------------------------------------------
// The archive's edges: read-only, empty, named by an empty variable, with a
// tampered schema version; `--time-limit 0` on every command; temporaries
// that only look like the engine's.

/// A fresh archive holding one run of `puzzles/holed4x4.ron`, at `path`.
fn saved_archive(path: &Path) {
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/holed4x4.ron");
    let saved = engine_process()
        .args(["run", "--quiet", "--save", "--archive"])
        .arg(path)
        .arg(&puzzle)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(saved.status.code(), Some(0));
}

/// Runs `engine ARGS` within ten seconds: exit code, stdout, stderr.
fn engine_in(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String, String) {
    let mut cmd = engine_process();
    cmd.args(args).current_dir(dir);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let (code, out, err, took) = timed(&mut cmd);
    assert!(
        took < Duration::from_secs(10),
        "engine {}: a hang",
        args.join(" ")
    );
    assert!(
        !err.contains("panicked"),
        "engine {}: {err}",
        args.join(" ")
    );
    (code, out, err)
}

#[test]
fn reading_commands_never_write_an_empty_file() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.path().join("empty.sqlite"), "").unwrap_or_else(|e| panic!("{e}"));
    for args in [
        &["archive", "list", "--archive", "empty.sqlite"][..],
        &["archive", "stats", "--archive", "empty.sqlite"],
        &["archive", "show", "1", "--archive", "empty.sqlite"],
    ] {
        let (code, out, err) = engine_in(dir.path(), args, &[]);
        assert_eq!(code, Some(2), "{args:?}: {out}{err}");
        assert!(
            err.contains("empty.sqlite: is empty, not an archive yet"),
            "{err}"
        );
        assert_eq!(crate::util::files(dir.path()), ["empty.sqlite"]);
        let len = std::fs::metadata(dir.path().join("empty.sqlite")).map(|m| m.len());
        assert_eq!(len.ok(), Some(0), "{args:?} wrote into the file");
    }
}

#[test]
fn an_empty_archive_variable_is_refused_like_an_empty_flag() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let home = dir.path().join("home");
    std::fs::create_dir(&home).unwrap_or_else(|e| panic!("{e}"));
    let home_s = home.to_string_lossy().into_owned();
    let env = [
        ("ENGINE_ARCHIVE", ""),
        ("HOME", home_s.as_str()),
        ("XDG_DATA_HOME", ""),
    ];
    for args in [
        &["run", "--board", "5x5", "--save"][..],
        &["archive", "list"],
        &["archive", "stats"],
        &["archive", "show", "1"],
    ] {
        let (code, out, err) = engine_in(dir.path(), args, &env);
        assert_eq!(code, Some(2), "{args:?}: {out}{err}");
        assert!(
            err.contains("ENGINE_ARCHIVE: is set but empty"),
            "{args:?}: {err}"
        );
        assert!(out.is_empty(), "{args:?}: {out}");
    }
    assert_eq!(
        crate::util::files(&home),
        Vec::<String>::new(),
        "nothing saved by default"
    );
}

#[test]
fn a_tampered_schema_version_is_named_and_the_archive_left_alone() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("a.sqlite");
    saved_archive(&path);
    let good = std::fs::read(&path).unwrap_or_else(|e| panic!("{e}"));
    for version in [-1, 0, 1, 2] {
        std::fs::write(&path, &good).unwrap_or_else(|e| panic!("{e}"));
        {
            let conn = rusqlite::Connection::open(&path).unwrap_or_else(|e| panic!("{e}"));
            conn.pragma_update(None, "user_version", version)
                .unwrap_or_else(|e| panic!("{e}"));
        }
        let before = std::fs::read(&path).unwrap_or_else(|e| panic!("{e}"));
        for args in [
            &["archive", "list", "--archive", "a.sqlite"][..],
            &["run", "--board", "4x4", "--save", "--archive", "a.sqlite"],
        ] {
            let (code, _, err) = engine_in(dir.path(), args, &[]);
            assert_eq!(code, Some(2), "version {version}: {args:?}: {err}");
            assert!(
                err.contains(&format!("its schema version says {version}")),
                "version {version}: {err}"
            );
            assert!(
                !err.contains("CREATE") && !err.contains("\\n"),
                "raw SQL: {err}"
            );
            assert!(err.lines().count() <= 3 && err.len() < 500, "{err}");
            let after = std::fs::read(&path).unwrap_or_else(|e| panic!("{e}"));
            assert!(
                after == before,
                "version {version}: {args:?} changed the archive"
            );
        }
    }
    // A column taken away at the current version is named as well.
    std::fs::write(&path, &good).unwrap_or_else(|e| panic!("{e}"));
    {
        let conn = rusqlite::Connection::open(&path).unwrap_or_else(|e| panic!("{e}"));
        conn.execute_batch("ALTER TABLE runs DROP COLUMN starts")
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let (code, _, err) = engine_in(
        dir.path(),
        &["archive", "show", "1", "--archive", "a.sqlite"],
        &[],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("`runs.starts`"), "{err}");
}

#[test]
fn a_read_only_archive_is_read_and_not_saved_to() {
    // A read-only file system, made in a user and mount namespace.
    let probe = Command::new("unshare")
        .args([
            "-rm",
            "sh",
            "-c",
            "mount -t tmpfs tmpfs /mnt 2>/dev/null || mount -t tmpfs tmpfs /tmp",
        ])
        .status();
    if !probe.is_ok_and(|s| s.success()) {
        eprintln!("skipped: no mount namespace (unshare -rm) on this machine");
        return;
    }
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("a.sqlite");
    saved_archive(&path);
    let ro = dir.path().join("ro");
    std::fs::create_dir(&ro).unwrap_or_else(|e| panic!("{e}"));
    let engine = env!("CARGO_BIN_EXE_engine");
    let script = format!(
        "set -e; mount -t tmpfs tmpfs ro; cp a.sqlite ro/; mount -o remount,ro ro; \
         for c in 'archive list' 'archive stats' 'archive show 1'; do \
           {engine} $c --archive ro/a.sqlite > out.txt 2> err.txt && echo \"$c: 0\" || echo \"$c: $?\"; \
           cat err.txt; grep -c 'Tour: \\|found\\|Holed' out.txt || true; done; \
         {engine} run --board 4x4 --save --archive ro/a.sqlite --quiet > /dev/null 2> err.txt || echo \"save: $?\"; cat err.txt; \
         ls -a ro"
    );
    let out = Command::new("unshare")
        .args(["-rm", "sh", "-c", &script])
        .current_dir(dir.path())
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let said = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}{err}");
    for c in ["archive list: 0", "archive stats: 0", "archive show 1: 0"] {
        assert!(said.contains(c), "{c}:\n{said}");
    }
    assert!(!said.contains("unable to open"), "{said}");
    assert!(said.contains("save: 2"), "{said}");
    assert!(
        said.contains("ro/a.sqlite: is on a read-only file system"),
        "{said}"
    );
    // Nothing beside the archive: no journal, no temporary.
    assert!(said.trim_end().ends_with(".\n..\na.sqlite"), "{said}");
}

#[test]
fn a_zero_time_limit_means_the_same_everywhere() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    saved_archive(&dir.path().join("a.sqlite"));
    for args in [
        &["run", "--board", "5x5"][..],
        &["run", "--board", "5x5", "--unique"],
        &[
            "run",
            "--board",
            "5x5",
            "--gif",
            "t.gif",
            "--search-gif",
            "s.gif",
        ],
        &["check", "--board", "5x5"],
        &["count", "--board", "5x5"],
        &["make", "--board", "5x5", "-o", "m.ron"],
        &[
            "archive",
            "show",
            "1",
            "--archive",
            "a.sqlite",
            "--gif",
            "t.gif",
        ],
    ] {
        let mut args = args.to_vec();
        args.extend(["--time-limit", "0"]);
        let (code, out, err) = engine_in(dir.path(), &args, &[]);
        assert_eq!(code, Some(3), "{args:?}:\n{out}{err}");
        assert_eq!(
            crate::util::files(dir.path()),
            ["a.sqlite"],
            "{args:?} wrote a file"
        );
    }
}

#[test]
fn only_the_engines_own_temporaries_are_swept() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    // A user's file named like a temporary of `t.gif`, two minutes old.
    let mine = dir.path().join(".t.gif.abc123.part");
    std::fs::write(&mine, "mine").unwrap_or_else(|e| panic!("{e}"));
    let old = std::time::SystemTime::now() - Duration::from_secs(120);
    std::fs::File::options()
        .write(true)
        .open(&mine)
        .and_then(|f| f.set_modified(old))
        .unwrap_or_else(|e| panic!("{e}"));
    let (code, _, err) = engine_in(
        dir.path(),
        &["run", "--board", "5x5", "--gif", "t.gif"],
        &[],
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(std::fs::read_to_string(&mine).ok().as_deref(), Some("mine"));
}

// ---------------------------------------------------------------------------
// `make` with no end in sight: a default budget it states, progress on a
// terminal, and its best attempt or "no puzzle in the budget" (exit 3).

#[test]
fn make_states_its_default_budget() {
    let (code, out, _) = engine_in(Path::new("."), &["make", "--help"], &[]);
    assert_eq!(code, Some(0));
    let help = out.split("--time-limit").nth(1).unwrap_or_default();
    assert!(help.contains("[default: 60]"), "{out}");
}

#[test]
fn make_on_a_large_board_ends_with_its_best_attempt() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let started = Instant::now();
    let (code, out, err) = engine_in(
        dir.path(),
        &[
            "make",
            "--board",
            "20x20",
            "-o",
            "m.ron",
            "--time-limit",
            "2",
        ],
        &[],
    );
    let took = started.elapsed();
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(took < Duration::from_millis(2500), "took {took:?}");
    assert!(out.contains("Not minimal: the time limit ran out"), "{out}");
    assert_eq!(
        crate::util::files(dir.path()),
        ["m-solution.svg", "m.ron", "m.svg"]
    );
    // What it wrote is a puzzle with one solution, as it says.
    let (code, out, err) = engine_in(
        dir.path(),
        &[
            "run",
            "m.ron",
            "--unique",
            "--format",
            "json",
            "--time-limit",
            "20",
        ],
        &[],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(v["status"], "unique", "{out}");
    let p = crate::util::load(&dir.path().join("m.ron"));
    crate::util::assert_verified(&p, &v);
}

#[test]
fn make_says_no_puzzle_in_the_budget() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    // Three clues on 400 squares is far out of reach in a second.
    let (code, out, err) = engine_in(
        dir.path(),
        &[
            "make",
            "--board",
            "20x20",
            "-o",
            "m.ron",
            "--clues",
            "3",
            "--time-limit",
            "1",
        ],
        &[],
    );
    assert_eq!(code, Some(3), "{out}{err}");
    assert!(
        out.contains("No puzzle in the budget: the time limit ran out"),
        "{out}"
    );
    assert_eq!(crate::util::files(dir.path()), Vec::<String>::new());
}

#[test]
fn make_shows_progress_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let engine = env!("CARGO_BIN_EXE_engine");
    // `script` gives the command a terminal and keeps what it showed.
    let out = Command::new("script")
        .args([
            "-qec",
            &format!("{engine} make --board 12x12 -o m.ron --time-limit 1.5"),
            "typescript",
        ])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .output();
    let Ok(out) = out else {
        eprintln!("skipped: no `script` to give a terminal");
        return;
    };
    let shown = std::fs::read_to_string(dir.path().join("typescript")).unwrap_or_default();
    assert!(out.status.success(), "{shown}");
    assert!(shown.contains("clues tried"), "{shown}");
    assert!(shown.contains("within 1.5 s"), "{shown}");
}

// ---------------------------------------------------------------------------
// `make`'s three files are one output: renamed into place only when all are
// complete; none of the user's replaced otherwise. A failed `--save` leaves
// no new archive behind.

/// Runs the shell `script` in a user and mount namespace, in `dir`, where it
/// may mount a small file system; None when this machine has none. It must
/// end within a minute.
fn in_namespace(dir: &Path, script: &str) -> Option<(String, String)> {
    let probe = Command::new("unshare")
        .args(["-rm", "sh", "-c", "mount -t tmpfs tmpfs /mnt"])
        .stderr(Stdio::null())
        .status();
    if !probe.is_ok_and(|s| s.success()) {
        eprintln!("skipped: no mount namespace (unshare -rm) on this machine");
        return None;
    }
    let (code, out, err, took) = timed_for(
        Command::new("unshare")
            .args(["-rm", "sh", "-c", script])
            .current_dir(dir),
        Duration::from_secs(60),
    );
    assert!(
        took < Duration::from_secs(60),
        "still running after a minute:\n{out}{err}"
    );
    assert_eq!(code, Some(0), "the script failed:\n{out}{err}");
    Some((out, err))
}

/// The three files of `make -o m.ron`, each holding `old`.
const MADE: [&str; 3] = ["m.ron", "m.svg", "m-solution.svg"];

#[test]
fn make_on_a_full_disk_replaces_none_of_the_users_files() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let engine = env!("CARGO_BIN_EXE_engine");
    // 16 pages: the old files take 3, the filler 10; the new puzzle file
    // and blank sheet fit in the 3 left, the solution's sheet does not.
    let script = format!(
        "set -e; mkdir full; mount -t tmpfs -o size=64k tmpfs full; cd full; \
         for f in {made}; do echo old > $f; done; head -c 40960 /dev/zero > filler; \
         {engine} make --board 6x6 --seed 1 -o m.ron --force > /dev/null 2> ../err.txt || echo \"make exit $?\"; \
         for f in {made}; do echo \"$f: $(head -c 20 $f)\"; done; \
         echo \"after make: $(ls -A | tr '\\n' ' ')\"; \
         {engine} run --board 5x5 --quiet --save --archive b.sqlite > /dev/null 2>> ../err.txt \
           || echo \"save exit $?\"; \
         echo \"after save: $(ls -A | tr '\\n' ' ')\"; \
         {engine} run --board 5x5 --quiet --save --archive new/runs/b.sqlite > /dev/null \
           2>> ../err.txt || echo \"save in folders exit $?\"; \
         echo \"after save in folders: $(ls -A | tr '\\n' ' ')\"",
        made = MADE.join(" "),
    );
    let Some((said, err)) = in_namespace(dir.path(), &script) else {
        return;
    };
    let err = format!(
        "{err}{}",
        std::fs::read_to_string(dir.path().join("err.txt")).unwrap_or_default()
    );
    assert!(said.contains("make exit 2"), "{said}{err}");
    for f in MADE {
        assert!(
            said.contains(&format!("{f}: old")),
            "{f} was replaced:\n{said}{err}"
        );
    }
    // The message names the file, the reason, and what was not written.
    assert!(
        err.contains(
            "m.ron: cannot write the puzzle: No space left on device (os error 28); \
             none of the three files was written"
        ),
        "{err}"
    );
    // Nothing beside them: no temporary, no new archive, no journal.
    assert!(
        said.contains("after make: filler m-solution.svg m.ron m.svg \n"),
        "{said}"
    );
    // A new archive, and one in new folders: neither is left, nor the
    // folders, and the message says so.
    assert!(said.contains("save exit 2"), "{said}{err}");
    assert!(
        said.contains("after save: filler m-solution.svg m.ron m.svg \n"),
        "{said}{err}"
    );
    assert!(said.contains("save in folders exit 2"), "{said}{err}");
    assert!(
        said.contains("after save in folders: filler m-solution.svg m.ron m.svg \n"),
        "{said}{err}"
    );
    for archive in ["b.sqlite", "new/runs/b.sqlite"] {
        assert!(
            err.contains(&format!(
                "{archive}: cannot create the archive: database or disk is full"
            )),
            "{archive}: {err}"
        );
    }
    assert_eq!(
        err.matches("the run was not saved, and no archive was made")
            .count(),
        2,
        "{err}"
    );
}

#[test]
fn make_with_a_failing_output_replaces_nothing() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    for f in MADE {
        std::fs::write(dir.path().join(f), "old").unwrap_or_else(|e| panic!("{e}"));
    }
    let full = std::fs::File::options().write(true).open("/dev/full");
    let Ok(full) = full else {
        eprintln!("skipped: no /dev/full");
        return;
    };
    let out = engine_process()
        .args([
            "make", "--board", "6x6", "--seed", "1", "-o", "m.ron", "--force",
        ])
        .current_dir(dir.path())
        .stdout(full)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("standard output"), "{err}");
    assert!(
        err.contains("the puzzle's three files were put back as they were"),
        "{err}"
    );
    for f in MADE {
        let text = std::fs::read_to_string(dir.path().join(f)).unwrap_or_default();
        assert_eq!(text, "old", "{f} was replaced");
    }
    assert_eq!(
        crate::util::files(dir.path()),
        ["m-solution.svg", "m.ron", "m.svg"]
    );
}

#[test]
fn make_killed_while_writing_leaves_the_old_files_or_the_new_ones() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    // The largest board `make` takes: its sheets take a moment to write
    // once the time limit has stopped the making.
    let args = [
        "make",
        "--board",
        "32x32",
        "-o",
        "m.ron",
        "--time-limit",
        "0.05",
        "--quiet",
    ];
    let run = || {
        engine_process()
            .args(args)
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{e}"))
    };
    // When it writes: at the end of a run left alone (the quicker of two).
    let mut whole = Duration::MAX;
    for _ in 0..2 {
        let started = Instant::now();
        let status = run().wait().unwrap_or_else(|e| panic!("{e}"));
        assert!(status.success(), "{status}");
        whole = whole.min(started.elapsed());
    }
    // Killed at moments spread over the last 40 ms before that end and
    // 20 ms after it: the files are all old or all new, and new ones whole.
    for try_no in 0..30u32 {
        for f in MADE {
            std::fs::write(dir.path().join(f), "old").unwrap_or_else(|e| panic!("{e}"));
        }
        let at = (whole + Duration::from_millis(20) * try_no / 10)
            .saturating_sub(Duration::from_millis(40));
        let started = Instant::now();
        let mut child = run();
        std::thread::sleep(at.saturating_sub(started.elapsed()));
        let _ = child.kill();
        let _ = child.wait();
        let now: Vec<String> = MADE
            .iter()
            .map(|f| std::fs::read_to_string(dir.path().join(f)).unwrap_or_default())
            .collect();
        let olds: Vec<bool> = now.iter().map(|t| t == "old").collect();
        let said = format!("try {try_no}, killed after {at:?} of {whole:?}: old {olds:?}");
        if olds.iter().all(|&o| o) {
            continue;
        }
        assert!(
            olds.iter().all(|&o| !o),
            "{said}: some files are old, some new"
        );
        // New: whole, and the pictures of the puzzle in the file.
        assert!(now[0].ends_with(")\n"), "{said}: {}", now[0]);
        let clues = now[0]
            .lines()
            .nth(1)
            .and_then(|l| l.strip_prefix("// "))
            .and_then(|l| l.split(" on ").next())
            .unwrap_or_else(|| panic!("{said}: {}", now[0]));
        for svg in &now[1..] {
            assert!(svg.trim_end().ends_with("</svg>"), "{said}");
            assert!(svg.contains(&format!(": {clues}, ")), "{said}: {clues}");
        }
    }
}

/// Runs `engine make --board 6x6 --seed 1 -o m.ron --quiet` in `dir` under
/// strace, which acts on the system calls `traced` as `injects` say
/// (`-e inject=`: a signal sent as a call is made, a call held back) and
/// writes them to `log` (a file in `dir`, or `/dev/null`). The exit code
/// (None when killed), stdout and stderr; it must end within ten seconds.
/// None when strace cannot run here.
fn make_under_strace(
    dir: &Path,
    traced: &str,
    injects: &[String],
    log: &str,
) -> Option<(Option<i32>, String, String)> {
    let probe = Command::new("strace")
        .args(["-f", "-qq", "-o", "/dev/null", "-e", "trace=flock"])
        .args(["-e", "inject=flock:delay_enter=1", "true"])
        .stderr(Stdio::null())
        .status();
    if !probe.is_ok_and(|s| s.success()) {
        eprintln!("skipped: strace cannot trace a process on this machine");
        return None;
    }
    let mut cmd = Command::new("strace");
    cmd.args(["-f", "-qq", "-o", log, "-e", &format!("trace={traced}")]);
    for inject in injects {
        cmd.args(["-e", &format!("inject={inject}")]);
    }
    cmd.arg(env!("CARGO_BIN_EXE_engine"))
        .args([
            "make", "--board", "6x6", "--seed", "1", "-o", "m.ron", "--quiet", "--force",
        ])
        .current_dir(dir);
    let (code, out, err, took) = timed(&mut cmd);
    assert!(
        took < Duration::from_secs(10),
        "{injects:?}: still running after 10 s"
    );
    Some((code, out, err))
}

/// The system calls the tests of `make` under strace stop it at: a
/// temporary's lock (one for each file as it is written, then one for each
/// old file kept), the writes (the files' content, then the report) and
/// the renames.
const MAKE_CALLS: &str = "flock,write,?rename,?renameat,renameat2";

/// A folder holding the three files of `make -o m.ron`, each `old`.
fn old_files() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    for f in MADE {
        std::fs::write(dir.path().join(f), "old").unwrap_or_else(|e| panic!("{e}"));
    }
    dir
}

/// The text of `make`'s three files in `dir` (empty for a missing one).
fn made_files(dir: &Path) -> Vec<String> {
    MADE.iter()
        .map(|f| std::fs::read_to_string(dir.join(f)).unwrap_or_default())
        .collect()
}

#[test]
fn make_killed_at_each_step_of_its_writing_leaves_all_old_files_or_all_new() {
    // A run left alone, traced: the new files, and the order of its calls.
    let whole = old_files();
    let Some((code, _, err)) = make_under_strace(whole.path(), MAKE_CALLS, &[], "calls.txt") else {
        return;
    };
    assert_eq!(code, Some(0), "{err}");
    let new = made_files(whole.path());
    assert!(new.iter().all(|t| t != "old"), "not written: {new:?}");
    let calls =
        std::fs::read_to_string(whole.path().join("calls.txt")).unwrap_or_else(|e| panic!("{e}"));
    // Each call: its name and its line (`PID name(args) = result`).
    let calls: Vec<(&str, &str)> = calls
        .lines()
        .filter_map(|l| {
            let call = l.split_whitespace().nth(1)?;
            Some((call.split('(').next()?, call))
        })
        .collect();
    let said = || format!("{calls:#?}");
    // The i-th call's number among those of its name, as strace's `when`
    // counts them.
    let nth = |i: usize| calls[..=i].iter().filter(|c| c.0 == calls[i].0).count();
    let locks = calls.iter().filter(|c| c.0 == "flock").count();
    let first_rename = calls
        .iter()
        .position(|c| c.0.starts_with("rename"))
        .unwrap_or_else(|| panic!("no rename: {}", said()));
    let report = calls
        .iter()
        .position(|c| c.1.starts_with("write(1,"))
        .unwrap_or_else(|| panic!("no report: {}", said()));
    // At least a lock for each file's temporary.
    assert!(locks >= MADE.len(), "{}", said());
    // Killed as each file's temporary is locked (the files before it
    // complete), as each old file is kept, and as the first rename is made:
    // every old file stays. Killed as the report is printed, after the
    // renames: every file is new, as the run left alone wrote it.
    let mut kills: Vec<(String, bool)> = (1..=locks)
        .map(|k| (format!("flock:signal=SIGKILL:when={k}"), true))
        .collect();
    kills.push((
        format!(
            "{}:signal=SIGKILL:when={}",
            calls[first_rename].0,
            nth(first_rename)
        ),
        true,
    ));
    kills.push((format!("write:signal=SIGKILL:when={}", nth(report)), false));
    for (kill, old) in kills {
        let dir = old_files();
        let (code, _, err) = make_under_strace(
            dir.path(),
            MAKE_CALLS,
            std::slice::from_ref(&kill),
            "/dev/null",
        )
        .unwrap_or_else(|| panic!("strace ran once"));
        assert_ne!(code, Some(0), "{kill}: not killed: {err}");
        let now = made_files(dir.path());
        if old {
            assert!(now.iter().all(|t| t == "old"), "{kill}: replaced: {now:?}");
        } else {
            assert_eq!(now, new, "{kill}: not the new files whole");
        }
    }
    // So every step before the renames was tried: a lock for each
    // temporary, and one for each old file kept, all before the renames;
    // the report after them.
    assert_eq!(locks, 2 * MADE.len(), "{}", said());
    let before_renames = calls[..first_rename].iter().filter(|c| c.0 == "flock");
    assert_eq!(before_renames.count(), locks, "{}", said());
    let renames = calls[first_rename..report]
        .iter()
        .filter(|c| c.0.starts_with("rename"));
    assert_eq!(renames.count(), MADE.len(), "{}", said());
}

#[test]
fn make_interrupted_while_writing_replaces_nothing() {
    // Ctrl-C as the puzzle file is written, and the solution's sheet held
    // back a moment after, so that the handler has run by the time the three
    // are complete: none is put in place, and no temporary is left.
    let dir = old_files();
    let injects = [
        "write:signal=SIGINT:when=1".to_string(),
        format!("flock:delay_enter=300000:when={}", MADE.len()),
    ];
    let Some((code, out, err)) = make_under_strace(dir.path(), MAKE_CALLS, &injects, "calls.txt")
    else {
        return;
    };
    // The first write is the puzzle file's: after its temporary's lock,
    // before the next temporary's.
    let calls =
        std::fs::read_to_string(dir.path().join("calls.txt")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::remove_file(dir.path().join("calls.txt")).unwrap_or_else(|e| panic!("{e}"));
    let at = |call: &str| {
        calls
            .lines()
            .enumerate()
            .filter(|(_, l)| l.contains(call))
            .map(|(i, _)| i)
            .collect::<Vec<_>>()
    };
    let (locks, writes) = (at(" flock("), at(" write("));
    assert!(
        locks.len() >= 2 && !writes.is_empty() && locks[0] < writes[0] && writes[0] < locks[1],
        "{calls}"
    );
    assert!(calls.contains("SIGINT"), "{calls}");
    assert_eq!(code, Some(130), "{out}{err}");
    assert!(
        out.contains("No puzzle: interrupted after one was made; nothing was written"),
        "{out}"
    );
    assert_eq!(made_files(dir.path()), ["old"; 3]);
    assert_eq!(
        crate::util::files(dir.path()),
        ["m-solution.svg", "m.ron", "m.svg"]
    );
}

#[test]
fn make_and_save_at_every_fill_of_a_small_disk() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let engine = env!("CARGO_BIN_EXE_engine");
    // A 128 KB disk holding the old files and 0 to 124 KB more: at each
    // fill `make` writes its three files or none (the old ones stay), and
    // `run --save` makes a whole archive (one run in it) or none.
    let script = format!(
        "set -e; mkdir full; mount -t tmpfs -o size=128k tmpfs full; cd full; \
         for k in $(seq 0 4 124); do \
           rm -f -- * .??*; \
           for f in {made}; do echo old > $f; done; \
           head -c ${{k}}k /dev/zero > filler 2> /dev/null || true; \
           code=0; {engine} make --board 6x6 --seed 1 -o m.ron --force > /dev/null 2>> ../err.txt || code=$?; \
           echo \"make $k: $code: $(ls -A | tr '\\n' ' '): $(for f in {made}; do head -c 3 $f; echo -n ' '; done)\"; \
           code=0; {engine} run --board 5x5 --quiet --save --archive b.sqlite > /dev/null 2>> ../err.txt || code=$?; \
           runs=none; if [ -e b.sqlite ]; then \
             runs=$({engine} archive stats --archive b.sqlite --format json 2>&1 | grep -o '\"runs\":[0-9]*' || true); fi; \
           echo \"save $k: $code: $(ls -A | tr '\\n' ' '): $runs\"; \
         done",
        made = MADE.join(" "),
    );
    let Some((said, err)) = in_namespace(dir.path(), &script) else {
        return;
    };
    let err = format!(
        "{err}{}",
        std::fs::read_to_string(dir.path().join("err.txt")).unwrap_or_default()
    );
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(lines.len(), 64, "{said}{err}");
    let (mut made, mut kept, mut saved, mut unsaved) = (0, 0, 0, 0);
    for line in lines {
        let parts: Vec<&str> = line.split(": ").collect();
        let [what, code, listing, rest] = parts[..] else {
            panic!("{line}\n{said}{err}")
        };
        if what.starts_with("make") {
            assert_eq!(
                listing, "filler m-solution.svg m.ron m.svg ",
                "{line}\n{err}"
            );
            match code {
                "0" => {
                    made += 1;
                    assert!(!rest.contains("old"), "{line}");
                }
                "2" => {
                    kept += 1;
                    assert_eq!(rest, "old old old ", "{line}");
                }
                _ => panic!("{line}\n{err}"),
            }
        } else {
            match code {
                "0" => {
                    saved += 1;
                    assert_eq!(
                        listing, "b.sqlite filler m-solution.svg m.ron m.svg ",
                        "{line}\n{err}"
                    );
                    assert_eq!(rest, "\"runs\":1", "{line}\n{err}");
                }
                "2" => {
                    unsaved += 1;
                    assert_eq!(
                        listing, "filler m-solution.svg m.ron m.svg ",
                        "{line}\n{err}"
                    );
                    assert_eq!(rest, "none", "{line}");
                }
                _ => panic!("{line}\n{err}"),
            }
        }
    }
    // Both ends were reached: the disk had room, then had none.
    assert!(made > 0 && kept > 0 && saved > 0 && unsaved > 0, "{said}");
    assert!(err.contains("No space left on device"), "{err}");
}

// ---------------------------------------------------------------------------
// Riders on twisted boards: a ray goes straight on across every seam, over
// its own square too, and ends at the edge, a removed square, its range, or
// when it is back on a square it has been on heading the same way. The move
// graph, the verifier, the genetic solver's move slots (its GIFs draw them),
// `check`, the runner and every counter agree with a model of that rule
// written here, on every board up to 5x5 of each topology.

/// The topologies, as boards write them.
const TOPOLOGIES: [&str; 5] = ["", " cylinder", " torus", " mobius", " klein"];

/// Riders of every kind of direction set: whole, forward, sideways, one
/// quarter, lame, with a range, and steps that cross a seam twice.
const RIDERS: [&str; 16] = [
    "R",
    "B",
    "Q",
    "NN",
    "fB",
    "rB",
    "frQ",
    "fNN",
    "fR",
    "lbQ",
    "nNN",
    "R2",
    "AA",
    "ZZ",
    "rider 1 2 max 3",
    "rider 0 1 | jumps (1,1)",
];

/// A board by the rule of the guide, worked out here from coordinates:
/// the plane it is folded from, and where each point of it lands.
struct Folded {
    w: i64,
    h: i64,
    /// 0 plain, 1 cylinder, 2 torus, 3 Möbius, 4 Klein.
    topology: usize,
    squares: Vec<Vec<bool>>,
}

impl Folded {
    /// Where the point (x, y) of the plane lands: its cell and whether it
    /// lies on a mirrored copy of the board; None off the board.
    fn land(&self, x: i64, y: i64) -> Option<((i64, i64), bool)> {
        let (w, h) = (self.w, self.h);
        let inside = |v: i64, side: i64| (0..side).contains(&v);
        let (cell, mirrored) = match self.topology {
            0 => ((x, y), false),
            1 => ((x.rem_euclid(w), y), false),
            2 => ((x.rem_euclid(w), y.rem_euclid(h)), false),
            3 => {
                // Each crossing of the file seam turns the ranks over.
                let odd = x.div_euclid(w) % 2 != 0;
                let y = if odd { h - 1 - y } else { y };
                ((x.rem_euclid(w), y), odd)
            }
            _ => {
                // Each crossing of the rank seam turns the files over.
                let odd = y.div_euclid(h) % 2 != 0;
                let x = if odd { w - 1 - x } else { x };
                ((x.rem_euclid(w), y.rem_euclid(h)), odd)
            }
        };
        (inside(cell.0, w) && inside(cell.1, h)).then_some((cell, mirrored))
    }

    fn is_square(&self, (x, y): (i64, i64)) -> bool {
        self.squares[y as usize][x as usize]
    }

    /// The heading on the board of a step (dx, dy) taken on a copy.
    fn heading(&self, (dx, dy): (i64, i64), mirrored: bool) -> (i64, i64) {
        match (mirrored, self.topology) {
            (true, 3) => (dx, -dy),
            (true, 4) => (-dx, dy),
            _ => (dx, dy),
        }
    }

    /// The squares a ride of step (dx, dy) reaches from `from`, at most
    /// `range` steps, lame or not.
    fn ride(
        &self,
        from: (i64, i64),
        (dx, dy): (i64, i64),
        range: u32,
        lame: bool,
    ) -> Vec<(i64, i64)> {
        let mut seen = std::collections::HashSet::new();
        seen.insert((from, (dx, dy)));
        let mut out = Vec::new();
        let (mut x, mut y) = from;
        for _ in 0..range {
            // A lame step passes the squares between: straight along its
            // longer leg while the legs differ, then diagonally.
            if lame {
                let (ax, ay) = (dx.abs(), dy.abs());
                let (long, short) = (ax.max(ay), ax.min(ay));
                let mut between = Vec::new();
                let (mut px, mut py) = (0, 0);
                for k in 1..long {
                    if k <= long - short {
                        if ax >= ay {
                            px += dx.signum();
                        } else {
                            py += dy.signum();
                        }
                    } else {
                        px += dx.signum();
                        py += dy.signum();
                    }
                    between.push((px, py));
                }
                let open = between.iter().all(|&(px, py)| {
                    self.land(x + px, y + py)
                        .is_some_and(|(c, _)| self.is_square(c))
                });
                if !open {
                    break;
                }
            }
            x += dx;
            y += dy;
            let Some((cell, mirrored)) = self.land(x, y) else {
                break;
            };
            if !self.is_square(cell) || !seen.insert((cell, self.heading((dx, dy), mirrored))) {
                break;
            }
            if cell != from && !out.contains(&cell) {
                out.push(cell);
            }
            assert!(
                seen.len() <= 2 * (self.w * self.h) as usize + 1,
                "a ride that never ends"
            );
        }
        out
    }
}

/// The rider puzzles: every board up to 5x5 of each topology, whole and
/// with a square removed, with each rider; the puzzle and its model.
fn rider_cases() -> Vec<(String, engine::puzzle::Puzzle, Folded)> {
    let mut out = Vec::new();
    for w in 1..=5i64 {
        for h in 1..=5i64 {
            for (topology, name) in TOPOLOGIES.iter().enumerate() {
                let holes: &[Option<(i64, i64)>] = if w * h > 2 {
                    &[None, Some((w / 2, h / 2))]
                } else {
                    &[None]
                };
                for &hole in holes {
                    let removed = hole.map_or(String::new(), |(x, y)| format!(" - ({x},{y})"));
                    for piece in RIDERS {
                        let board = format!("{w}x{h}{name}{removed}");
                        let text = format!("Puzzle(board: {board:?}, piece: {piece:?})");
                        let p = crate::util::puzzle(&text);
                        let squares = (0..h)
                            .map(|y| (0..w).map(|x| hole != Some((x, y))).collect())
                            .collect();
                        let folded = Folded {
                            w,
                            h,
                            topology,
                            squares,
                        };
                        out.push((format!("{piece} on {board}"), p, folded));
                    }
                }
            }
        }
    }
    out
}

/// The model's targets of each square of `p`, by square number.
fn model_targets(p: &engine::puzzle::Puzzle, f: &Folded) -> Vec<std::collections::BTreeSet<u32>> {
    let square = |(x, y): (i64, i64)| {
        p.board
            .square_at(engine::Cell::new(x as u32, y as u32))
            .unwrap_or_else(|| panic!("({x},{y}) is not a square"))
    };
    (0..p.board.len() as u32)
        .map(|s| {
            let c = p.board.cell(s);
            let from = (i64::from(c.x), i64::from(c.y));
            p.piece
                .moves()
                .iter()
                .flat_map(|m| f.ride(from, (i64::from(m.dx), i64::from(m.dy)), m.range, m.lame))
                .map(square)
                .collect()
        })
        .collect()
}

/// Directed open and closed tours of the graph `targets`, over every start,
/// by a count over the subsets of squares.
fn model_tours(targets: &[std::collections::BTreeSet<u32>]) -> (u128, u128) {
    let n = targets.len();
    let full = (1usize << n) - 1;
    let (mut open, mut closed) = (0u128, 0u128);
    for start in 0..n {
        // ways[mask][v]: paths from `start` over `mask` ending on v.
        let mut ways = vec![vec![0u128; n]; 1 << n];
        ways[1 << start][start] = 1;
        for mask in 0..=full {
            for v in 0..n {
                let k = ways[mask][v];
                if k == 0 {
                    continue;
                }
                for &t in &targets[v] {
                    let t = t as usize;
                    if mask & (1 << t) == 0 {
                        ways[mask | (1 << t)][t] += k;
                    }
                }
            }
        }
        for v in 0..n {
            open += ways[full][v];
            if n > 1 && targets[v].contains(&(start as u32)) {
                closed += ways[full][v];
            }
        }
    }
    (open, closed)
}

#[test]
fn riders_go_straight_on_across_twisted_seams() {
    use engine::solve::genetic::MoveSlots;
    use std::collections::BTreeSet;
    let mut differ = Vec::new();
    for (case, p, f) in rider_cases() {
        let model = model_targets(&p, &f);
        let n = p.board.len() as u32;
        let g = crate::util::graph_of(&p);
        let slots =
            MoveSlots::of_piece(&p.board, &p.piece, &engine::Never).unwrap_or_else(|e| match e {});
        for s in 0..n {
            let graph: BTreeSet<u32> = g.targets(s).iter().copied().collect();
            let verifier: BTreeSet<u32> = (0..n)
                .filter(|&t| {
                    engine::verify::legal(&p.board, &p.piece, p.board.cell(s), p.board.cell(t))
                })
                .collect();
            let slotted: BTreeSet<u32> = slots.slots(s).flatten().collect();
            if graph != model[s as usize]
                || verifier != model[s as usize]
                || slotted != model[s as usize]
            {
                differ.push(format!(
                    "{case}, from {}: model {:?}, graph {:?}, verifier {:?}, genetic {:?}",
                    p.board.name(s),
                    names(&p, &model[s as usize]),
                    names(&p, &graph),
                    names(&p, &verifier),
                    names(&p, &slotted)
                ));
                break;
            }
        }
    }
    assert!(
        differ.is_empty(),
        "{} cases differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

/// The names of `squares`.
fn names(p: &engine::puzzle::Puzzle, squares: &std::collections::BTreeSet<u32>) -> Vec<String> {
    squares.iter().map(|&s| p.board.name(s)).collect()
}

#[test]
fn rider_tours_are_counted_alike_by_every_counter_and_the_model() {
    use engine::count::{self, CountError, CountRequest, Method};
    use engine::solve::Outcome;
    let mut differ = Vec::new();
    // Counts compared, by method: in all, and on twisted boards.
    let (mut counted, mut twisted) = ([0; 3], [0usize; 3]);
    for (case, p, f) in rider_cases() {
        // Cheap: up to ten squares.
        if p.board.len() > 10 {
            continue;
        }
        let targets = model_targets(&p, &f);
        let (open, closed) = model_tours(&targets);
        for (closed_goal, want) in [(false, open), (true, closed)] {
            let mut p = p.clone();
            p.goal.closed = closed_goal;
            let kind = if closed_goal { "closed" } else { "open" };
            for method in [Method::Dfs, Method::Frontier, Method::Subset] {
                // The search counts tour by tour: only where they are few.
                if method == Method::Dfs && want > 100_000 {
                    continue;
                }
                let job = count::Job {
                    board: &p.board,
                    piece: &p.piece,
                    goal: p.goal,
                    constraints: &p.constraints,
                };
                let request = CountRequest {
                    method: Some(method),
                    threads: Some(1),
                    ..CountRequest::default()
                };
                let got = count::count_job(
                    &job,
                    &request,
                    &engine::Limits::none(),
                    &engine::progress::Progress::new(),
                )
                .map(|c| c.tours);
                match got {
                    // Refused: the frontier takes no one-way moves nor the
                    // smallest boards, the subsets no boards of 1 or 2.
                    Err(CountError::FrontierUnfit(_) | CountError::SubsetUnfit(_)) => {}
                    Ok(tours) if tours == want => {
                        counted[method as usize] += 1;
                        twisted[method as usize] += usize::from(f.topology >= 3);
                    }
                    got => differ.push(format!(
                        "{case}, {kind}: model {want}, {} {got:?}",
                        method.name()
                    )),
                }
            }
            // The runner finds a tour (which the verifier passes) exactly
            // when the model has one.
            let found = match crate::util::solve(&p).outcome {
                Outcome::Found(_) => true,
                Outcome::Impossible(_) => false,
                other => panic!("{case}, {kind}: {other:?}"),
            };
            if found != (want > 0) {
                differ.push(format!(
                    "{case}, {kind}: model {want}, the runner found a tour: {found}"
                ));
            }
        }
    }
    // Each counter counted many of them, on the twisted boards too.
    assert!(counted.iter().all(|&c| c > 500), "{counted:?}");
    assert!(twisted[0] > 200 && twisted[2] > 200, "{twisted:?}");
    assert!(
        differ.is_empty(),
        "{} counts differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

#[test]
fn check_counts_the_riders_moves_of_the_model() {
    let mut differ = Vec::new();
    for (case, p, f) in rider_cases() {
        // Every size and rider on the twisted boards, whole; the others
        // are the move graph's, compared above.
        let twisted = f.topology >= 3;
        if !twisted || p.board.removed_count() > 0 {
            continue;
        }
        let moves: usize = model_targets(&p, &f).iter().map(|t| t.len()).sum();
        let out = engine_process()
            .args([
                "check",
                "--format",
                "json",
                "--board",
                &p.board_text,
                "--piece",
                &p.piece_text,
            ])
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{case}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
        if v["moves"] != moves {
            differ.push(format!("{case}: model {moves} moves, check {}", v["moves"]));
        }
    }
    assert!(
        differ.is_empty(),
        "{} differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

// Limits that hold on every path: work that grows with the input is
// estimated before it starts and looks at the clock as it goes — reading
// the input, the clue searches, drawing and writing included — so that
// `--time-limit` and Ctrl-C hold within half a second. The bounds below
// are generous, for a loaded machine; BENCHMARKS.md has the figures.

/// The bound a stop must come within here (half a second on an idle
/// machine; this leaves room for a loaded one).
const LATE: Duration = Duration::from_millis(2500);

/// Runs `engine ARGS` in `dir` and checks that it exits with `code` within
/// `bound` (tried up to three times, for a moment of load): what it
/// printed on stdout and stderr.
fn exits_within(dir: &Path, args: &[&str], code: i32, bound: Duration) -> (String, String) {
    let mut tries = 0;
    loop {
        tries += 1;
        // Killed only well past its bound: a run allowed a minute is not
        // cut off at the 10 s that suits the quick ones.
        let kill_at = (bound * 2).max(Duration::from_secs(10));
        let (got, out, err, took) =
            timed_for(engine_process().args(args).current_dir(dir), kill_at);
        let what = format!("engine {}", shown(args));
        assert!(!err.contains("panicked"), "{what}: {err}");
        assert_eq!(
            got,
            Some(code),
            "{what}: took {took:?}\n{}\n{err}",
            cut(&out)
        );
        if took <= bound {
            return (out, err);
        }
        assert!(tries < 3, "{what}: took {took:?}, three times");
    }
}

/// Arguments for a message, each cut short.
fn shown(args: &[&str]) -> String {
    args.iter().map(|a| cut(a)).collect::<Vec<_>>().join(" ")
}

/// The first hundred characters of `s`.
fn cut(s: &str) -> String {
    s.chars().take(100).collect()
}

/// Starts `cmd` (stdin as set, or null), sends `signal` (`INT`, `TERM`,
/// `HUP`) once `ready` says so (checked every few milliseconds, for at
/// most ten seconds), and waits: the exit code, the time from the signal
/// to the exit, and stderr.
fn signal_when(
    cmd: &mut Command,
    signal: &str,
    ready: impl Fn() -> bool,
) -> (Option<i32>, Duration, String) {
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("engine does not start: {e}"));
    let mut err = child.stderr.take().unwrap_or_else(|| panic!("stderr"));
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let waited = Instant::now();
    while !ready() && waited.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(2));
    }
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap_or_else(|e| panic!("kill: {e}"));
    assert!(sent.success());
    let signalled = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap_or_else(|e| panic!("{e}")) {
            break Some(s);
        }
        if signalled.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let took = signalled.elapsed();
    let err = reader.join().unwrap_or_default();
    (status.and_then(|s| s.code()), took, err)
}

/// A clue map (`"(x,y)": step` entries) on a `side`x`side` board.
fn clue_map(side: u32, piece: &str, clues: impl Iterator<Item = (u32, u32, u64)>) -> String {
    let mut text = format!("Puzzle(board: \"{side}x{side}\", piece: \"{piece}\", clues: {{");
    for (i, (x, y, step)) in clues.enumerate() {
        if i > 0 {
            text.push_str(", ");
        }
        text.push_str(&format!("\"({x},{y})\": {step}"));
    }
    text.push_str("})");
    text
}

/// Every square of a `side`x`side` board clued with its step of the
/// wazir's walk up and down the files (a tour of the wazir): one solution.
fn snake_clues(side: u32) -> String {
    let steps = (0..side).flat_map(move |x| {
        (0..side).map(move |i| {
            let y = if x % 2 == 0 { i } else { side - 1 - i };
            (x, y, u64::from(x * side + i + 1))
        })
    });
    clue_map(side, "W", steps)
}

#[test]
fn clue_puzzles_on_big_boards_are_estimated_and_timed() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let write = |name: &str, text: &str| {
        std::fs::write(dir.path().join(name), text).unwrap_or_else(|e| panic!("{e}"))
    };
    // 1,000 clues in a row, 997 steps apart: the distances from each to a
    // million squares fit (4 GB), but take far longer than the limit.
    write(
        "c1000.ron",
        &clue_map(
            1000,
            "knight",
            (0..1000).map(|i| (i, 0, 1 + 997 * u64::from(i))),
        ),
    );
    for args in [
        &["run", "c1000.ron", "--time-limit", "1"][..],
        &["run", "c1000.ron", "--time-limit", "1", "--unique"],
        &["count", "c1000.ron", "--time-limit", "1"],
    ] {
        exits_within(dir.path(), args, 3, LATE);
    }
    // 3,000 and 40,000 would need 11 and 149 GiB: refused at once, with
    // the most that fit, and never an abort under a memory cap.
    write(
        "c3000.ron",
        &clue_map(
            1000,
            "knight",
            (0..3000).map(|i| (i % 1000, i / 1000, 1 + 331 * u64::from(i))),
        ),
    );
    write(
        "c40000.ron",
        &clue_map(
            1000,
            "knight",
            (0..40_000).map(|i| (i % 1000, i / 1000, 1 + 25 * u64::from(i))),
        ),
    );
    for file in ["c3000.ron", "c40000.ron"] {
        for cmd in ["run", "check", "count"] {
            let (_, err) = exits_within(dir.path(), &[cmd, file], 2, Duration::from_secs(2));
            assert!(err.contains("more than the 4.0 GiB allowed"), "{err}");
            assert!(err.contains("such clues fit on this board"), "{err}");
        }
    }
    let capped = Command::new("sh")
        .args([
            "-c",
            &format!(
                "ulimit -v 1048576 && exec {} run c3000.ron",
                env!("CARGO_BIN_EXE_engine")
            ),
        ])
        .current_dir(dir.path())
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        capped.status.code(),
        Some(2),
        "under a 1 GiB cap: {}",
        String::from_utf8_lossy(&capped.stderr)
    );
    // A million clues, every square's: the map is read under the limit and
    // Ctrl-C (`check` says it was interrupted, exit 130)…
    write(
        "c1m.ron",
        &clue_map(
            1000,
            "knight",
            (0..1_000_000).map(|i| (i % 1000, i / 1000, 1 + u64::from(i))),
        ),
    );
    let (_, err) = exits_within(
        dir.path(),
        &["check", "c1m.ron", "--time-limit", "0.5"],
        3,
        LATE,
    );
    assert!(
        err.contains("c1m.ron: the time limit ran out before the puzzle was read"),
        "{err}"
    );
    let (code, took, err) = signal_when(
        engine_process()
            .args(["check", "c1m.ron"])
            .current_dir(dir.path()),
        "INT",
        // Once the engine has had time to start (and take Ctrl-C as its
        // own) and is reading the map, which takes longer than this.
        {
            let started = Instant::now();
            move || started.elapsed() > Duration::from_millis(300)
        },
    );
    assert_eq!(code, Some(130), "{err}");
    assert!(took < LATE, "{took:?}");
    // …and a puzzle with every square clued keeps no distances: solved,
    // and proven unique, on a quarter of a million squares.
    write("snake.ron", &snake_clues(500));
    let (out, _) = exits_within(
        dir.path(),
        &[
            "run",
            "snake.ron",
            "--unique",
            "--format",
            "json",
            "--time-limit",
            "60",
        ],
        0,
        Duration::from_secs(60),
    );
    let v: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {}", cut(&out)));
    assert_eq!(v["status"], "unique");
    let p = crate::util::load(&dir.path().join("snake.ron"));
    crate::util::assert_verified(&p, &v);
}

#[test]
fn a_clue_search_too_large_for_its_deductions_goes_on_without_them() {
    // Every clue but two given on 1,000,000 squares: few pairs of a step
    // and a square, but the deductions' rows would take 350 GiB. The
    // clause-learning search is out of reach; the search over the steps
    // settles it.
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let side = 1000u32;
    let all = snake_clues(side);
    // Steps 2 and 3 left out: two ways, at most, to fill them.
    let text = all
        .replacen("\"(0,1)\": 2, ", "", 1)
        .replacen("\"(0,2)\": 3, ", "", 1);
    assert!(text.len() < all.len());
    std::fs::write(dir.path().join("p.ron"), &text).unwrap_or_else(|e| panic!("{e}"));
    let (out, _) = exits_within(
        dir.path(),
        &[
            "run",
            "p.ron",
            "--unique",
            "--format",
            "json",
            "--time-limit",
            "60",
        ],
        0,
        Duration::from_secs(60),
    );
    let v: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {}", cut(&out)));
    assert_eq!(v["status"], "unique");
    assert_eq!(v["squares"][1], "a2");
}

#[test]
fn standard_input_left_open_obeys_the_limits() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.path().join("tour.txt"), "a1").unwrap_or_else(|e| panic!("{e}"));
    let silent = |args: &[&str]| {
        let mut cmd = engine_process();
        cmd.args(args).current_dir(dir.path()).stdin(Stdio::piped());
        cmd
    };
    // Standard input held open with no data: each command stops at its limit.
    for args in [
        &["run", "-"][..],
        &["check", "-"],
        &["count", "-"],
        &["make", "-", "-o", "m.ron"],
        &["verify", "tour.txt", "-"],
        &["verify", "-", "--board", "5x5"],
    ] {
        let mut args = args.to_vec();
        args.extend(["--time-limit", "0.3"]);
        let started = Instant::now();
        let mut child = silent(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{e}"));
        // The pipe stays open (its writer held here) until the end.
        let held = child.stdin.take();
        let mut status = None;
        while started.elapsed() < Duration::from_secs(10) {
            if let Some(s) = child.try_wait().unwrap_or_else(|e| panic!("{e}")) {
                status = Some(s);
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let took = started.elapsed();
        if status.is_none() {
            let _ = child.kill();
        }
        let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
        drop(held);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{args:?}: {err}");
        assert!(took < LATE, "{args:?}: took {took:?}");
        assert!(
            err.contains("<stdin>: the time limit ran out before the"),
            "{args:?}: {err}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    assert_eq!(crate::util::files(dir.path()), ["tour.txt"]);
    // And the first Ctrl-C, SIGTERM or SIGHUP stops them with no limit.
    for signal in ["INT", "TERM", "HUP"] {
        for args in [&["run", "-"][..], &["check", "-"], &["count", "-"]] {
            let mut cmd = silent(args);
            let mut child_stdin = None;
            // The child's standard input: a pipe whose writer is kept open.
            let (code, took, err) = {
                let (r, w) = std::io::pipe().unwrap_or_else(|e| panic!("{e}"));
                child_stdin.replace(w);
                cmd.stdin(r);
                let started = Instant::now();
                signal_when(&mut cmd, signal, || {
                    started.elapsed() > Duration::from_millis(300)
                })
            };
            drop(child_stdin);
            assert_eq!(code, Some(130), "{signal} {args:?}: {err}");
            assert!(took < LATE, "{signal} {args:?}: {took:?}");
            assert!(err.contains("before the puzzle was read"), "{err}");
        }
    }
}

#[test]
fn a_fifo_swapped_in_for_the_puzzle_never_blocks() {
    // Between looking at the file and opening it, the puzzle file becomes
    // a FIFO with no writer, again and again: no open may wait for one.
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (file, regular, fifo) = (
        dir.path().join("p.ron"),
        dir.path().join("regular"),
        dir.path().join("fifo"),
    );
    std::fs::write(
        &regular,
        "Puzzle(board: \"4x4\", piece: \"N\", tour: Closed)",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap_or_else(|e| panic!("mkfifo: {e}"));
    assert!(made.success());
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let swapper = {
        let (stop, file) = (stop.clone(), file.clone());
        std::thread::spawn(move || {
            use std::sync::atomic::Ordering;
            while !stop.load(Ordering::Relaxed) {
                for other in [&regular, &fifo] {
                    let _ = std::fs::rename(other, &file);
                    std::thread::sleep(Duration::from_micros(50));
                    let _ = std::fs::rename(&file, other);
                }
            }
        })
    };
    let started = Instant::now();
    let mut runs = 0;
    while runs < 300 && started.elapsed() < Duration::from_secs(20) {
        runs += 1;
        let (code, out, err, took) = timed(
            engine_process()
                .args(["check", "p.ron"])
                .current_dir(dir.path()),
        );
        assert!(code.is_some(), "run {runs}: blocked\n{out}{err}");
        assert!(took < LATE, "run {runs}: took {took:?}");
        // A proof (the 4x4 board), or the file refused or missing.
        assert!(matches!(code, Some(1 | 2)), "run {runs}: {code:?}\n{err}");
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let _ = swapper.join();
    assert!(runs >= 50, "only {runs} runs");
}

#[test]
fn long_betza_words_are_read_in_linear_time() {
    // Every part a new move: refused once past 4,096, where it is; 2.7 MB,
    // so that comparing the word with the names it might have meant (which
    // costs the product of the lengths) would show.
    let ranges: String = (1..400_000).map(|i| format!("W{i}")).collect();
    each_command(
        &format!("Puzzle(board: \"2x2\", piece: \"{ranges}\")"),
        Ends::Refused("more than 4096 moves by this part: a piece may have at most 4096"),
        "a Betza word of 400,000 ranges",
    );
    // 450 KB of repeats: nine moves, read at once (no move on 2x2).
    let repeats: String = (0..150_000).map(|i| format!("NN{}", i % 9 + 1)).collect();
    assert_eq!(repeats.len(), 450_000);
    each_command(
        &format!("Puzzle(board: \"2x2\", piece: \"{repeats}\")"),
        Ends::Proof,
        "a 450 KB Betza word",
    );
}

#[test]
fn the_guides_picture_of_riders_shows_the_engines_moves() {
    let svg = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/riders-twisted.svg"
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    let attr = |tag: &str, key: &str| -> String {
        let from = tag
            .find(&format!("{key}=\""))
            .unwrap_or_else(|| panic!("{key}: {tag}"));
        let rest = &tag[from + key.len() + 2..];
        rest[..rest.find('"').unwrap_or(rest.len())].to_string()
    };
    let mut panels = 0;
    for tag in svg.split("<g ").skip(1) {
        let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
        let text = format!(
            "Puzzle(board: {:?}, piece: {:?})",
            attr(tag, "data-board"),
            attr(tag, "data-piece")
        );
        let p = crate::util::puzzle(&text);
        let from = (0..p.board.len() as u32)
            .find(|&s| p.board.name(s) == attr(tag, "data-from"))
            .unwrap_or_else(|| panic!("{tag}"));
        let g = crate::util::graph_of(&p);
        let moves: Vec<String> = g.targets(from).iter().map(|&t| p.board.name(t)).collect();
        assert_eq!(moves.join(" "), attr(tag, "data-moves"), "{tag}");
        panels += 1;
    }
    assert_eq!(panels, 2);
}

#[test]
fn long_names_are_cut_in_pictures() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let name = "word ".repeat(20_000);
    std::fs::write(
        dir.path().join("p.ron"),
        format!("Puzzle(name: \"{name}\", board: \"6x6\", piece: \"knight\", tour: Closed)"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let args = [
        "run",
        "p.ron",
        "--quiet",
        "--gif",
        "t.gif",
        "--png",
        "t.png",
        "--svg",
        "t.svg",
        "--search-gif",
        "s.gif",
        "--time-limit",
        "3",
    ];
    exits_within(dir.path(), &args, 0, LATE);
    // The pictures hold a few lines of the name, not thousands.
    let png = std::fs::read(dir.path().join("t.png")).unwrap_or_else(|e| panic!("{e}"));
    let height = u32::from_be_bytes([png[20], png[21], png[22], png[23]]);
    assert!(height < 600, "a PNG {height} pixels high");
    let gif = std::fs::read(dir.path().join("t.gif")).unwrap_or_else(|e| panic!("{e}"));
    let height = u16::from_le_bytes([gif[8], gif[9]]);
    assert!(height < 600, "a GIF {height} pixels high");
    let svg = std::fs::read_to_string(dir.path().join("t.svg")).unwrap_or_else(|e| panic!("{e}"));
    let caption = svg
        .lines()
        .filter(|l| l.starts_with("<text x=\"10\""))
        .count();
    assert!(caption <= 6, "{caption} caption lines");
    assert!(svg.contains("word word...</text>"), "the name is cut");
}

#[test]
fn drawing_a_search_gif_obeys_the_time_limit() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.path().join("s.gif"), "mine").unwrap_or_else(|e| panic!("{e}"));
    // The largest --max-frames accepted on this board, as its refusal says.
    let (_, err) = exits_within(
        dir.path(),
        &[
            "run",
            "--board",
            "64x64",
            "--search-gif",
            "s.gif",
            "--force",
            "--max-frames",
            "100000000",
        ],
        2,
        Duration::from_secs(2),
    );
    let most = err
        .rsplit("--max-frames ")
        .next()
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("no frames that fit in {err}"));
    for frames in ["100000".to_string(), most.to_string()] {
        let (_, err) = exits_within(
            dir.path(),
            &[
                "run",
                "--board",
                "64x64",
                "--search-gif",
                "s.gif",
                "--force",
                "--max-frames",
                &frames,
                "--time-limit",
                "1",
            ],
            3,
            LATE,
        );
        assert!(
            err.contains("the time limit ran out: no GIF was written to s.gif"),
            "{err}"
        );
        assert_eq!(crate::util::files(dir.path()), ["s.gif"]);
        let kept = std::fs::read_to_string(dir.path().join("s.gif")).unwrap_or_default();
        assert_eq!(kept, "mine");
    }
}

/// A clue picture of `side` rows of `side` squares (`.`), with step
/// `i + 1` on every `every`-th square (in reading order).
fn clue_picture(side: usize, every: usize) -> String {
    let mut text = String::with_capacity(2 * side * side + 64);
    text.push_str("Puzzle(piece: \"knight\", clues: r#\"\n");
    for i in 0..side * side {
        if i % every == 0 {
            text.push_str(&(i + 1).to_string());
        } else {
            text.push('.');
        }
        text.push(if (i + 1) % side == 0 { '\n' } else { ' ' });
    }
    text.push_str("\"#)");
    text
}

#[test]
fn a_big_clue_picture_obeys_the_time_limit() {
    // 4,000 rows of 4,000 squares: 32 MB, read and searched under the
    // limit, with one clue or with 125,000 (then refused, as their
    // distances would need far more than the budget, if it is read in time).
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    for (every, codes) in [(16_000_000, &[3][..]), (128, &[2, 3])] {
        let text = clue_picture(4000, every);
        assert!(text.len() as u64 <= engine::puzzle::MAX_FILE_BYTES);
        std::fs::write(dir.path().join("p.ron"), &text).unwrap_or_else(|e| panic!("{e}"));
        for cmd in ["run", "check", "count"] {
            let args = [cmd, "p.ron", "--time-limit", "0.5"];
            let (code, _, err, took) = timed(engine_process().args(args).current_dir(dir.path()));
            assert!(
                code.is_some_and(|c| codes.contains(&c)),
                "{args:?}: {code:?} {err}"
            );
            assert!(took < LATE, "{args:?}: took {took:?}");
        }
    }
}

/// Runs `engine ARGS` in `dir`, whose last argument is its time limit in
/// seconds, and checks that it ends with one of `codes` within half a
/// second of the limit (tried up to five times, each after the load has
/// fallen below the cores when it can).
fn stops_on_time(dir: &Path, args: &[&str], codes: &[i32]) {
    let limit: f64 = args
        .last()
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("{args:?}: no time limit last"));
    let bound = Duration::from_secs_f64(limit + 0.5);
    let mut tries = 0;
    loop {
        tries += 1;
        let (code, _, err, took) = timed(engine_process().args(args).current_dir(dir));
        assert!(
            code.is_some_and(|c| codes.contains(&c)),
            "{args:?}: {code:?} {err}"
        );
        if took <= bound {
            return;
        }
        assert!(tries < 5, "{args:?}: took {took:?}, five times");
        calm_down();
    }
}

/// Waits (up to 20 s) until the machine's load is below its cores, so that
/// a try after a late one is not as starved of the processor as that one
/// (the whole suite runs beside these tests).
fn calm_down() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
    let load = || {
        std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|t| t.split_whitespace().next()?.parse::<f64>().ok())
    };
    let started = std::time::Instant::now();
    while load().is_some_and(|l| l >= cores) && started.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(500));
    }
}

#[test]
fn stops_on_the_largest_boards_are_not_late() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    for (name, text) in [
        // 1,286 and about 1,800 moves a square: the graph's building looks
        // at the clock by moves, not only by squares.
        ("rook.ron", "Puzzle(board: \"644x644\", piece: \"rook\")"),
        ("queen.ron", "Puzzle(board: \"460x460\", piece: \"queen\")"),
    ] {
        std::fs::write(dir.path().join(name), text).unwrap_or_else(|e| panic!("{e}"));
        for cmd in ["run", "check", "count"] {
            stops_on_time(dir.path(), &[cmd, name, "--time-limit", "0.5"], &[3]);
        }
    }
    // No square has a move: Warnsdorff's repairs sweep 16 million squares,
    // looking at the clock between their passes. (A proof that comes in
    // time is an answer too.)
    std::fs::write(
        dir.path().join("none.ron"),
        "Puzzle(board: \"4096x4096\", piece: \"leaper 5000 5000\")",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    for cmd in ["run", "check", "count"] {
        stops_on_time(
            dir.path(),
            &[cmd, "none.ron", "--time-limit", "1.2"],
            &[0, 1, 3],
        );
    }
    std::fs::write(
        dir.path().join("genetic.ron"),
        "Puzzle(board: \"4096x4096\", piece: \"knight\", solver: Genetic(population: 20))",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    stops_on_time(
        dir.path(),
        &["run", "genetic.ron", "--time-limit", "2"],
        &[3],
    );
    // A search writing its whole path at every step to a trace: it looks
    // at the clock more often when each step is watched.
    stops_on_time(
        dir.path(),
        &[
            "run",
            "--board",
            "64x64",
            "--closed",
            "--solver",
            "backtrack",
            "--trace",
            "t.jsonl",
            "--time-limit",
            "1",
        ],
        &[3],
    );
}

#[test]
fn ctrl_c_while_pictures_are_drawn_keeps_the_users_files() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    for (flag, file) in [("--png", "w.png"), ("--svg", "w.svg")] {
        std::fs::write(dir.path().join(file), "mine").unwrap_or_else(|e| panic!("{e}"));
        // The temporary appears when the drawing starts.
        let temp = format!(".{file}.");
        let folder = dir.path().to_path_buf();
        let drawing = move || {
            std::fs::read_dir(&folder).is_ok_and(|d| {
                d.flatten()
                    .any(|e| e.file_name().to_string_lossy().starts_with(&temp))
            })
        };
        let (code, took, err) = signal_when(
            engine_process()
                .args([
                    "run",
                    "--board",
                    "3000x3000",
                    "--solver",
                    "warnsdorff",
                    "--quiet",
                    "--force",
                    flag,
                    file,
                ])
                .current_dir(dir.path()),
            "INT",
            drawing,
        );
        assert_eq!(code, Some(130), "{flag}: {err}");
        assert!(took < LATE, "{flag}: {took:?}");
        // Stopped while drawing ("interrupted: no picture was written to
        // w.svg"), or, on a busy machine, while the tour was still being
        // verified beside the drawing ("interrupted, so nothing was written
        // to w.svg"): either way the file is named and left alone.
        assert!(
            err.contains("interrupted") && err.contains(&format!("written to {file}")),
            "{flag}: {err}"
        );
        let kept = std::fs::read_to_string(dir.path().join(file)).unwrap_or_default();
        assert_eq!(kept, "mine", "{flag}: the user's file was replaced");
    }
    assert_eq!(crate::util::files(dir.path()), ["w.png", "w.svg"]);
}
