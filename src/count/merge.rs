//! Adding up the shards of a split count: the `shard=` lines the shards
//! printed ([`parse`]) are checked to be of one puzzle, one method and one
//! N, every shard present and complete, the lines of a shard run twice
//! alike and the parts of one pair of ends cut at one square; then their
//! tours, cycles and check figures are added ([`merge`]). Other lines (a
//! shard's title and counts in words) are passed over, so a shard's whole
//! output can be given.

use std::collections::BTreeMap;

use super::check::Check;
use crate::error::{Error, ErrorKind, Span};

/// One shard's machine-readable line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardLine {
    /// Where it was read: the file's name and the line, from 1.
    pub file: String,
    /// The line, from 1.
    pub line: usize,
    /// K of `shard=K/N`.
    pub k: u32,
    /// N of `shard=K/N`.
    pub n: u32,
    /// `dfs` or `frontier` (`?` when the line names none: a shard stopped
    /// before its count began).
    pub method: String,
    /// The shard's tours (a lower bound when partial).
    pub tours: u128,
    /// Its part of twice the distinct cycles, for a closed goal.
    pub cycles_x2: Option<u128>,
    /// Whether it ran to the end.
    pub complete: bool,
    /// What it covered: `tasks=` or `parts=` as written.
    pub done: String,
    /// A frontier shard's units.
    pub covered: Vec<String>,
    /// The puzzle's fingerprint, if given.
    pub puzzle: Option<String>,
    /// The check figure, if given.
    pub check: Option<Check>,
}

impl ShardLine {
    /// Whether two lines of one shard say the same.
    fn agrees(&self, other: &ShardLine) -> bool {
        (
            &self.tours,
            &self.cycles_x2,
            &self.check,
            &self.covered,
            &self.done,
        ) == (
            &other.tours,
            &other.cycles_x2,
            &other.check,
            &other.covered,
            &other.done,
        )
    }
}

/// The `shard=` lines of `text` (read from `file`), in order; an error at
/// the first field that is not what a shard prints.
pub fn parse(file: &str, text: &str) -> Result<Vec<ShardLine>, Error> {
    let mut out = Vec::new();
    let mut offset = 0;
    for (i, raw) in text.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        if !line.starts_with("shard=") {
            continue;
        }
        out.push(parse_line(file, text, start, line, i + 1)?);
    }
    Ok(out)
}

/// Parses one `shard=` line, which starts at byte `start` of `text`.
fn parse_line(
    file: &str,
    text: &str,
    start: usize,
    line: &str,
    number: usize,
) -> Result<ShardLine, Error> {
    let bad = |at: usize, len: usize, msg: String| {
        Error::at(
            ErrorKind::BadValue,
            file,
            text,
            Span::new(start + at, start + at + len.max(1)),
            msg,
        )
    };
    let mut fields: BTreeMap<&str, (usize, &str)> = BTreeMap::new();
    let mut at = 0;
    for token in line.split(' ') {
        let here = at;
        at += token.len() + 1;
        if token.is_empty() {
            continue;
        }
        let Some((key, value)) = token.split_once('=') else {
            return Err(bad(
                here,
                token.len(),
                format!("`{token}` is not a field of a shard's line: fields are written key=value"),
            ));
        };
        if fields.insert(key, (here + key.len() + 1, value)).is_some() {
            return Err(bad(here, token.len(), format!("`{key}` is given twice")));
        }
    }
    let whole = |key: &str| -> Result<(usize, &str), Error> {
        fields.get(key).copied().ok_or_else(|| {
            bad(
                line.len(),
                1,
                format!("the line has no `{key}=`: is it cut short?"),
            )
        })
    };
    let number_of = |key: &str, (at, v): (usize, &str)| -> Result<u128, Error> {
        v.parse::<u128>().map_err(|_| {
            bad(
                at,
                v.len(),
                format!("`{key}=` takes a whole number, not `{v}`"),
            )
        })
    };
    let (shard_at, shard) = whole("shard")?;
    let (k, n) = shard
        .split_once('/')
        .and_then(|(k, n)| Some((k.parse::<u32>().ok()?, n.parse::<u32>().ok()?)))
        .filter(|&(k, n)| k >= 1 && k <= n)
        .ok_or_else(|| {
            bad(
                shard_at,
                shard.len(),
                format!("`shard=` is K/N with 1 ≤ K ≤ N, not `{shard}`"),
            )
        })?;
    let tours = number_of("tours", whole("tours")?)?;
    let cycles_x2 = match fields.get("cycles_x2") {
        Some(&f) => Some(number_of("cycles_x2", f)?),
        None => None,
    };
    let (status_at, status) = whole("status")?;
    let complete = match status {
        "complete" => true,
        "partial" => false,
        other => {
            return Err(bad(
                status_at,
                other.len(),
                format!("`status=` is complete or partial, not `{other}`"),
            ));
        }
    };
    let done = match (fields.get("tasks"), fields.get("parts")) {
        (Some(&(_, t)), None) => format!("tasks={t}"),
        (None, Some(&(_, p))) => format!("parts={p}"),
        _ => {
            return Err(bad(
                line.len(),
                1,
                "the line needs one of `tasks=` and `parts=`".to_string(),
            ));
        }
    };
    let check = match fields.get("check") {
        Some(&(at, v)) => Some(Check::parse(v).ok_or_else(|| {
            bad(
                at,
                v.len(),
                format!("`check=` is sixteen hexadecimal digits, not `{v}`"),
            )
        })?),
        None => None,
    };
    let out = ShardLine {
        file: file.to_string(),
        line: number,
        k,
        n,
        method: fields
            .get("method")
            .map_or("?".to_string(), |&(_, m)| m.to_string()),
        tours,
        cycles_x2,
        complete,
        done,
        covered: fields
            .get("covered")
            .map(|&(_, c)| c.split(',').map(str::to_string).collect())
            .unwrap_or_default(),
        puzzle: fields.get("puzzle").map(|&(_, p)| p.to_string()),
        check,
    };
    if complete && (out.puzzle.is_none() || out.check.is_none() || out.method == "?") {
        return Err(bad(
            0,
            line.len(),
            "a complete shard's line names its method, puzzle and check figure: this one is from an older engine, or cut short; run the shard again".to_string(),
        ));
    }
    Ok(out)
}

/// The shards added up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// N: the shards the count was split into.
    pub n: u32,
    /// The method.
    pub method: String,
    /// The puzzle's fingerprint.
    pub puzzle: String,
    /// The tours of the complete shards (the whole count when none is
    /// missing or partial; else a lower bound).
    pub tours: u128,
    /// Closed goals: twice the distinct cycles, added.
    pub cycles_x2: Option<u128>,
    /// The shards' check figures, added.
    pub check: Check,
    /// Shards of which no line was given.
    pub missing: Vec<u32>,
    /// Shards whose every line is partial.
    pub partial: Vec<u32>,
    /// Lines given for shards given already (run twice, alike).
    pub repeated: usize,
}

impl Merged {
    /// Whether every shard is there, complete.
    pub fn complete(&self) -> bool {
        self.missing.is_empty() && self.partial.is_empty()
    }

    /// The distinct cycles of a closed goal (None for an open one).
    pub fn cycles(&self) -> Option<u128> {
        self.cycles_x2.map(|c| c / 2)
    }
}

/// An error at line `l`, of kind Mismatch, with `message`.
fn mismatch(l: &ShardLine, message: String) -> Error {
    let mut e = Error::whole_file(ErrorKind::Mismatch, &l.file, message);
    e.line = u32::try_from(l.line).unwrap_or(u32::MAX);
    e
}

/// Adds up `lines`: an error when there are none, when they are not of one
/// puzzle, one method and one N, when two lines of one shard disagree, or
/// when the parts of one pair of ends were cut at different squares.
pub fn merge(lines: &[ShardLine]) -> Result<Merged, Error> {
    let Some(first) = lines.first() else {
        return Err(Error::about(
            ErrorKind::Empty,
            "shards",
            "no `shard=` line was given: give the files the shards printed, or their lines on standard input",
        ));
    };
    // The puzzle, method and N of the first line that names them.
    let named = lines.iter().find(|l| l.puzzle.is_some()).unwrap_or(first);
    for l in lines {
        if l.n != named.n {
            return Err(mismatch(
                l,
                format!(
                    "shard {}/{} is of a split into {} shards, where {} line {} is of {}",
                    l.k, l.n, l.n, named.file, named.line, named.n
                ),
            ));
        }
        if l.puzzle.is_some() && l.puzzle != named.puzzle {
            return Err(mismatch(
                l,
                format!(
                    "shard {}/{} is of another puzzle, or of another order of squares ({} where {} line {} has {}): shards of one count must be run by the same engine on the same puzzle",
                    l.k,
                    l.n,
                    l.puzzle.as_deref().unwrap_or("?"),
                    named.file,
                    named.line,
                    named.puzzle.as_deref().unwrap_or("?")
                ),
            ));
        }
        if l.method != "?" && named.method != "?" && l.method != named.method {
            return Err(mismatch(
                l,
                format!(
                    "shard {}/{} was counted by {}, where {} line {} was counted by {}",
                    l.k, l.n, l.method, named.file, named.line, named.method
                ),
            ));
        }
    }
    let mut by_shard: BTreeMap<u32, &ShardLine> = BTreeMap::new();
    let mut repeated = 0;
    let mut partial_seen = std::collections::BTreeSet::new();
    for l in lines {
        if !l.complete {
            partial_seen.insert(l.k);
            continue;
        }
        match by_shard.get(&l.k) {
            Some(before) if !before.agrees(l) => {
                return Err(mismatch(
                    l,
                    format!(
                        "shard {}/{} is given twice with different figures ({} line {}: tours={} check={}; here tours={} check={}): one of the runs went wrong, run it again",
                        l.k,
                        l.n,
                        before.file,
                        before.line,
                        before.tours,
                        before.check.map_or("?".to_string(), Check::hex),
                        l.tours,
                        l.check.map_or("?".to_string(), Check::hex)
                    ),
                ));
            }
            Some(_) => repeated += 1,
            None => {
                by_shard.insert(l.k, l);
            }
        }
    }
    // The parts of one pair of ends were cut after one square.
    let mut cut_at: BTreeMap<&str, (&str, &ShardLine)> = BTreeMap::new();
    for l in by_shard.values() {
        for unit in &l.covered {
            let Some((pair, rest)) = unit.split_once('#') else {
                continue;
            };
            let at = rest.split_once('@').map_or("", |(_, a)| a);
            match cut_at.get(pair) {
                Some(&(a, before)) if a != at => {
                    return Err(mismatch(
                        l,
                        format!(
                            "shard {}/{} cut {} after square {at}, where {} line {} cut it after square {a}: shards of one count must be run by the same engine",
                            l.k,
                            l.n,
                            if pair.is_empty() { "the count" } else { pair },
                            before.file,
                            before.line
                        ),
                    ));
                }
                Some(_) => {}
                None => {
                    cut_at.insert(pair, (at, l));
                }
            }
        }
    }
    let n = named.n;
    let missing: Vec<u32> = (1..=n)
        .filter(|k| !by_shard.contains_key(k) && !partial_seen.contains(k))
        .collect();
    let partial: Vec<u32> = partial_seen
        .into_iter()
        .filter(|k| !by_shard.contains_key(k))
        .collect();
    let closed = by_shard.values().any(|l| l.cycles_x2.is_some());
    let mut tours = 0u128;
    let mut cycles_x2 = closed.then_some(0u128);
    let mut check = Check::default();
    for l in by_shard.values() {
        tours = tours.checked_add(l.tours).ok_or_else(|| {
            mismatch(
                l,
                "the shards' tours add up to more than 128 bits".to_string(),
            )
        })?;
        if let (Some(x2), Some(c)) = (cycles_x2.as_mut(), l.cycles_x2) {
            *x2 = x2.checked_add(c).ok_or_else(|| {
                mismatch(
                    l,
                    "the shards' cycles add up to more than 128 bits".to_string(),
                )
            })?;
        }
        check = check.plus(l.check.unwrap_or_default());
    }
    Ok(Merged {
        n,
        method: named.method.clone(),
        puzzle: named.puzzle.clone().unwrap_or_else(|| "?".to_string()),
        tours,
        cycles_x2,
        check,
        missing,
        partial,
        repeated,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = "Knight 5x5 — knight on 5x5 — open tour
shard=1/2 method=frontier tours=384 status=complete parts=1/1 covered=a1-c2x8 puzzle=00112233aabbccdd check=0000000000000005
shard=2/2 method=frontier tours=1344 status=complete parts=1/1 covered=a1-e5x8 puzzle=00112233aabbccdd check=0000000000000007
";

    #[test]
    fn lines_of_one_count_add_up() {
        let Ok(lines) = parse("all.txt", TWO) else {
            panic!("no parse");
        };
        assert_eq!(lines.len(), 2);
        let Ok(m) = merge(&lines) else {
            panic!("no merge");
        };
        assert!(m.complete());
        assert_eq!((m.tours, m.check.value(), m.n), (1728, 12, 2));
    }

    #[test]
    fn a_missing_or_partial_shard_is_named() {
        let Ok(lines) = parse("all.txt", TWO) else {
            panic!("no parse");
        };
        let Ok(m) = merge(&lines[..1]) else {
            panic!("no merge");
        };
        assert_eq!((m.missing.clone(), m.complete()), (vec![2], false));
        let partial = TWO.replace("tours=1344 status=complete", "tours=0 status=partial");
        let Ok(lines) = parse("all.txt", &partial) else {
            panic!("no parse");
        };
        let Ok(m) = merge(&lines) else {
            panic!("no merge");
        };
        assert_eq!((m.partial, m.tours), (vec![2], 384));
    }

    #[test]
    fn disagreeing_lines_are_refused_where_they_are() {
        let twice = format!(
            "{TWO}{}",
            TWO.lines()
                .nth(1)
                .unwrap_or_default()
                .replace("tours=384", "tours=385")
        );
        let Ok(lines) = parse("all.txt", &twice) else {
            panic!("no parse");
        };
        let Err(e) = merge(&lines) else {
            panic!("merged");
        };
        assert_eq!((e.kind, e.line), (ErrorKind::Mismatch, 4));
        let other = TWO.replace(
            "puzzle=00112233aabbccdd check=0000000000000007",
            "puzzle=ffff2233aabbccdd check=0000000000000007",
        );
        let Ok(lines) = parse("all.txt", &other) else {
            panic!("no parse");
        };
        assert!(merge(&lines).is_err());
    }

    #[test]
    fn a_bad_field_is_shown_with_a_caret() {
        let bad = TWO.replace("tours=1344", "tours=13x4");
        let Err(e) = parse("all.txt", &bad) else {
            panic!("parsed");
        };
        assert_eq!((e.line, e.col), (3, 33));
        let cut = &TWO[..TWO.len() - 12];
        let Err(e) = parse("all.txt", cut) else {
            panic!("parsed");
        };
        assert!(e.message.contains("check"), "{}", e.message);
    }
}
