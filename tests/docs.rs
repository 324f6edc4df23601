//! The documents keep themselves true: every ```` ```console ```` example in
//! README.md and in the guide (`docs/src/**/*.md`) is run here with trycmd
//! and its output compared with the output shown.
//!
//! An example is written as a user types it, `$ engine run
//! puzzles/holed4x4.ron`, followed by what `engine` prints (standard output
//! and standard error together); `? 1` after the command states an exit code
//! other than 0; `[..]` in a line matches any text and `...` on a line of its
//! own any lines (for times and rates only).
//!
//! Each document is copied into a directory made for the test and removed
//! after it, and its examples run in order in a directory of their own
//! beside the copy, which holds `puzzles/` and `tests/` (links to the
//! repository's) and nothing else: examples that write files (GIFs,
//! puzzles, archives) write them there, never into the checkout, and the
//! archive is that directory's `archive.sqlite` unless an example names
//! another. A failure names the copy with the line of the example, which is
//! its line in the document too.
//!
//! `TRYCMD=overwrite cargo test --release docs` writes the real output over
//! the shown output of every example that differs (keeping `[..]` and `...`
//! where they still match): read the diff before committing it.

use std::path::{Path, PathBuf};

/// The repository's folders the examples read, linked into the directory
/// they run in: the puzzles, and the malformed files of `tests/bad/`.
const LINKED: [&str; 2] = ["puzzles", "tests"];

/// The flags whose value is a file `engine` writes: an example may not
/// point one into a linked folder, which is the checkout.
const OUTPUTS: [&str; 9] = [
    "--checkpoint",
    "--gif",
    "--search-gif",
    "--png",
    "--svg",
    "--trace",
    "-o",
    "--output",
    "--archive",
];

/// The documents whose examples are run: the README and every chapter of
/// the guide.
fn documents(root: &Path) -> Vec<PathBuf> {
    fn chapters(dir: &Path, found: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.unwrap_or_else(|e| panic!("{e}")).path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                chapters(&path, found);
            } else if path.extension().is_some_and(|ext| ext == "md") {
                found.push(path);
            }
        }
    }
    let mut found = vec![root.join("README.md")];
    chapters(&root.join("docs/src"), &mut found);
    found
}

/// The commands of a document's blocks that trycmd runs, with the line each
/// is on: ```` ```console ```` blocks, and blocks with no language at all
/// (trycmd reads those as examples too, so the docs tag every other block).
fn console_commands(text: &str) -> Vec<(usize, String)> {
    let mut commands = Vec::new();
    // The open block's fence, and whether trycmd runs it.
    let mut open: Option<(String, bool)> = None;
    for (i, line) in text.lines().enumerate() {
        let ticks = line.chars().take_while(|&c| c == '`').count();
        match &open {
            None if ticks >= 3 => {
                let mut info = line[ticks..].trim().split(',');
                let lang = info.next().unwrap_or("");
                let runs =
                    matches!(lang, "" | "console" | "trycmd") && !info.any(|a| a == "ignore");
                open = Some((line[..ticks].to_owned(), runs));
            }
            None => {}
            Some((fence, _)) if line.starts_with(fence.as_str()) => open = None,
            Some((_, runs)) => {
                if let (true, Some(command)) = (*runs, line.strip_prefix("$ ")) {
                    commands.push((i + 1, command.to_owned()));
                }
            }
        }
    }
    commands
}

#[test]
fn every_console_example_in_the_docs_prints_what_it_shows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let stage = tempfile::tempdir().unwrap_or_else(|e| panic!("a temporary directory: {e}"));
    let cases = trycmd::TestCases::new();
    cases
        .register_bin("engine", PathBuf::from(env!("CARGO_BIN_EXE_engine")))
        .env("ENGINE_ARCHIVE", "archive.sqlite")
        .timeout(std::time::Duration::from_secs(120));
    let mut staged = Vec::new();
    let mut examples = 0;
    for doc in documents(root) {
        let text =
            std::fs::read_to_string(&doc).unwrap_or_else(|e| panic!("{}: {e}", doc.display()));
        let relative = doc.strip_prefix(root).unwrap_or(&doc);
        // trycmd skips a command whose program it does not know without a
        // word: every example must be a run of `engine`.
        for (i, line) in text.lines().enumerate() {
            assert!(
                !(line.starts_with(char::is_whitespace)
                    && line.trim_start().starts_with("```console")),
                "{}:{}: trycmd does not run an indented console block",
                relative.display(),
                i + 1
            );
        }
        for (line, command) in console_commands(&text) {
            assert!(
                command.starts_with("engine "),
                "{}:{line}: a console example runs `engine`, not `{command}`",
                relative.display()
            );
            let words: Vec<&str> = command.split_whitespace().collect();
            for pair in words.windows(2) {
                if OUTPUTS.contains(&pair[0]) {
                    assert!(
                        !pair[1].starts_with('/')
                            && !LINKED
                                .iter()
                                .any(|dir| pair[1].starts_with(&format!("{dir}/"))),
                        "{}:{line}: `{}` would write into the repository",
                        relative.display(),
                        pair[1]
                    );
                }
            }
            examples += 1;
        }
        // The copy and, beside it, the directory its examples run in (the
        // `.in` directory next to a case is trycmd's working directory).
        let copy = stage.path().join(relative);
        let dir = copy.with_extension("in");
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        std::fs::write(&copy, &text).unwrap_or_else(|e| panic!("{}: {e}", copy.display()));
        for linked in LINKED {
            std::os::unix::fs::symlink(root.join(linked), dir.join(linked))
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        }
        cases.case(&copy);
        staged.push((copy, doc));
    }
    assert!(examples >= 60, "only {examples} console examples found");
    cases.run();
    if std::env::var_os("TRYCMD").is_some_and(|mode| mode == "overwrite") {
        for (copy, doc) in staged {
            let text = std::fs::read(&copy).unwrap_or_else(|e| panic!("{}: {e}", copy.display()));
            std::fs::write(&doc, text).unwrap_or_else(|e| panic!("{}: {e}", doc.display()));
        }
    }
}

#[test]
fn console_blocks_are_found_and_other_blocks_are_not() {
    let text = "```sh\n$ cargo build\n```\n\n```console\n$ engine check x.ron\nout\n? 1\n```\n\
                ````md\n```console\n$ engine inside\n```\n````\n";
    assert_eq!(
        console_commands(text),
        vec![(6, "engine check x.ron".to_owned())]
    );
}
