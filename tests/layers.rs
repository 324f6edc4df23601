//! The library's top-level modules form layers that only look down: each
//! may use only the modules on lower lines of the `layers` block in
//! ARCHITECTURE.md. This test reads that block and every source file, so
//! the document and the code cannot drift apart.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The layers from ARCHITECTURE.md, top first: each line's module names.
fn layers() -> Vec<Vec<String>> {
    let doc = std::fs::read_to_string(root().join("ARCHITECTURE.md"))
        .unwrap_or_else(|e| panic!("ARCHITECTURE.md: {e}"));
    let block = doc
        .split("```layers\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .unwrap_or_else(|| panic!("ARCHITECTURE.md has no ```layers block"));
    block
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let names = l.split(':').next().unwrap_or_default();
            names
                .split_whitespace()
                .map(|n| n.trim_end_matches('/').to_string())
                .collect()
        })
        .collect()
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file of `src/` belongs to (None for the crate
/// roots and the binary's own modules).
fn module_of(path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root().join("src")).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.trim_end_matches(".rs");
    (!matches!(name, "lib" | "main" | "cli")).then(|| name.to_string())
}

/// The crate modules a file's code names as `crate::x` (also inside
/// `crate::{x, y::{Z}}`, over several lines), with the line of each.
/// Comments are skipped, and so is a file's test module (`#[cfg(test)]`
/// then `mod`) and all after it: a file's tests may use any layer to check
/// it.
fn uses(text: &str) -> Vec<(usize, String)> {
    // The code, comments blanked, with each character's line.
    let mut code = String::new();
    let mut lines = Vec::new();
    let all: Vec<&str> = text.lines().collect();
    for (i, line) in all.iter().enumerate() {
        let test_module = line.trim_start().starts_with("#[cfg(test)]")
            && all
                .get(i + 1)
                .is_some_and(|next| next.trim_start().starts_with("mod "));
        if test_module {
            break;
        }
        let kept = match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        };
        code.push_str(kept);
        code.push('\n');
        lines.extend(std::iter::repeat_n(i + 1, kept.len() + 1));
    }
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("crate::") {
        let start = from + at + "crate::".len();
        from = start;
        let rest = &code[start..];
        if rest.starts_with('{') {
            // The group up to its matching brace; its top-level names.
            let mut depth = 0;
            let mut name = String::new();
            let mut names = Vec::new();
            for c in rest.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' if depth == 1 => names.push(std::mem::take(&mut name)),
                    _ if depth == 1 => name.push(c),
                    _ => {}
                }
            }
            names.push(name);
            for n in names {
                let n = n
                    .trim()
                    .split("::")
                    .next()
                    .unwrap_or_default()
                    .trim()
                    .to_string();
                if !n.is_empty() && n != "self" {
                    found.push((lines[start], n));
                }
            }
        } else {
            let n = rest
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .next()
                .unwrap_or_default();
            if !n.is_empty() {
                found.push((lines[start], n.to_string()));
            }
        }
    }
    found
}

#[test]
fn every_import_looks_down() {
    let layers = layers();
    let level: BTreeMap<&str, usize> = layers
        .iter()
        .enumerate()
        .flat_map(|(i, names)| names.iter().map(move |n| (n.as_str(), i)))
        .collect();
    let mut files = Vec::new();
    sources(&root().join("src"), &mut files);
    files.sort();
    let mut upward = Vec::new();
    for path in &files {
        let Some(module) = module_of(path) else {
            continue;
        };
        let Some(&mine) = level.get(module.as_str()) else {
            panic!("module `{module}` is in no layer of ARCHITECTURE.md");
        };
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{e}"));
        for (line, used) in uses(&text) {
            if used == module {
                continue;
            }
            match level.get(used.as_str()) {
                Some(&theirs) if theirs > mine => {}
                Some(_) => upward.push(format!(
                    "{}:{line}: `{module}` uses `{used}`, which is not below it",
                    path.strip_prefix(root()).unwrap_or(path).display()
                )),
                None => panic!("`{used}` (used in {}) is in no layer", path.display()),
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports that do not look down:\n{}",
        upward.join("\n")
    );
}

#[test]
fn every_module_has_one_layer() {
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).unwrap_or_else(|e| panic!("{e}"));
    let declared: Vec<String> = lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|m| m.trim_end_matches(';').to_string())
        .collect();
    let listed: Vec<String> = layers().into_iter().flatten().collect();
    for m in &declared {
        let times = listed.iter().filter(|l| *l == m).count();
        assert_eq!(
            times, 1,
            "module `{m}` is listed {times} times in ARCHITECTURE.md's layers"
        );
    }
    for l in &listed {
        assert!(
            l == "cli" || declared.contains(l),
            "ARCHITECTURE.md lists `{l}`, which src/lib.rs does not declare"
        );
    }
}

#[test]
fn the_scanner_sees_grouped_and_plain_uses() {
    let text = "use crate::a::B;\n// crate::z\nuse crate::{c, d::{E, F}};\nlet x = crate::f::g(); // crate::y\nuse crate::{\n    g,\n    h::I,\n};\n#[cfg(test)]\nfn k() { crate::k::l() }\n#[cfg(test)]\nmod tests {\nuse crate::j;\n}\n";
    let found = uses(text);
    let names: Vec<&str> = found.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(names, ["a", "c", "d", "f", "g", "h", "k"]);
    let lines: Vec<usize> = found.iter().map(|(l, _)| *l).collect();
    assert_eq!(lines, [1, 3, 3, 4, 5, 5, 10]);
}
