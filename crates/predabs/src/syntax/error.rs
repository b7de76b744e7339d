//! [`SyntaxError`]: a located message in the usual compiler shape, `file:line:col: message`, then
//! the offending line and a caret under the column.

use std::fmt;

/// A syntax or semantic error in a guarded-command file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// The file name given to the parser.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub col: usize,
    /// What is wrong.
    pub message: String,
    /// The text of the offending line.
    pub line_text: String,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let gutter = self.line.to_string();
        let pad = " ".repeat(gutter.len());
        writeln!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.col, self.message
        )?;
        writeln!(f, "{pad} |")?;
        writeln!(f, "{gutter} | {}", self.line_text)?;
        write!(f, "{pad} | {}^", " ".repeat(self.col.saturating_sub(1)))
    }
}

impl std::error::Error for SyntaxError {}
