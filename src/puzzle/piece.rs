//! Piece expressions: `knight`, `leaper 1 2`, `rider 0 1 max 4`,
//! `jumps (1,2), (2,-1)`, Betza words, unions and named pieces — parsed with
//! the grammar in `grammar/piece.pest` and resolved into a [`Piece`].

use std::collections::HashMap;
use std::rc::Rc;

use pest::Parser;
use pest::iterators::Pair;

use super::lang::{LangError, pest_error, span_of};
use crate::error::{ErrorKind, Span};
use crate::model::{Move, Piece, UNLIMITED};

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/piece.pest"]
struct PieceParser;

/// Deepest nesting of parentheses a piece expression may use.
pub const MAX_NESTING: usize = 32;

/// The parser recurses on parentheses; refuse absurd nesting before it does.
fn check_nesting(text: &str, base: usize) -> Result<(), LangError> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '(' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(LangError::new(
                        ErrorKind::TooBig,
                        Span::new(base + i, base + i + 1),
                        format!("parentheses nested more than {MAX_NESTING} deep"),
                    ));
                }
            }
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// Largest absolute value of a number in a jump.
pub const MAX_JUMP: i64 = 1 << 20;

/// A piece expression before names are resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PieceExpr {
    /// Moves known without looking anything up.
    Moves(Piece),
    /// A name: from `pieces`, a built-in, or (for words of atom letters) Betza.
    Name(String, Span),
    /// Left then right, repeats dropped; the span of the whole union.
    Union(Vec<PieceExpr>, Span),
}

/// Parses a piece expression. `base` is the offset of `text` in its file.
pub fn parse_piece(text: &str, base: usize) -> Result<PieceExpr, LangError> {
    check_nesting(text, base)?;
    let mut pairs =
        PieceParser::parse(Rule::piece, text).map_err(|e| pest_error(e, base, piece_rule_name))?;
    let piece = pairs
        .next()
        .ok_or_else(|| LangError::new(ErrorKind::Syntax, Span::new(base, base), "empty piece"))?;
    let union = piece
        .into_inner()
        .next()
        .ok_or_else(|| LangError::new(ErrorKind::Syntax, Span::new(base, base), "empty piece"))?;
    piece_union(union, base)
}

fn piece_union(pair: Pair<Rule>, base: usize) -> Result<PieceExpr, LangError> {
    let span = span_of(&pair, base);
    let mut parts = Vec::new();
    for p in pair.into_inner() {
        if p.as_rule() == Rule::term {
            parts.push(piece_term(p, base)?);
        }
    }
    Ok(if parts.len() == 1 {
        parts.remove(0)
    } else {
        PieceExpr::Union(parts, span)
    })
}

fn piece_term(pair: Pair<Rule>, base: usize) -> Result<PieceExpr, LangError> {
    let inner = pair
        .into_inner()
        .next()
        .ok_or_else(|| LangError::new(ErrorKind::Syntax, Span::default(), "empty term"))?;
    let span = span_of(&inner, base);
    match inner.as_rule() {
        Rule::leaper | Rule::rider => {
            let rider = inner.as_rule() == Rule::rider;
            let ints: Vec<Pair<Rule>> = inner.into_inner().collect();
            let m = int_value(&ints[0], base)?;
            let n = int_value(&ints[1], base)?;
            if m == 0 && n == 0 {
                return Err(LangError::new(
                    ErrorKind::BadValue,
                    span,
                    "a jump of (0,0) does not move the piece",
                ));
            }
            let range = if rider {
                match ints.get(2) {
                    Some(k) => {
                        let v = int_value(k, base)?;
                        if v < 1 {
                            return Err(LangError::new(
                                ErrorKind::BadValue,
                                span_of(k, base),
                                format!("`max` must be at least 1, not {v}"),
                            ));
                        }
                        u32::try_from(v).unwrap_or(UNLIMITED)
                    }
                    None => UNLIMITED,
                }
            } else {
                1
            };
            Ok(PieceExpr::Moves(Piece::leaper(m as i32, n as i32, range)))
        }
        Rule::jumps => {
            let mut moves = Vec::new();
            for j in inner.into_inner() {
                let js = span_of(&j, base);
                let ints: Vec<Pair<Rule>> = j.into_inner().collect();
                let dx = int_value(&ints[0], base)?;
                let dy = int_value(&ints[1], base)?;
                if dx == 0 && dy == 0 {
                    return Err(LangError::new(
                        ErrorKind::BadValue,
                        js,
                        "a jump of (0,0) does not move the piece",
                    ));
                }
                if moves.len() == MAX_MOVES {
                    return Err(LangError::new(
                        ErrorKind::TooBig,
                        js,
                        format!(
                            "more than {MAX_MOVES} jumps: a piece may have at most {MAX_MOVES} moves"
                        ),
                    ));
                }
                moves.push(Move::leap(dx as i32, dy as i32));
            }
            Ok(PieceExpr::Moves(Piece::new(moves)))
        }
        Rule::step => {
            // A leap by its step vector, in all eight directions, as
            // XBoard's extended Betza notation writes the giraffe: (1,4).
            let ints: Vec<Pair<Rule>> = inner.into_inner().flat_map(|j| j.into_inner()).collect();
            let (Some(m), Some(n)) = (ints.first(), ints.get(1)) else {
                return Err(LangError::new(
                    ErrorKind::Syntax,
                    span,
                    "a step is written (x,y)",
                ));
            };
            let (m, n) = (int_value(m, base)?, int_value(n, base)?);
            if m == 0 && n == 0 {
                return Err(LangError::new(
                    ErrorKind::BadValue,
                    span,
                    "a jump of (0,0) does not move the piece",
                ));
            }
            Ok(PieceExpr::Moves(Piece::leaper(m as i32, n as i32, 1)))
        }
        Rule::group => {
            let u = inner
                .into_inner()
                .next()
                .ok_or_else(|| LangError::new(ErrorKind::Syntax, span, "empty parentheses"))?;
            piece_union(u, base)
        }
        Rule::betza | Rule::name => Ok(PieceExpr::Name(inner.as_str().to_string(), span)),
        _ => Err(LangError::new(
            ErrorKind::Syntax,
            span,
            "unexpected piece term",
        )),
    }
}

fn int_value(p: &Pair<Rule>, base: usize) -> Result<i64, LangError> {
    let span = span_of(p, base);
    // Parsed exactly: a number of any length is either in range or not.
    match p.as_str().parse::<i64>() {
        Ok(v) if v.unsigned_abs() <= MAX_JUMP.unsigned_abs() => Ok(v),
        _ => Err(LangError::new(
            ErrorKind::BadValue,
            span,
            format!("number out of range: at most {MAX_JUMP} either way"),
        )),
    }
}

/// The built-in piece names and their expressions.
pub const BUILTINS: [(&str, &str); 13] = [
    ("knight", "leaper 1 2"),
    ("camel", "leaper 1 3"),
    ("zebra", "leaper 2 3"),
    ("giraffe", "leaper 1 4"),
    ("wazir", "leaper 0 1"),
    ("ferz", "leaper 1 1"),
    ("dabbaba", "leaper 0 2"),
    ("alfil", "leaper 2 2"),
    ("king", "leaper 0 1 | leaper 1 1"),
    ("rook", "rider 0 1"),
    ("bishop", "rider 1 1"),
    ("queen", "rider 0 1 | rider 1 1"),
    ("nightrider", "rider 1 2"),
];

/// The moves of a Betza word (see [`super::betza`]), or None if it is not
/// a well-formed one.
///
/// ```
/// let p = engine::puzzle::lang::betza("NN").unwrap();
/// assert!(p.moves().iter().all(|m| m.is_rider()));
/// assert!(engine::puzzle::lang::betza("ffN").is_some());
/// ```
pub fn betza(word: &str) -> Option<Piece> {
    super::betza::parse(word).ok().flatten()
}

/// The most characters of a name or word a message quotes.
const QUOTED: usize = 40;

/// `name` as a message quotes it: whole, or its start and `…` when long
/// (the caret under it in the file shows where it is).
fn abridged(name: &str) -> String {
    match name.char_indices().nth(QUOTED) {
        Some((i, _)) => format!("{}…", &name[..i]),
        None => name.to_string(),
    }
}

/// Betza words a misspelt name is compared with, for suggestions.
const COMMON_BETZA: [&str; 12] = ["W", "F", "D", "N", "A", "C", "Z", "K", "Q", "R", "B", "NN"];

/// Names close to `name` among `known` (case aside, or within two edits),
/// closest first: the "did you mean" of an unknown piece.
pub(super) fn suggestions<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    ranked_suggestions(name, known)
        .into_iter()
        .map(|(_, k)| k)
        .collect()
}

/// [`suggestions`], each with its distance from `name` in edits.
pub(super) fn ranked_suggestions<'a>(
    name: &str,
    known: impl Iterator<Item = &'a str>,
) -> Vec<(usize, &'a str)> {
    let lower = name.to_lowercase();
    let mut close: Vec<(usize, &str)> = known
        .filter_map(|k| {
            let d = crate::spelling::within_two_edits(&lower, &k.to_lowercase())?;
            (d < name.len().max(2)).then_some((d, k))
        })
        .collect();
    close.sort();
    close.dedup_by(|a, b| a.1 == b.1);
    close.truncate(3);
    close
}

/// A named piece definition: its name, its expression text, and where that
/// text starts in the file.
#[derive(Clone, Debug)]
pub struct PieceDef {
    /// The name used to refer to it.
    pub name: String,
    /// The expression.
    pub text: String,
    /// Offset of `text` in the file.
    pub base: usize,
}

/// The most moves one piece (a definition, or the puzzle's `piece`) may
/// have: more than any board can use sensibly, few enough that a piece's
/// moves are always cheap to list and compare.
pub const MAX_MOVES: usize = 4096;

/// The most work resolving a file's pieces may take, in moves read and
/// written: each definition is resolved once, but a definition may still
/// read several large ones; past this the file is refused.
pub const MAX_RESOLVE_WORK: usize = 1 << 21;

/// Parses and resolves a piece expression against `defs` and the built-ins.
/// Names in `defs` take precedence over built-in names and Betza words.
pub fn resolve_piece(text: &str, base: usize, defs: &[PieceDef]) -> Result<Piece, LangError> {
    Resolver::new(defs)?.piece(text, base)
}

/// A set of named pieces, each resolved once into its moves: a name used a
/// thousand times, or a chain of aliases, costs what its text costs, never
/// what its expansion would.
pub struct Resolver<'d> {
    defs: &'d [PieceDef],
    index: HashMap<&'d str, usize>,
    /// Each definition's moves, shared by every name that refers to it.
    done: Vec<Option<Rc<Piece>>>,
    builtins: HashMap<&'static str, Rc<Piece>>,
    work: usize,
    /// The definitions being resolved (all false between two resolutions).
    on_stack: Vec<bool>,
}

impl<'d> Resolver<'d> {
    /// Parses and resolves every definition in `defs` (in file order, so the
    /// first error in the file is the one reported). Definitions form no
    /// cycle, and none has more than [`MAX_MOVES`] moves.
    pub fn new(defs: &'d [PieceDef]) -> Result<Resolver<'d>, LangError> {
        let mut index = HashMap::with_capacity(defs.len());
        for (i, d) in defs.iter().enumerate() {
            // The first definition of a name wins (the puzzle refuses repeats).
            index.entry(d.name.as_str()).or_insert(i);
        }
        let mut r = Resolver {
            defs,
            index,
            done: vec![None; defs.len()],
            builtins: HashMap::new(),
            work: 0,
            on_stack: vec![false; defs.len()],
        };
        let exprs = defs
            .iter()
            .map(|d| parse_piece(&d.text, d.base))
            .collect::<Result<Vec<_>, _>>()?;
        for root in 0..defs.len() {
            r.resolve_from(root, &exprs)?;
        }
        Ok(r)
    }

    /// Resolves definition `root` and everything it uses, depth first on an
    /// explicit stack (a chain of aliases may be as long as the file).
    fn resolve_from(&mut self, root: usize, exprs: &[PieceExpr]) -> Result<(), LangError> {
        if self.done[root].is_some() {
            return Ok(());
        }
        // The definitions being resolved, outermost first; `on_stack` marks them.
        let mut stack: Vec<usize> = vec![root];
        self.on_stack[root] = true;
        while let Some(&top) = stack.last() {
            // The first name it uses that is not resolved yet, if any.
            let mut pending = None;
            names_in(&exprs[top], &mut |name, span| {
                if pending.is_some() {
                    return;
                }
                if let Some(&j) = self.index.get(name)
                    && self.done[j].is_none()
                {
                    pending = Some((j, span));
                }
            });
            match pending {
                Some((j, span)) if self.on_stack[j] => {
                    let from = stack.iter().position(|&k| k == j).unwrap_or(0);
                    let mut names: Vec<&str> = stack[from..]
                        .iter()
                        .map(|&k| self.defs[k].name.as_str())
                        .collect();
                    names.push(&self.defs[j].name);
                    return Err(LangError::new(
                        ErrorKind::Cycle,
                        span,
                        format!("cycle in `pieces`: {}", arrow_list(&names)),
                    ));
                }
                Some((j, _)) => {
                    self.on_stack[j] = true;
                    stack.push(j);
                }
                None => {
                    let piece = self.eval(&exprs[top])?;
                    let d = &self.defs[top];
                    if piece.moves().len() > MAX_MOVES {
                        return Err(LangError::new(
                            ErrorKind::TooBig,
                            Span::new(d.base, d.base + d.text.len()),
                            format!(
                                "`{}` has {} moves, more than the {MAX_MOVES} a piece may have",
                                d.name,
                                piece.moves().len()
                            ),
                        ));
                    }
                    self.done[top] = Some(piece);
                    self.on_stack[top] = false;
                    stack.pop();
                }
            }
        }
        Ok(())
    }

    /// The moves of `expr`, every name in it already resolved.
    fn eval(&mut self, expr: &PieceExpr) -> Result<Rc<Piece>, LangError> {
        match expr {
            // Its size is in proportion to its text.
            PieceExpr::Moves(p) => Ok(Rc::new(p.clone())),
            PieceExpr::Name(name, span) => self.named(name, *span),
            PieceExpr::Union(parts, span) => {
                let mut sets: Vec<Rc<Piece>> = Vec::with_capacity(parts.len());
                for p in parts {
                    let set = self.eval(p)?;
                    // The same definition named twice adds nothing.
                    if !sets.iter().any(|s| Rc::ptr_eq(s, &set)) {
                        sets.push(set);
                    }
                }
                let total: usize = sets.iter().map(|s| s.moves().len()).sum();
                self.spend(total, *span)?;
                // The parts hold no repeats: the first is taken whole.
                let mut piece = sets.first().map_or_else(Piece::default, |s| (**s).clone());
                for s in sets.iter().skip(1) {
                    piece.extend(s.moves().iter().copied());
                }
                let moves = piece.moves();
                if moves.len() > MAX_MOVES {
                    return Err(LangError::new(
                        ErrorKind::TooBig,
                        *span,
                        format!(
                            "this union has {} moves, more than the {MAX_MOVES} a piece may have",
                            moves.len()
                        ),
                    ));
                }
                // A union that adds nothing to a part is that part.
                if let Some(s) = sets.iter().find(|s| s.moves() == moves) {
                    return Ok(Rc::clone(s));
                }
                Ok(Rc::new(piece))
            }
        }
    }

    /// Counts `moves` of work against [`MAX_RESOLVE_WORK`].
    fn spend(&mut self, moves: usize, span: Span) -> Result<(), LangError> {
        self.work += moves;
        if self.work > MAX_RESOLVE_WORK {
            return Err(LangError::new(
                ErrorKind::TooBig,
                span,
                format!(
                    "the piece definitions expand to more than {MAX_RESOLVE_WORK} moves in all; a piece may have at most {MAX_MOVES}"
                ),
            ));
        }
        Ok(())
    }

    /// The moves a name stands for: a definition, a built-in, or a Betza word.
    fn named(&mut self, name: &str, span: Span) -> Result<Rc<Piece>, LangError> {
        if let Some(&i) = self.index.get(name) {
            return self.done[i].clone().ok_or_else(|| {
                LangError::new(
                    ErrorKind::Internal,
                    span,
                    format!("`{name}` is not resolved yet"),
                )
            });
        }
        if let Some((key, text)) = BUILTINS.iter().find(|(n, _)| *n == name) {
            if let Some(p) = self.builtins.get(key) {
                return Ok(Rc::clone(p));
            }
            let p = Rc::new(Resolver::new(&[])?.piece(text, 0)?);
            self.builtins.insert(key, Rc::clone(&p));
            return Ok(p);
        }
        // Betza's atoms are capitals: `nc` is most likely `NC`.
        let betza_word = super::betza::parse(name);
        if let Ok(Some(p)) = betza_word {
            return Ok(Rc::new(p));
        }
        // A capital letter alone is meant as a Betza atom: name the atoms,
        // not the names one edit away (every other letter).
        if name.len() == 1 && name.bytes().all(|b| b.is_ascii_uppercase()) && betza_word.is_ok() {
            return Err(LangError::new(
                ErrorKind::UnknownName,
                span,
                format!("`{name}` is not a Betza atom"),
            )
            .with_help(super::betza::ATOMS));
        }
        let names = || {
            self.defs
                .iter()
                .map(|d| d.name.as_str())
                .chain(BUILTINS.iter().map(|(n, _)| *n))
                .chain(COMMON_BETZA)
        };
        let upper = name.to_uppercase();
        let mut close: Vec<String> = Vec::new();
        let lowercase = !name.bytes().any(|b| b.is_ascii_uppercase());
        if lowercase && super::betza::parse(&upper).is_ok_and(|p| p.is_some()) {
            close.push(upper);
        }
        let capitals = !close.is_empty();
        close.extend(
            suggestions(name, names())
                .into_iter()
                .filter(|c| !(capitals && COMMON_BETZA.contains(c)))
                .map(String::from),
        );
        let did_you_mean = (!close.is_empty()).then(|| {
            let list: Vec<String> = close.iter().map(|c| format!("`{c}`")).collect();
            format!("did you mean {}?", list.join(" or "))
        });
        // A misspelt name (not a Betza word) is the likelier mistake.
        let misspelt = close.iter().any(|c| !COMMON_BETZA.contains(&c.as_str()));
        if let Err(e) = betza_word
            && !misspelt
        {
            // A word in Betza's letters that is not well formed: unless it
            // is a misspelt name, say what is wrong with it.
            let at = Span::new(span.start + e.start, span.start + e.end);
            let err = LangError::new(
                e.kind,
                at,
                format!("in the Betza word `{}`: {}", abridged(name), e.message),
            );
            return Err(match e.help {
                Some(h) => err.with_help(h),
                None => err,
            });
        }
        let builtins: Vec<&str> = BUILTINS.iter().map(|(n, _)| *n).collect();
        let help = format!(
            "{}pieces are built-in names ({}), names from `pieces`, Betza words (`N`, `fN`, `NN`, `R4`, `nN`), `leaper m n`, `rider m n max k` or `jumps (x,y), …`",
            did_you_mean.map(|d| format!("{d} ")).unwrap_or_default(),
            builtins.join(", ")
        );
        Err(LangError::new(
            ErrorKind::UnknownName,
            span,
            format!("unknown piece `{}`", abridged(name)),
        )
        .with_help(help))
    }

    /// Parses `text` (at offset `base` in its file) and resolves it against
    /// the definitions.
    pub fn piece(&mut self, text: &str, base: usize) -> Result<Piece, LangError> {
        let expr = parse_piece(text, base)?;
        let p = self.eval(&expr)?;
        if p.moves().len() > MAX_MOVES {
            return Err(LangError::new(
                ErrorKind::TooBig,
                Span::new(base, base + text.len()),
                format!(
                    "the piece has {} moves, more than the {MAX_MOVES} a piece may have",
                    p.moves().len()
                ),
            ));
        }
        Ok(Rc::unwrap_or_clone(p))
    }
}

/// Calls `f` with every name `expr` uses, left to right.
fn names_in(expr: &PieceExpr, f: &mut impl FnMut(&str, Span)) {
    match expr {
        PieceExpr::Moves(_) => {}
        PieceExpr::Name(n, span) => f(n, *span),
        PieceExpr::Union(parts, _) => parts.iter().for_each(|p| names_in(p, f)),
    }
}

/// `a -> b -> c`, shortened in the middle when long.
fn arrow_list(names: &[&str]) -> String {
    const EACH_END: usize = 4;
    if names.len() <= 2 * EACH_END + 1 {
        return names.join(" -> ");
    }
    format!(
        "{} -> … ({} more) … -> {}",
        names[..EACH_END].join(" -> "),
        names.len() - 2 * EACH_END,
        names[names.len() - EACH_END..].join(" -> ")
    )
}

fn piece_rule_name(r: &Rule) -> String {
    match r {
        Rule::int => "a number",
        Rule::union_op => "`|` or `+`",
        Rule::term | Rule::union => "a piece (e.g. `leaper 1 2`, `knight`, `NC`)",
        Rule::jump => "a jump like `(1,2)`",
        Rule::EOI => "end of the piece",
        _ => "a piece expression",
    }
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(text: &str) -> Result<Piece, LangError> {
        resolve_piece(text, 0, &[])
    }

    fn vectors(p: &Piece) -> Vec<(i32, i32, u32)> {
        p.moves().iter().map(|m| (m.dx, m.dy, m.range)).collect()
    }

    #[test]
    fn leaper_rider_and_jumps() {
        assert_eq!(piece("leaper 1 2").map(|p| p.moves().len()), Ok(8));
        assert_eq!(piece("leaper 0 1").map(|p| p.moves().len()), Ok(4));
        let r = piece("rider 1 1 max 2").unwrap_or_default();
        assert!(r.moves().iter().all(|m| m.range == 2));
        let j = piece("jumps (1,2), (2,-1)").unwrap_or_default();
        assert_eq!(vectors(&j), [(1, 2, 1), (2, -1, 1)]);
    }

    #[test]
    fn betza_and_builtins_agree() {
        assert_eq!(piece("N"), piece("knight"));
        assert_eq!(piece("NN"), piece("nightrider"));
        assert_eq!(piece("WF"), piece("king"));
        assert_eq!(piece("WW"), piece("rook"));
        assert_eq!(piece("NC").map(|p| p.moves().len()), Ok(16));
        assert_eq!(piece("N | C"), piece("NC"));
        assert_eq!(piece("(N + C)"), piece("NC"));
    }

    #[test]
    fn errors_point_at_the_text() {
        let e = piece("leaper 0 0").unwrap_err();
        assert_eq!((e.span.start, e.span.end), (0, 10));
        let e = piece("rider 1 1 max -1").unwrap_err();
        assert_eq!(&"rider 1 1 max -1"[e.span.start..e.span.end], "-1");
        let e = piece("knight | wizard").unwrap_err();
        assert_eq!(e.span.start, 9);
        assert_eq!(e.kind, ErrorKind::UnknownName);
        let e = piece("leaper 1").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Syntax);
        assert_eq!(
            piece("leaper 0 0").map_err(|e| e.kind),
            Err(ErrorKind::BadValue)
        );
        assert_eq!(piece("mN").map_err(|e| e.kind), Err(ErrorKind::BadValue));
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let deep = format!("{}N{}", "(".repeat(100_000), ")".repeat(100_000));
        let e = piece(&deep).unwrap_err();
        assert_eq!(e.span.start, MAX_NESTING);
        assert_eq!(e.kind, ErrorKind::TooBig);
        let ok = format!("{}N{}", "(".repeat(MAX_NESTING), ")".repeat(MAX_NESTING));
        assert_eq!(piece(&ok), piece("N"));
    }

    #[test]
    fn cycles_are_found() {
        let defs = [
            PieceDef {
                name: "a".into(),
                text: "b | N".into(),
                base: 100,
            },
            PieceDef {
                name: "b".into(),
                text: "a".into(),
                base: 200,
            },
        ];
        let e = resolve_piece("a", 0, &defs).unwrap_err();
        assert!(e.message.contains("a -> b -> a"), "{}", e.message);
        assert_eq!(e.kind, ErrorKind::Cycle);
        assert_eq!(e.span.start, 200);
    }
}
