//! Reading and writing LTSs: Aldebaran `.aut`, DOT, JSON.
//!
//! - [`aut`]: the Aldebaran format of CADP, mCRL2 and LTSA exports — read and write. It is the
//!   interchange format with other tools, so the reader is lenient about layout (whitespace, CRLF,
//!   quoted or bare labels, LTSA's `-1` error state) and strict about content (counts, state ranges,
//!   overflow), and it is fast: a hand-written byte scanner, no regex, no per-line allocation.
//! - [`dot`]: Graphviz output for humans (write only).
//! - [`json`] (feature `serde`): a documented JSON shape that keeps everything an [`Lts`](crate::Lts)
//!   carries, including actions offered nowhere, the error state and accepting states.
//!
//! The formats themselves are described in `docs/formats.md` at the root of the repository.
//!
//! Every text format reports malformed input with the one [`ParseError`] type defined here: a
//! message, a 1-based line and column, the offending line's text, and optionally the file name.
//! Its `Display` looks like a compiler diagnostic, with a caret under the column:
//!
//! ```text
//! model.aut:3:3: error: expected ',' after the source state
//!   |
//! 3 | (0 a,1)
//!   |   ^
//! ```
//!
//! The type is public and has a public constructor so that other front ends (the FSP parser) can
//! report errors the same way.

pub mod aut;
pub mod dot;
#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
pub mod json;

use std::fmt;
use std::path::{Path, PathBuf};

/// How many characters of a long line a [`ParseError`] keeps on each side of the column.
const CONTEXT_CHARS: usize = 60;

/// The broad category of a [`ParseError`]; the message says the details.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The input does not follow the grammar (a missing token, an unexpected character, ...).
    Syntax,
    /// The input is not valid UTF-8.
    InvalidUtf8,
    /// A number does not fit the type it must be stored in.
    NumberOverflow,
    /// A state number is outside the declared range of states.
    StateOutOfRange,
    /// A declared count (of transitions, say) disagrees with the contents.
    CountMismatch,
    /// The input is well-formed but exceeds a configured limit (such as a maximum number of states).
    Limit,
    /// The input is well-formed text but does not describe a valid LTS.
    Invalid,
}

/// A malformed input, located by line and column, with the offending line's text.
///
/// Lines and columns are 1-based; the column counts characters, not bytes, so the caret of the
/// `Display` output lines up under non-ASCII text. See the [module documentation](self) for the
/// `Display` format.
///
/// ```
/// use guarantor_lts::io::{ParseError, ParseErrorKind};
/// let err = ParseError::new(ParseErrorKind::Syntax, "expected ')'", 2, 5, "(0,a,1")
///     .with_file("m.aut");
/// assert_eq!(err.to_string(), "m.aut:2:5: error: expected ')'\n  |\n2 | (0,a,1\n  |     ^");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct ParseError {
    kind: ParseErrorKind,
    message: String,
    file: Option<PathBuf>,
    line: usize,
    column: usize,
    line_text: String,
    /// The column within `line_text` (differs from `column` when a long line was shortened).
    text_column: usize,
}

impl ParseError {
    /// A new error at `line` and `column` (both 1-based; 0 is read as 1) of a line whose text is
    /// `line_text` (without its line break). Very long lines are shortened around the column.
    pub fn new(
        kind: ParseErrorKind,
        message: impl Into<String>,
        line: usize,
        column: usize,
        line_text: &str,
    ) -> Self {
        let column = column.max(1);
        let (line_text, text_column) = shorten_around(line_text, column);
        Self {
            kind,
            message: message.into(),
            file: None,
            line: line.max(1),
            column,
            line_text,
            text_column,
        }
    }

    /// Sets the name of the file the input came from (shown before the line number).
    #[must_use]
    pub fn with_file(mut self, file: impl Into<PathBuf>) -> Self {
        self.file = Some(file.into());
        self
    }

    /// The category of the error.
    pub fn kind(&self) -> ParseErrorKind {
        self.kind
    }

    /// The message, without location.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The file name, if one was set.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The 1-based line number.
    pub fn line(&self) -> usize {
        self.line
    }

    /// The 1-based column, in characters.
    pub fn column(&self) -> usize {
        self.column
    }

    /// The text of the offending line (shortened around the column if it is very long).
    pub fn line_text(&self) -> &str {
        &self.line_text
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{}:", file.display())?;
        }
        writeln!(f, "{}:{}: error: {}", self.line, self.column, self.message)?;
        let number = self.line.to_string();
        let gutter = " ".repeat(number.len());
        writeln!(f, "{gutter} |")?;
        writeln!(f, "{number} | {}", self.line_text)?;
        write!(f, "{gutter} | ")?;
        // Tabs before the column are copied so the caret lines up however the terminal shows them.
        for c in self.line_text.chars().take(self.text_column - 1) {
            f.write_str(if c == '\t' { "\t" } else { " " })?;
        }
        f.write_str("^")
    }
}

/// Returns the line text to keep and the column within it. Control characters are replaced so that
/// the rendered diagnostic stays on its lines.
fn shorten_around(text: &str, column: usize) -> (String, usize) {
    let clean = |c: char| {
        if c.is_control() && c != '\t' {
            '\u{fffd}'
        } else {
            c
        }
    };
    let first = column.saturating_sub(CONTEXT_CHARS + 1);
    let mut kept: String = text
        .chars()
        .skip(first)
        .take(2 * CONTEXT_CHARS)
        .map(clean)
        .collect();
    let mut text_column = column - first;
    if first > 0 {
        kept.insert_str(0, "...");
        text_column += 3;
    }
    if text.chars().count() > first + 2 * CONTEXT_CHARS {
        kept.push_str("...");
    }
    (kept, text_column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caret_is_under_the_column() {
        let err = ParseError::new(ParseErrorKind::Syntax, "bad", 12, 3, "abcdef");
        assert_eq!(
            err.to_string(),
            "12:3: error: bad\n   |\n12 | abcdef\n   |   ^"
        );
    }

    #[test]
    fn caret_past_the_end_points_after_the_text() {
        let err = ParseError::new(ParseErrorKind::Syntax, "truncated", 1, 4, "abc");
        assert!(err.to_string().ends_with("1 | abc\n  |    ^"));
    }

    #[test]
    fn long_lines_are_shortened_and_the_caret_follows() {
        let text: String = (0u8..26)
            .cycle()
            .take(500)
            .map(|i| char::from(b'a' + i))
            .collect();
        let err = ParseError::new(ParseErrorKind::Syntax, "x", 1, 300, &text);
        assert!(err.line_text().starts_with("...") && err.line_text().ends_with("..."));
        let expected = text.chars().nth(299).unwrap();
        assert_eq!(
            err.line_text().chars().nth(err.text_column - 1),
            Some(expected)
        );
        assert_eq!(err.column(), 300);
    }

    #[test]
    fn tabs_are_kept_before_the_caret() {
        let err = ParseError::new(ParseErrorKind::Syntax, "x", 1, 3, "\t\tz");
        assert!(err.to_string().ends_with("| \t\t^"));
    }
}
