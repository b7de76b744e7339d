//! Errors and warnings of the FSP front end, with their source locations.
//!
//! Every error names the file, line and column it comes from and, when shown, quotes the line with a
//! caret under the column — the rustc/regex-syntax habit, because a bare "syntax error" in a
//! 200-line model is useless. Locations are byte offsets inside the front end and are turned into
//! line/column pairs only when an error or warning is reported (`SourceMap`).

use std::fmt;

/// A place in a source file: 1-based line and column, plus the text of that line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The file name given to [`parse`](crate::parse).
    pub file: String,
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
    /// The text of the line (without its line break).
    pub line_text: String,
}

impl Location {
    fn fmt_with(&self, f: &mut fmt::Formatter<'_>, level: &str, message: &str) -> fmt::Result {
        writeln!(
            f,
            "{}:{}:{}: {level}: {message}",
            self.file, self.line, self.column
        )?;
        writeln!(f, "  | {}", self.line_text)?;
        // Tabs stay tabs so the caret lines up in a terminal.
        let pad: String = self
            .line_text
            .chars()
            .take(self.column.saturating_sub(1))
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        write!(f, "  | {pad}^")
    }
}

/// What went wrong, without the location.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The text is not FSP: an unexpected character or token.
    #[error("{0}")]
    Syntax(String),
    /// A name is used but never defined.
    #[error(
        "undefined {what} '{name}'{}",
        .suggestion.as_ref().map(|s| format!("; did you mean '{s}'?")).unwrap_or_default()
    )]
    #[non_exhaustive]
    Undefined {
        /// What kind of name ("process", "constant", ...).
        what: &'static str,
        /// The name.
        name: String,
        /// A defined name of the same kind close to it (a misspelling), if any.
        suggestion: Option<String>,
    },
    /// A name is defined twice.
    #[error("{what} '{name}' is defined twice")]
    Duplicate {
        /// What kind of name.
        what: &'static str,
        /// The name.
        name: String,
    },
    /// A process or composite is given the wrong number of arguments.
    #[error("'{name}' takes {expected} argument(s) but {found} were given")]
    Arity {
        /// The process name.
        name: String,
        /// Parameters declared.
        expected: usize,
        /// Arguments given.
        found: usize,
    },
    /// Integer arithmetic overflowed (FSP integers are 64-bit here).
    #[error("integer overflow in expression")]
    Overflow,
    /// Division or remainder by zero.
    #[error("division by zero")]
    DivisionByZero,
    /// An expression has the wrong type (a label where a number is needed, or the reverse).
    #[error("type error: {0}")]
    Type(String),
    /// Nesting or recursion deeper than the front end allows.
    #[error("{0}")]
    TooDeep(String),
    /// Elaboration would build more states, transitions or instances than allowed.
    #[error("{0}")]
    Limit(String),
    /// Any other semantic problem.
    #[error("{0}")]
    Semantic(String),
    /// The target asked for (by name, from outside the file) is not defined in the file.
    #[error(
        "no composite or process '{name}' in {file} (targets: {}){}",
        .targets.join(", "),
        .suggestion.as_ref().map(|s| format!("; did you mean '{s}'?")).unwrap_or_default()
    )]
    NoTarget {
        /// The name asked for.
        name: String,
        /// The file.
        file: String,
        /// Every target the file has, sorted.
        targets: Vec<String>,
        /// The nearest target, if one is close.
        suggestion: Option<String>,
    },
}

/// An error of the FSP front end: what went wrong and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FspError {
    /// What went wrong.
    pub kind: ErrorKind,
    /// Where, if the error can be tied to a place in the source.
    pub location: Option<Box<Location>>,
}

impl fmt::Display for FspError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Some(loc) => loc.fmt_with(f, "error", &self.kind.to_string()),
            None => write!(f, "error: {}", self.kind),
        }
    }
}

impl std::error::Error for FspError {}

/// A located warning: something LTSA accepts but that this front end ignores or treats specially.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// The message.
    pub message: String,
    /// Where.
    pub location: Location,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.location.fmt_with(f, "warning", &self.message)
    }
}

/// A byte offset into the source; turned into a [`Location`] by [`SourceMap::locate`].
pub(crate) type Pos = u32;

/// An error before it is located: kind plus byte offset.
#[derive(Clone, Debug)]
pub(crate) struct RawError {
    pub(crate) kind: ErrorKind,
    pub(crate) pos: Pos,
}

impl RawError {
    pub(crate) fn new(kind: ErrorKind, pos: Pos) -> Self {
        Self { kind, pos }
    }

    pub(crate) fn syntax(msg: impl Into<String>, pos: Pos) -> Self {
        Self::new(ErrorKind::Syntax(msg.into()), pos)
    }

    pub(crate) fn semantic(msg: impl Into<String>, pos: Pos) -> Self {
        Self::new(ErrorKind::Semantic(msg.into()), pos)
    }
}

/// The source text and file name, kept to turn byte offsets into locations.
#[derive(Clone, Debug)]
pub(crate) struct SourceMap {
    pub(crate) file: String,
    pub(crate) source: std::sync::Arc<str>,
}

impl SourceMap {
    pub(crate) fn locate(&self, pos: Pos) -> Location {
        let pos = (pos as usize).min(self.source.len());
        let before = &self.source[..pos];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let line_end = self.source[pos..]
            .find('\n')
            .map_or(self.source.len(), |i| pos + i);
        let line_text = self.source[line_start..line_end]
            .trim_end_matches('\r')
            .to_string();
        Location {
            file: self.file.clone(),
            line: before.matches('\n').count() + 1,
            column: self.source[line_start..pos].chars().count() + 1,
            line_text,
        }
    }

    pub(crate) fn error(&self, raw: RawError) -> FspError {
        FspError {
            kind: raw.kind,
            location: Some(Box::new(self.locate(raw.pos))),
        }
    }

    pub(crate) fn warning(&self, message: String, pos: Pos) -> Warning {
        Warning {
            message,
            location: self.locate(pos),
        }
    }
}
