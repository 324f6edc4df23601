//! What the two small languages inside a puzzle file share: their error
//! type, and turning pest's spans and errors into it. The languages
//! themselves are in `puzzle/piece.rs` (piece expressions) and
//! `puzzle/board.rs` (board expressions, pictures and squares).
//!
//! Every error carries a byte span into the text it came from, shifted by the
//! `base` offset the caller gives, so the puzzle layer can point into the file.

use pest::iterators::Pair;

use crate::error::{ErrorKind, Span};

pub use super::board::{parse_board, parse_square};
pub use super::piece::{
    BUILTINS, MAX_JUMP, MAX_MOVES, MAX_NESTING, MAX_RESOLVE_WORK, PieceDef, PieceExpr, Resolver,
    betza, parse_piece, resolve_piece,
};

/// A language error: what is wrong and where (absolute byte span).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LangError {
    /// What kind of fault it is.
    pub kind: ErrorKind,
    /// The offending text.
    pub span: Span,
    /// What is wrong.
    pub message: String,
    /// How to write it instead, when known.
    pub help: Option<String>,
}

impl LangError {
    pub(super) fn new(kind: ErrorKind, span: Span, message: impl Into<String>) -> LangError {
        LangError {
            kind,
            span,
            message: message.into(),
            help: None,
        }
    }

    /// Adds a hint.
    pub(super) fn with_help(mut self, help: impl Into<String>) -> LangError {
        self.help = Some(help.into());
        self
    }
}

/// The byte span of a pest pair, shifted by `base`.
pub(super) fn span_of(p: &Pair<impl pest::RuleType>, base: usize) -> Span {
    let s = p.as_span();
    Span::new(base + s.start(), base + s.end())
}

/// A pest error as a [`LangError`], its rules named by `name`.
pub(super) fn pest_error<R: pest::RuleType>(
    e: pest::error::Error<R>,
    base: usize,
    rename: impl FnMut(&R) -> String,
) -> LangError {
    let e = e.renamed_rules(rename);
    let (a, b) = match e.location {
        pest::error::InputLocation::Pos(p) => (p, p + 1),
        pest::error::InputLocation::Span((a, b)) => (a, b),
    };
    let message = match &e.variant {
        pest::error::ErrorVariant::ParsingError { .. } => e.variant.message().to_string(),
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    LangError::new(ErrorKind::Syntax, Span::new(base + a, base + b), message)
}
