//! The README's pictures: `docs/gallery.sh` draws them, and this test runs
//! each of its commands and checks that the files checked in are what the
//! code draws now, so they cannot go stale.

use std::path::Path;

use crate::util::engine;

#[test]
fn the_readme_pictures_are_what_the_code_draws() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = std::fs::read_to_string(root.join("docs/gallery.sh")).expect("the script");
    let readme = std::fs::read_to_string(root.join("README.md")).expect("the README");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut drawn = 0;
    for line in script.lines().filter(|l| l.starts_with("$ENGINE run ")) {
        let command = line.split("||").next().unwrap_or(line);
        let mut args: Vec<String> = command
            .split_whitespace()
            .skip(1)
            .map(String::from)
            .collect();
        let mut outputs = Vec::new();
        for i in 1..args.len() {
            if args[i - 1].starts_with("--") && args[i - 1].ends_with("gif") {
                let name = Path::new(&args[i])
                    .file_name()
                    .expect("a file name")
                    .to_owned();
                outputs.push((args[i].clone(), dir.path().join(&name)));
                args[i] = dir.path().join(&name).to_string_lossy().into_owned();
            }
        }
        let out = engine()
            .current_dir(root)
            .args(&args)
            .output()
            .expect("runs");
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{command}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        for (checked_in, fresh) in outputs {
            let want = std::fs::read(fresh).expect("drawn");
            let have = std::fs::read(root.join(&checked_in)).unwrap_or_default();
            assert!(
                have == want,
                "{checked_in} is not what the code draws now: run `sh docs/gallery.sh`"
            );
            assert!(
                readme.contains(&format!("]({checked_in})")),
                "{checked_in} is in the README"
            );
            drawn += 1;
        }
    }
    assert!(drawn >= 5, "the gallery: {drawn} pictures");
    // Puzzles made: their two pictures (the puzzle file's header names the
    // command, with its output path).
    let mut made = 0;
    for line in script.lines().filter(|l| l.starts_with("$ENGINE make ")) {
        let words = shlex::split(line).expect("a command");
        let mut args: Vec<String> = words[1..].to_vec();
        let at = args.iter().position(|a| a == "-o").expect("-o") + 1;
        let stem = args[at].trim_end_matches(".ron").to_string();
        args[at] = dir.path().join("made.ron").to_string_lossy().into_owned();
        let out = engine()
            .current_dir(root)
            .args(&args)
            .output()
            .expect("runs");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{line}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        for (checked_in, fresh) in [
            (format!("{stem}.svg"), "made.svg"),
            (format!("{stem}-solution.svg"), "made-solution.svg"),
        ] {
            let want = std::fs::read(dir.path().join(fresh)).expect("drawn");
            let have = std::fs::read(root.join(&checked_in)).unwrap_or_default();
            assert!(
                have == want,
                "{checked_in} is not what the code draws now: run `sh docs/gallery.sh`"
            );
        }
        assert!(
            readme.contains(&format!("]({stem}.svg)")),
            "{stem}.svg is in the README"
        );
        made += 1;
    }
    assert!(made >= 1, "the gallery: {made} puzzles made");
}
