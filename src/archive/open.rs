//! What opening an archive must know besides SQLite's answer: whether the
//! file can be written at all (a read-only file system, a file or folder
//! the user may not write), whether its tables are those its schema version
//! claims, and SQLite's own words without the SQL they quote.

use std::collections::BTreeMap;
use std::path::Path;

use rusqlite::Connection;

use super::schema::{MIGRATIONS, Step};

/// Why the archive at `path` cannot be written, in words that follow its
/// path (`a.sqlite: is on a read-only file system`), or None when it can
/// be (as far as a look tells).
pub(super) fn read_only(path: &Path) -> Option<&'static str> {
    let file = std::fs::OpenOptions::new().write(true).open(path);
    if let Err(e) = &file {
        return match e.kind() {
            std::io::ErrorKind::ReadOnlyFilesystem => Some("is on a read-only file system"),
            std::io::ErrorKind::PermissionDenied => Some("is a file this user may not write"),
            _ => None,
        };
    }
    // SQLite writes its journal beside the file.
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match tempfile::tempfile_in(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::ReadOnlyFilesystem => {
            Some("is on a read-only file system")
        }
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            Some("is in a folder this user may not write (SQLite keeps its journal there)")
        }
        _ => None,
    }
}

/// `path` as an SQLite URI with `query` (`mode=ro`), its bytes escaped.
pub(super) fn uri(path: &Path, query: &str) -> String {
    let mut out = String::from("file:");
    for &b in path.as_os_str().as_encoded_bytes() {
        if b.is_ascii_alphanumeric() || b"/._-~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out.push('?');
    out.push_str(query);
    out
}

/// SQLite's message without the SQL it may quote (a whole migration, with
/// its newlines): what went wrong, in one line.
pub(super) fn sqlite_says(e: &rusqlite::Error) -> String {
    match e {
        rusqlite::Error::SqliteFailure(f, Some(msg)) => format!("{msg} ({})", f.code as u32),
        rusqlite::Error::SqlInputError { msg, .. } => msg.clone(),
        other => other
            .to_string()
            .lines()
            .next()
            .unwrap_or_default()
            .to_string(),
    }
}

/// The columns of the archive's tables, by table, in order.
type Columns = BTreeMap<String, Vec<String>>;

/// The columns of the tables in `conn`.
fn columns(conn: &Connection) -> rusqlite::Result<Columns> {
    let mut out = Columns::new();
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    for t in tables {
        let cols = conn
            .prepare("SELECT name FROM pragma_table_info(?1)")?
            .query_map([&t], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        out.insert(t, cols);
    }
    Ok(out)
}

/// The columns schema `version` has: what its steps make of an empty
/// database.
fn columns_of_version(version: i64) -> rusqlite::Result<Columns> {
    let conn = Connection::open_in_memory()?;
    for (_, step) in MIGRATIONS.iter().filter(|(to, _)| *to <= version) {
        if let Step::Sql(sql) = step {
            conn.execute_batch(sql)?;
        }
    }
    columns(&conn)
}

/// What is wrong with the tables of `conn` for an archive whose schema
/// version says `version`: None when they are that schema's (any further
/// table is allowed), else the first difference, in words.
pub(super) fn schema_mismatch(conn: &Connection, version: i64) -> rusqlite::Result<Option<String>> {
    let have = columns(conn)?;
    if version <= 0 {
        return Ok((!have.is_empty()).then(|| {
            "but it holds tables, which no engine archive has before schema 1".to_string()
        }));
    }
    let want = columns_of_version(version)?;
    for (table, cols) in &want {
        let Some(got) = have.get(table) else {
            return Ok(Some(format!("but table `{table}` is missing")));
        };
        if let Some(c) = cols.iter().find(|c| !got.contains(c)) {
            return Ok(Some(format!("but column `{table}.{c}` is missing")));
        }
        if let Some(c) = got.iter().find(|c| !cols.contains(c)) {
            return Ok(Some(format!(
                "but column `{table}.{c}` is not one schema {version} has"
            )));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_escape_what_is_not_plain() {
        assert_eq!(
            uri(Path::new("/a b/c?d#e%.sqlite"), "mode=ro"),
            "file:/a%20b/c%3Fd%23e%25.sqlite?mode=ro"
        );
    }

    /// Each version's own tables match it; the next version's do not.
    #[test]
    fn each_schema_matches_itself_only() {
        let last = MIGRATIONS[MIGRATIONS.len() - 1].0;
        for v in 1..=last {
            let conn = Connection::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
            for (_, step) in MIGRATIONS.iter().filter(|(to, _)| *to <= v) {
                if let Step::Sql(sql) = step {
                    conn.execute_batch(sql).unwrap_or_else(|e| panic!("{e}"));
                }
            }
            assert_eq!(schema_mismatch(&conn, v).ok(), Some(None), "schema {v}");
            for w in (0..=last).filter(|&w| w != v) {
                let said = schema_mismatch(&conn, w).ok().flatten();
                assert!(said.is_some(), "schema {v} taken for {w}");
            }
        }
    }
}
