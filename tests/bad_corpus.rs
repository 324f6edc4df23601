//! The bad-input corpus in tests/bad/: every file fails the way
//! tests/bad/expected.txt says — its exit code, the kind of its error and a
//! fragment of its message — with the file named as `file:line:col` (or
//! just `file:` when the error is about the file itself, such as a
//! directory), nothing on stdout, and no panic.

use std::path::Path;

use engine::puzzle::Puzzle;

use crate::util::engine;

/// Files whose error is about the file itself, with no line to point at.
const WHOLE_FILE: &[&str] = &["a-directory.ron"];

#[test]
fn every_bad_file_fails_cleanly() {
    let dir = Path::new("tests/bad");
    let manifest = std::fs::read_to_string(dir.join("expected.txt")).unwrap_or_default();
    let cases: Vec<(&str, i32, &str, &str)> = manifest
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let parts: Vec<&str> = l.splitn(4, '|').map(str::trim).collect();
            let code = parts.get(1).and_then(|c| c.parse().ok()).unwrap_or(-1);
            let kind = parts.get(2).copied().unwrap_or("");
            (parts[0], code, kind, parts.get(3).copied().unwrap_or(""))
        })
        .collect();
    assert!(cases.len() >= 40, "the corpus has {} cases", cases.len());
    // Every file in the folder is listed, and every listed file exists.
    let mut listed: Vec<&str> = cases.iter().map(|c| c.0).collect();
    listed.sort_unstable();
    let mut present: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{e}"))
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "expected.txt")
        .collect();
    present.sort_unstable();
    assert_eq!(listed, present);

    // The library says what went wrong by its kind.
    let mut wrong = Vec::new();
    for (name, _, kind, _) in &cases {
        let found = match Puzzle::load(&dir.join(name)) {
            Ok(_) => "accepted".to_string(),
            Err(e) => format!("{:?}", e.kind),
        };
        if found != *kind {
            wrong.push(format!("{name}: {found}, not {kind}"));
        }
    }
    assert!(wrong.is_empty(), "kinds:\n{}", wrong.join("\n"));

    for (name, code, _, fragment) in cases {
        let path = dir.join(name);
        for sub in ["run", "check"] {
            let out = engine()
                .args([sub, "--quiet"])
                .arg(&path)
                .output()
                .unwrap_or_else(|e| panic!("{e}"));
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(code), "{sub} {name}:\n{err}");
            assert!(
                out.stdout.is_empty(),
                "{sub} {name}: stdout should be empty"
            );
            assert!(!err.contains("panicked"), "{sub} {name}: {err}");
            let prefix = format!("error: {}:", path.display());
            assert!(
                err.starts_with(&prefix),
                "{sub} {name}: no file:line:col in\n{err}"
            );
            let at = &err[prefix.len()..];
            // A file that is not a file has no line to point at.
            if WHOLE_FILE.contains(&name) {
                assert!(at.starts_with(' '), "{sub} {name}: a position in\n{err}");
                assert!(
                    err.contains(fragment),
                    "{sub} {name}: `{fragment}` in\n{err}"
                );
                continue;
            }
            let mut nums = at.splitn(3, ':');
            let line_col = (nums.next(), nums.next());
            assert!(
                matches!(line_col, (Some(l), Some(c)) if l.parse::<usize>().is_ok() && c.parse::<usize>().is_ok()),
                "{sub} {name}: no line:col in\n{err}"
            );
            assert!(
                err.contains(fragment),
                "{sub} {name}: expected `{fragment}` in\n{err}"
            );
            assert!(
                err.len() < 2000,
                "{sub} {name}: the message fits one screen:\n{err}"
            );
        }
    }
}
