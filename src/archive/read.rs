//! Reading the archive's rows as untrusted values: a file anyone can edit
//! may hold any SQLite value in any column. Each cell is checked against
//! what the column means (a count is a whole number from 0, a time a finite
//! number of milliseconds, text is UTF-8), and a cell that is not is a
//! [`Damage`] naming its run, its column and what it holds.

use std::fmt;

use rusqlite::Row;
use rusqlite::types::ValueRef;

use crate::error::escape_controls;

/// The longest time a run may have taken, in milliseconds (about 31,700
/// years): past it a saved time is damage, and sums of times stay finite.
pub const MAX_TIME_MS: f64 = 1e15;

/// A cell of the archive that does not hold what its column means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damage {
    /// The run's id, when it reads.
    pub run: Option<i64>,
    /// The column, with its table: `runs.time_ms`.
    pub column: String,
    /// What it holds and what it should: `holds "abc", not a whole number`.
    pub why: String,
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.run {
            Some(id) => write!(f, "run {id}")?,
            None => f.write_str("a run")?,
        }
        write!(f, " is damaged: column `{}` {}", self.column, self.why)
    }
}

/// Rows read from the archive, and the damaged ones left out.
#[derive(Clone, Debug, PartialEq)]
pub struct Rows<T> {
    /// The rows that read.
    pub rows: Vec<T>,
    /// The damaged rows left out, one damage each (the first found).
    pub skipped: Vec<Damage>,
}

impl<T> std::ops::Deref for Rows<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.rows
    }
}

/// A value as a person reads it in a message: short, one line.
fn shown(v: ValueRef<'_>) -> String {
    const MOST: usize = 40;
    match v {
        ValueRef::Null => "nothing (NULL)".to_string(),
        ValueRef::Integer(n) => format!("the whole number {n}"),
        ValueRef::Real(x) => format!("the number {x}"),
        ValueRef::Text(t) => match std::str::from_utf8(t) {
            Ok(s) if s.chars().count() <= MOST => format!("\"{}\"", escape_controls(s)),
            Ok(s) => {
                let head: String = s.chars().take(MOST).collect();
                format!("\"{}…\" ({} bytes)", escape_controls(&head), s.len())
            }
            Err(_) => format!("text of {} bytes that is not UTF-8", t.len()),
        },
        ValueRef::Blob(b) => format!("a blob of {} bytes", b.len()),
    }
}

/// The cells of one row, read with their column's meaning checked.
pub(super) struct Cells<'a, 'r> {
    row: &'a Row<'r>,
    run: Option<i64>,
}

impl<'a, 'r> Cells<'a, 'r> {
    /// The cells of `row`, whose run id is in column `id` (if it reads).
    pub(super) fn new(row: &'a Row<'r>, id: usize) -> Cells<'a, 'r> {
        let run = match row.get_ref(id) {
            Ok(ValueRef::Integer(n)) => Some(n),
            _ => None,
        };
        Cells { row, run }
    }

    fn damage(&self, i: usize, why: String) -> Damage {
        let column = self
            .row
            .as_ref()
            .column_name(i)
            .map_or_else(|_| format!("column {i}"), str::to_string);
        Damage {
            run: self.run,
            column,
            why,
        }
    }

    fn value(&self, i: usize) -> Result<ValueRef<'a>, Damage> {
        self.row
            .get_ref(i)
            .map_err(|e| self.damage(i, format!("cannot be read: {e}")))
    }

    fn wrong(&self, i: usize, v: ValueRef<'_>, want: &str) -> Damage {
        self.damage(i, format!("holds {}, not {want}", shown(v)))
    }

    /// The damage of column `i`, which reads but is not `want`.
    pub(super) fn wrong_text(&self, i: usize, want: &str) -> Damage {
        match self.value(i) {
            Ok(v) => self.wrong(i, v, want),
            Err(d) => d,
        }
    }

    /// A whole number, or nothing.
    pub(super) fn opt_int(&self, i: usize) -> Result<Option<i64>, Damage> {
        match self.value(i)? {
            ValueRef::Null => Ok(None),
            ValueRef::Integer(n) => Ok(Some(n)),
            v => Err(self.wrong(i, v, "a whole number")),
        }
    }

    /// A whole number.
    pub(super) fn int(&self, i: usize) -> Result<i64, Damage> {
        match self.value(i)? {
            ValueRef::Integer(n) => Ok(n),
            v => Err(self.wrong(i, v, "a whole number")),
        }
    }

    /// A count: a whole number from 0.
    pub(super) fn count(&self, i: usize) -> Result<u64, Damage> {
        match self.value(i)? {
            ValueRef::Integer(n) if n >= 0 => Ok(n as u64),
            v => Err(self.wrong(i, v, "a count (a whole number from 0)")),
        }
    }

    /// True or false, saved as 0 or 1.
    pub(super) fn flag(&self, i: usize) -> Result<bool, Damage> {
        match self.value(i)? {
            ValueRef::Integer(0) => Ok(false),
            ValueRef::Integer(1) => Ok(true),
            v => Err(self.wrong(i, v, "0 or 1")),
        }
    }

    /// A time in milliseconds: finite, from 0 to [`MAX_TIME_MS`].
    pub(super) fn millis(&self, i: usize) -> Result<f64, Damage> {
        let v = self.value(i)?;
        let ms = match v {
            ValueRef::Real(x) => x,
            ValueRef::Integer(n) => n as f64,
            _ => f64::NAN,
        };
        if (0.0..=MAX_TIME_MS).contains(&ms) {
            Ok(ms)
        } else {
            Err(self.wrong(i, v, "a time in milliseconds (from 0 to 10^15)"))
        }
    }

    /// Text (UTF-8).
    pub(super) fn text(&self, i: usize) -> Result<String, Damage> {
        match self.value(i)? {
            ValueRef::Text(t) => match std::str::from_utf8(t) {
                Ok(s) => Ok(s.to_string()),
                Err(_) => Err(self.wrong(i, ValueRef::Text(t), "text")),
            },
            v => Err(self.wrong(i, v, "text")),
        }
    }

    /// Text, or nothing.
    pub(super) fn opt_text(&self, i: usize) -> Result<Option<String>, Damage> {
        match self.value(i)? {
            ValueRef::Null => Ok(None),
            _ => self.text(i).map(Some),
        }
    }

    /// Squares saved as 4-byte little-endian numbers, or nothing.
    pub(super) fn squares(&self, i: usize) -> Result<Option<Vec<u32>>, Damage> {
        match self.value(i)? {
            ValueRef::Null => Ok(None),
            ValueRef::Blob(b) if b.len() % 4 == 0 => Ok(Some(super::from_blob(b))),
            v => Err(self.wrong(i, v, "a list of squares (4 bytes each)")),
        }
    }
}
