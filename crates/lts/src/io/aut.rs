//! The Aldebaran `.aut` format (CADP, mCRL2, LTSA exports): reading and writing.
//!
//! A file is a header `des (initial, transitions, states)` followed by one line per transition,
//! `(from, label, to)`. States are numbered `0..states`.
//!
//! ## Reading
//! - Whitespace (spaces, tabs) is allowed around every token, blank lines anywhere, CRLF line ends,
//!   and a UTF-8 byte-order mark at the start.
//! - A label is either *quoted*, `"a b,c"`, in which `\"` stands for `"`, `\\` for `\`, `\n` and `\r`
//!   for line breaks (any other backslash is kept as it is), or *bare*. A bare label is everything
//!   between the comma after the source state and the **last** comma of the line, trimmed: mCRL2
//!   writes data-carrying actions such as `a(1,2)` bare, and their commas must not end the label. A
//!   bare label may not be empty, may not contain `"` or control characters, and its parentheses
//!   must balance — which catches two transitions written on one line, `(0,a,1) (1,b,0)`, that the
//!   last-comma rule would otherwise read as one transition labelled `a,1) (1,b`.
//! - The label `tau` (quoted or not) is the internal action [`ActionId::TAU`]; `i` (CADP's internal
//!   action) is an ordinary visible action here.
//! - The state `-1` is LTSA's `ERROR` state. LTSA does not count it in the header, so it is read as a
//!   fresh state appended after the declared ones and marked with
//!   [`LtsBuilder::set_error`](crate::LtsBuilder::set_error) — unless [`AutReadOptions::error_state`]
//!   names the error state, in which case `-1` refers to that state. `-1` may also be the initial
//!   state.
//! - Validation: the header must come first and be well-formed; the number of transition lines must
//!   equal the header's count (the error points at the header, or at the first extra line; see
//!   [`AutReadOptions::check_transition_count`] to relax this); every state number must be below
//!   the declared count (or be `-1`); numbers too large for their type are errors, not wrap-arounds;
//!   the header's state count is limited by [`AutReadOptions::max_states`] so that a 20-byte file
//!   cannot ask for gigabytes. Every error carries a line and a column ([`ParseError`]).
//! - The alphabet of the result is the set of labels that occur, in order of first occurrence: `.aut`
//!   cannot declare an action that labels no transition. Duplicate transitions are merged (so the
//!   LTS may have fewer transitions than the header counts).
//!
//! ## Writing
//! - Labels are always written quoted, as mCRL2 does, escaping `"`, `\` and line breaks; tau is
//!   written as the bare word `tau`. Every label therefore reads back as the same string.
//! - Transitions are written by source state, in the order of [`Lts::outgoing`].
//! - The error state is written, by default ([`ErrorStateStyle::LastState`]), as an ordinary state
//!   number — the last one, so it is counted in the header — because mCRL2 and CADP reject `-1`.
//!   States after it move down by one. The file then does not say which state is the error state:
//!   read it back with [`AutReadOptions::error_state`] set to `states - 1` to restore the marking.
//!   With [`ErrorStateStyle::MinusOne`] the error state is written as LTSA's `-1` and not counted in
//!   the header; that round-trips without help, except that an error state with no transitions that
//!   is not initial cannot be expressed (no line mentions it) and is dropped.
//! - Accepting states and actions that label no transition are not expressible and are lost.
//!
//! Round trip: reading what [`write_aut`] wrote (with the matching read option for the default style)
//! gives the same number of states, initial state, error state and set of transitions by label name,
//! with the error state renumbered to the last state.
//!
//! ```
//! use guarantor_lts::io::aut::{parse_aut, to_aut_string, AutWriteOptions};
//! let lts = parse_aut("des (0, 3, 2)\n(0, \"send msg\", 1)\n(1, ack(1,2), 0)\n(1, tau, 1)\n")?;
//! assert_eq!(lts.num_states(), 2);
//! assert!(lts.alphabet().contains("ack(1,2)"));
//! assert!(lts.has_tau());
//! let text = to_aut_string(&lts, &AutWriteOptions::default());
//! assert!(text.starts_with("des (0, 3, 2)\n(0, \"send msg\", 1)\n"));
//! # Ok::<(), guarantor_lts::io::ParseError>(())
//! ```

use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use crate::builder::LtsBuilder;
use crate::id::{ActionId, StateId};
use crate::io::{ParseError, ParseErrorKind};
use crate::lts::Lts;

/// The text of the header, for messages.
const HEADER_SHAPE: &str = "the header `des (initial, transitions, states)`";

/// Options for reading `.aut` files. Build with [`Default`] and the setters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct AutReadOptions {
    /// The state to mark as the error state, for files written with
    /// [`ErrorStateStyle::LastState`]. `-1` in the file then refers to this state too.
    /// \[default: `None` — only `-1` makes an error state\]
    pub error_state: Option<u32>,
    /// Whether a transition count that differs from the header's is an error.
    /// \[default: `true`\]
    pub check_transition_count: bool,
    /// The largest state count a header may declare; larger headers are an error of kind
    /// [`ParseErrorKind::Limit`]. \[default: 2^26 = 67,108,864\]
    pub max_states: usize,
}

impl Default for AutReadOptions {
    fn default() -> Self {
        Self {
            error_state: None,
            check_transition_count: true,
            max_states: 1 << 26,
        }
    }
}

impl AutReadOptions {
    /// Sets [`Self::error_state`].
    #[must_use]
    pub fn with_error_state(mut self, state: Option<u32>) -> Self {
        self.error_state = state;
        self
    }

    /// Sets [`Self::check_transition_count`].
    #[must_use]
    pub fn with_check_transition_count(mut self, check: bool) -> Self {
        self.check_transition_count = check;
        self
    }

    /// Sets [`Self::max_states`].
    #[must_use]
    pub fn with_max_states(mut self, max: usize) -> Self {
        self.max_states = max;
        self
    }
}

/// How [`write_aut`] writes the error state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorStateStyle {
    /// As the last ordinary state number, counted in the header (mCRL2- and CADP-compatible).
    #[default]
    LastState,
    /// As LTSA's `-1`, not counted in the header.
    MinusOne,
}

/// Options for writing `.aut` files. Build with [`Default`] and the setters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct AutWriteOptions {
    /// How to write the error state. \[default: [`ErrorStateStyle::LastState`]\]
    pub error_style: ErrorStateStyle,
}

impl AutWriteOptions {
    /// Sets [`Self::error_style`].
    #[must_use]
    pub fn with_error_style(mut self, style: ErrorStateStyle) -> Self {
        self.error_style = style;
        self
    }
}

/// An error reading a `.aut` file: the file could not be read, or its contents are malformed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AutFileError {
    /// The file could not be opened or read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
    /// The file was read but is not a valid `.aut` file (the error names the file).
    #[error(transparent)]
    Parse(#[from] ParseError),
}

/// Parses `.aut` text with the default options.
///
/// # Errors
/// A [`ParseError`] with line and column if the text is malformed; see the
/// [module documentation](self) for what is checked.
pub fn parse_aut(text: &str) -> Result<Lts, ParseError> {
    parse_aut_with(text, &AutReadOptions::default())
}

/// Parses `.aut` text with the given options.
///
/// # Errors
/// As [`parse_aut`].
pub fn parse_aut_with(text: &str, opts: &AutReadOptions) -> Result<Lts, ParseError> {
    Parser::new(text.as_bytes(), opts).run()
}

/// Parses `.aut` input given as bytes; invalid UTF-8 is an error located by line and column.
///
/// # Errors
/// As [`parse_aut`], plus [`ParseErrorKind::InvalidUtf8`].
pub fn parse_aut_bytes(bytes: &[u8], opts: &AutReadOptions) -> Result<Lts, ParseError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse_aut_with(text, opts),
        Err(e) => Err(utf8_error(bytes, e.valid_up_to())),
    }
}

/// Reads a `.aut` file with the default options.
///
/// # Errors
/// [`AutFileError::Io`] if the file cannot be read; [`AutFileError::Parse`], with the file name set,
/// if it is malformed.
pub fn read_aut_file(path: &Path) -> Result<Lts, AutFileError> {
    read_aut_file_with(path, &AutReadOptions::default())
}

/// Reads a `.aut` file with the given options.
///
/// # Errors
/// As [`read_aut_file`].
pub fn read_aut_file_with(path: &Path, opts: &AutReadOptions) -> Result<Lts, AutFileError> {
    let io_error = |source| AutFileError::Io {
        path: path.to_path_buf(),
        source,
    };
    let bytes = std::fs::read(path).map_err(io_error)?;
    parse_aut_bytes(&bytes, opts).map_err(|e| AutFileError::Parse(e.with_file(path)))
}

/// Reads `.aut` input from a reader (all of it, then parses).
///
/// # Errors
/// [`AutFileError::Io`] (with the path `<reader>`) if reading fails; [`AutFileError::Parse`] if the
/// input is malformed.
pub fn read_aut<R: Read>(mut reader: R, opts: &AutReadOptions) -> Result<Lts, AutFileError> {
    let mut bytes = Vec::new();
    reader
        .read_to_end(&mut bytes)
        .map_err(|source| AutFileError::Io {
            path: PathBuf::from("<reader>"),
            source,
        })?;
    Ok(parse_aut_bytes(&bytes, opts)?)
}

/// The error for invalid UTF-8 at byte offset `valid_up_to`.
fn utf8_error(bytes: &[u8], valid_up_to: usize) -> ParseError {
    let line_start = bytes[..valid_up_to]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line_no = bytes[..line_start].split(|&b| b == b'\n').count();
    let line_end = bytes[line_start..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |i| line_start + i);
    let prefix = String::from_utf8_lossy(&bytes[line_start..valid_up_to]);
    let text = String::from_utf8_lossy(&bytes[line_start..line_end]);
    let text = text.trim_end_matches('\r');
    ParseError::new(
        ParseErrorKind::InvalidUtf8,
        "invalid UTF-8",
        line_no,
        prefix.chars().count() + 1,
        text,
    )
}

/// A state reference as written in a file: a number, or LTSA's `-1`.
#[derive(Clone, Copy)]
enum StateRef {
    Number(u64),
    MinusOne,
}

/// Where the header was, to point at it in errors found later.
struct HeaderInfo {
    line_no: usize,
    text: String,
    transitions: usize,
    transitions_col: usize,
    states: usize,
}

/// The cursor over one line, with the line's number for errors.
struct Line<'a> {
    bytes: &'a [u8],
    pos: usize,
    no: usize,
}

impl Line<'_> {
    /// An error at byte offset `at` of this line.
    fn error_at(&self, at: usize, kind: ParseErrorKind, message: impl Into<String>) -> ParseError {
        let at = at.min(self.bytes.len());
        let column = String::from_utf8_lossy(&self.bytes[..at]).chars().count() + 1;
        ParseError::new(
            kind,
            message,
            self.no,
            column,
            &String::from_utf8_lossy(self.bytes),
        )
    }

    /// A syntax error at the cursor.
    fn syntax(&self, message: impl Into<String>) -> ParseError {
        self.error_at(self.pos, ParseErrorKind::Syntax, message)
    }

    fn skip_ws(&mut self) {
        while self.pos < self.bytes.len() && is_ws(self.bytes[self.pos]) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// Skips whitespace, then consumes `byte` or fails with "expected `what`".
    fn expect(&mut self, byte: u8, what: &str) -> Result<(), ParseError> {
        self.skip_ws();
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.syntax(format!("expected {what}{}", self.found())))
        }
    }

    /// ", found X" describing the byte at the cursor, for messages.
    fn found(&self) -> String {
        if self.pos >= self.bytes.len() {
            return ", found the end of the line".to_owned();
        }
        let rest = String::from_utf8_lossy(&self.bytes[self.pos..]);
        let c = rest.chars().next().unwrap_or('\u{fffd}');
        format!(", found {c:?}")
    }

    /// Skips whitespace and reads an unsigned decimal number, with its starting offset.
    fn number(&mut self, what: &str) -> Result<(u64, usize), ParseError> {
        self.skip_ws();
        let start = self.pos;
        let mut value: u64 = 0;
        while let Some(d @ b'0'..=b'9') = self.peek() {
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(d - b'0')))
                .ok_or_else(|| {
                    self.error_at(
                        start,
                        ParseErrorKind::NumberOverflow,
                        format!("{what} is too large"),
                    )
                })?;
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.syntax(format!("expected {what}{}", self.found())));
        }
        Ok((value, start))
    }

    /// Reads a state number or `-1`, with its starting offset.
    fn state_ref(&mut self, what: &str) -> Result<(StateRef, usize), ParseError> {
        self.skip_ws();
        if self.peek() != Some(b'-') {
            return self.number(what).map(|(n, at)| (StateRef::Number(n), at));
        }
        let start = self.pos;
        self.pos += 1;
        let (n, _) = self.number(what)?;
        if n == 1 {
            Ok((StateRef::MinusOne, start))
        } else {
            Err(self.error_at(
                start,
                ParseErrorKind::StateOutOfRange,
                format!("{what} is negative; only -1 (LTSA's ERROR state) is allowed"),
            ))
        }
    }

    /// Skips whitespace and fails unless the line ends here.
    fn expect_end(&mut self, after: &str) -> Result<(), ParseError> {
        self.skip_ws();
        if self.pos == self.bytes.len() {
            Ok(())
        } else {
            Err(self.syntax(format!("unexpected text after {after}")))
        }
    }
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r')
}

/// The `.aut` reader: one pass over the lines, straight into an [`LtsBuilder`].
struct Parser<'a, 'o> {
    rest: &'a [u8],
    line_no: usize,
    opts: &'o AutReadOptions,
    builder: LtsBuilder,
    /// The error state, once `-1` or the options have fixed it.
    error: Option<StateId>,
    /// Reused buffer for quoted labels with escapes.
    label_buf: String,
}

impl<'a, 'o> Parser<'a, 'o> {
    fn new(text: &'a [u8], opts: &'o AutReadOptions) -> Self {
        let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
        Self {
            rest: text,
            line_no: 0,
            opts,
            builder: LtsBuilder::new(),
            error: None,
            label_buf: String::new(),
        }
    }

    /// The next non-blank line, without its line break.
    fn next_line(&mut self) -> Option<Line<'a>> {
        while !self.rest.is_empty() {
            let end = self
                .rest
                .iter()
                .position(|&b| b == b'\n')
                .unwrap_or(self.rest.len());
            let bytes = &self.rest[..end];
            self.rest = &self.rest[(end + 1).min(self.rest.len())..];
            self.line_no += 1;
            let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
            if !bytes.iter().all(|&b| is_ws(b)) {
                return Some(Line {
                    bytes,
                    pos: 0,
                    no: self.line_no,
                });
            }
        }
        None
    }

    fn run(mut self) -> Result<Lts, ParseError> {
        let Some(line) = self.next_line() else {
            let at = self.line_no.max(1);
            return Err(ParseError::new(
                ParseErrorKind::Syntax,
                format!("empty input: expected {HEADER_SHAPE}"),
                at,
                1,
                "",
            ));
        };
        let header = self.header(line)?;
        let mut count = 0usize;
        while let Some(mut line) = self.next_line() {
            if self.opts.check_transition_count && count == header.transitions {
                return Err(Self::extra_line(&mut line, &header));
            }
            self.transition(&mut line, header.states)?;
            count += 1;
        }
        if self.opts.check_transition_count && count != header.transitions {
            return Err(header_error(
                &header,
                header.transitions_col,
                ParseErrorKind::CountMismatch,
                format!(
                    "the header declares {} transitions but the file has {count}",
                    header.transitions
                ),
            ));
        }
        if let Some(e) = self.error {
            self.builder
                .set_error(e)
                .map_err(|e| header_error(&header, 1, ParseErrorKind::Invalid, e.to_string()))?;
        }
        self.builder
            .build()
            .map_err(|e| header_error(&header, 1, ParseErrorKind::Invalid, e.to_string()))
    }

    /// The error for a line after the declared number of transitions.
    fn extra_line(line: &mut Line<'_>, header: &HeaderInfo) -> ParseError {
        line.skip_ws();
        let is_header = line.bytes[line.pos..].starts_with(b"des");
        let message = if is_header {
            format!(
                "duplicate header (the header is on line {})",
                header.line_no
            )
        } else {
            format!(
                "more transitions than the {} declared by the header on line {}",
                header.transitions, header.line_no
            )
        };
        line.error_at(line.pos, ParseErrorKind::CountMismatch, message)
    }

    /// Parses `des (initial, transitions, states)` and sets up the states.
    fn header(&mut self, mut line: Line<'_>) -> Result<HeaderInfo, ParseError> {
        line.skip_ws();
        if !line.bytes[line.pos..].starts_with(b"des") {
            return Err(line.syntax(format!("expected {HEADER_SHAPE}")));
        }
        line.pos += 3;
        line.expect(b'(', "'(' after `des`")?;
        let (initial, initial_col) = line.state_ref("the initial state")?;
        line.expect(b',', "',' after the initial state")?;
        let (transitions, transitions_col) = line.number("the number of transitions")?;
        line.expect(b',', "',' after the number of transitions")?;
        let (states, states_col) = line.number("the number of states")?;
        line.expect(b')', "')' at the end of the header")?;
        line.expect_end("the header")?;
        let transitions = usize::try_from(transitions).map_err(|_| {
            line.error_at(
                transitions_col,
                ParseErrorKind::NumberOverflow,
                "the number of transitions is too large",
            )
        })?;
        let states = self.declared_states(&line, states, states_col)?;
        self.builder
            .ensure_states(states)
            .map_err(|e| line.error_at(states_col, ParseErrorKind::Limit, e.to_string()))?;
        if let Some(e) = self.opts.error_state {
            if e as usize >= states {
                return Err(line.error_at(
                    states_col,
                    ParseErrorKind::Invalid,
                    format!("the error state {e} given in the options is not one of the {states} declared states"),
                ));
            }
            self.error = Some(StateId::from_u32(e));
        }
        let initial = self.resolve(&line, initial, initial_col, states)?;
        self.builder.set_initial(initial).map_err(|e| {
            line.error_at(initial_col, ParseErrorKind::StateOutOfRange, e.to_string())
        })?;
        let header_col = |at: usize| String::from_utf8_lossy(&line.bytes[..at]).chars().count() + 1;
        Ok(HeaderInfo {
            line_no: line.no,
            text: String::from_utf8_lossy(line.bytes).into_owned(),
            transitions,
            transitions_col: header_col(transitions_col),
            states,
        })
    }

    /// Checks the declared number of states against the limits.
    fn declared_states(
        &self,
        line: &Line<'_>,
        states: u64,
        at: usize,
    ) -> Result<usize, ParseError> {
        // One id is kept free for a `-1` error state appended after the declared ones.
        let fits = usize::try_from(states).ok().filter(|&n| n < StateId::LIMIT);
        let Some(states) = fits else {
            return Err(line.error_at(
                at,
                ParseErrorKind::NumberOverflow,
                format!("{states} states do not fit in 32-bit state ids"),
            ));
        };
        if states > self.opts.max_states {
            return Err(line.error_at(
                at,
                ParseErrorKind::Limit,
                format!(
                    "{states} states exceed the limit of {} (see AutReadOptions::max_states)",
                    self.opts.max_states
                ),
            ));
        }
        Ok(states)
    }

    /// Turns a state reference into a state, appending the error state on the first `-1`.
    fn resolve(
        &mut self,
        line: &Line<'_>,
        r: StateRef,
        at: usize,
        states: usize,
    ) -> Result<StateId, ParseError> {
        match r {
            StateRef::Number(n) => {
                let Ok(n32) = u32::try_from(n) else {
                    return Err(line.error_at(
                        at,
                        ParseErrorKind::NumberOverflow,
                        format!("state number {n} does not fit in 32 bits"),
                    ));
                };
                if (n32 as usize) < states {
                    Ok(StateId::from_u32(n32))
                } else {
                    Err(line.error_at(
                        at,
                        ParseErrorKind::StateOutOfRange,
                        format!("state {n} is out of range: the header declares {states} states (0..{states})"),
                    ))
                }
            }
            StateRef::MinusOne => {
                if let Some(e) = self.error {
                    return Ok(e);
                }
                // `states < StateId::LIMIT` was checked with the header, so this cannot overflow.
                let e = StateId::must(states);
                self.builder
                    .ensure_states(states + 1)
                    .map_err(|err| line.error_at(at, ParseErrorKind::Limit, err.to_string()))?;
                self.error = Some(e);
                Ok(e)
            }
        }
    }

    /// Parses one `(from, label, to)` line into the builder.
    fn transition(&mut self, line: &mut Line<'_>, states: usize) -> Result<(), ParseError> {
        line.expect(b'(', "'(' at the start of a transition")?;
        let (from, from_at) = line.state_ref("the source state")?;
        line.expect(b',', "',' after the source state")?;
        let from = self.resolve(line, from, from_at, states)?;
        line.skip_ws();
        let label_at = line.pos;
        let action = if line.peek() == Some(b'"') {
            let label = quoted_label(line, &mut self.label_buf)?;
            line.expect(b',', "',' after the label")?;
            self.builder.action(label)
        } else {
            let label = bare_label(line)?;
            self.builder.action(label)
        }
        .map_err(|e| line.error_at(label_at, ParseErrorKind::Limit, e.to_string()))?;
        let (to, to_at) = line.state_ref("the target state")?;
        let to = self.resolve(line, to, to_at, states)?;
        line.expect(b')', "')' at the end of the transition")?;
        line.expect_end("the transition")?;
        self.builder
            .add_transition(from, action, to)
            .map_err(|e| line.error_at(0, ParseErrorKind::Invalid, e.to_string()))
    }
}

/// An error on the header line, at 1-based character column `column`.
fn header_error(
    header: &HeaderInfo,
    column: usize,
    kind: ParseErrorKind,
    message: String,
) -> ParseError {
    ParseError::new(kind, message, header.line_no, column, &header.text)
}

/// Reads a quoted label at the cursor (which is on the opening quote), decoding escapes into `buf`
/// only when there are any.
fn quoted_label<'l: 'b, 'b>(
    line: &mut Line<'l>,
    buf: &'b mut String,
) -> Result<&'b str, ParseError> {
    let open = line.pos;
    let body = &line.bytes[open + 1..];
    let Some(close) = find_closing_quote(body) else {
        return Err(line.error_at(open, ParseErrorKind::Syntax, "unterminated quoted label"));
    };
    line.pos = open + 1 + close + 1;
    let raw = &body[..close];
    // The input is valid UTF-8 and quotes are ASCII, so the slice is on character boundaries.
    let raw = std::str::from_utf8(raw)
        .map_err(|_| line.error_at(open, ParseErrorKind::InvalidUtf8, "invalid UTF-8 in label"))?;
    if !raw.contains('\\') {
        return Ok(raw);
    }
    buf.clear();
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            buf.push(c);
            continue;
        }
        match chars.next() {
            Some('"') => buf.push('"'),
            Some('\\') | None => buf.push('\\'),
            Some('n') => buf.push('\n'),
            Some('r') => buf.push('\r'),
            Some(other) => {
                buf.push('\\');
                buf.push(other);
            }
        }
    }
    Ok(buf)
}

/// The offset of the first `"` in `body` that is not escaped by a backslash.
fn find_closing_quote(body: &[u8]) -> Option<usize> {
    let mut i = 0;
    while i < body.len() {
        match body[i] {
            b'\\' => i += 2,
            b'"' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// Fails unless the parentheses of the bare label `raw` (at byte offset `start`) balance.
fn check_parentheses(line: &Line<'_>, start: usize, raw: &[u8]) -> Result<(), ParseError> {
    let mut depth = 0usize;
    for (i, &b) in raw.iter().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' if depth == 0 => {
                return Err(line.error_at(
                    start + i,
                    ParseErrorKind::Syntax,
                    "unbalanced ')' in a bare label (two transitions on one line?)",
                ));
            }
            b')' => depth -= 1,
            _ => {}
        }
    }
    if depth == 0 {
        Ok(())
    } else {
        Err(line.error_at(
            start,
            ParseErrorKind::Syntax,
            "unbalanced '(' in a bare label",
        ))
    }
}

/// Reads a bare label: from the cursor to the last comma of the line, trimmed. Leaves the cursor
/// after that comma.
fn bare_label<'l>(line: &mut Line<'l>) -> Result<&'l str, ParseError> {
    let start = line.pos;
    let bytes: &'l [u8] = line.bytes;
    let comma = bytes[start..]
        .iter()
        .rposition(|&b| b == b',')
        .map(|i| start + i);
    let Some(comma) = comma else {
        let at = bytes[start..]
            .iter()
            .position(|&b| b == b')')
            .map_or(bytes.len(), |i| start + i);
        return Err(line.error_at(
            at,
            ParseErrorKind::Syntax,
            "expected ',' between the label and the target state",
        ));
    };
    let raw = &bytes[start..comma];
    let end = raw.iter().rposition(|&b| !is_ws(b)).map_or(0, |i| i + 1);
    let raw = &raw[..end];
    if raw.is_empty() {
        return Err(line.error_at(start, ParseErrorKind::Syntax, "empty label"));
    }
    if let Some(i) = raw
        .iter()
        .position(|&b| b == b'"' || b.is_ascii_control() && b != b'\t')
    {
        let message = if raw[i] == b'"' {
            "a bare label cannot contain '\"'; quote the whole label"
        } else {
            "control character in a bare label"
        };
        return Err(line.error_at(start + i, ParseErrorKind::Syntax, message));
    }
    check_parentheses(line, start, raw)?;
    line.pos = comma + 1;
    std::str::from_utf8(raw)
        .map_err(|_| line.error_at(start, ParseErrorKind::InvalidUtf8, "invalid UTF-8 in label"))
}

/// Writes `lts` in `.aut` format; see the [module documentation](self) for the conventions.
///
/// # Errors
/// Only errors of the writer `w`.
pub fn write_aut<W: Write>(lts: &Lts, w: W, opts: &AutWriteOptions) -> io::Result<()> {
    let numbering = Numbering::new(lts, opts.error_style);
    let mut w = BufWriter::new(w);
    writeln!(
        w,
        "des ({}, {}, {})",
        numbering.get(lts.initial()),
        lts.num_transitions(),
        numbering.header_states
    )?;
    for s in lts.states() {
        let from = numbering.get(s);
        for e in lts.outgoing(s) {
            write!(w, "({from}, ")?;
            write_label(&mut w, e.action, lts)?;
            writeln!(w, ", {})", numbering.get(e.target))?;
        }
    }
    w.flush()
}

/// Writes `lts` in `.aut` format into a string.
pub fn to_aut_string(lts: &Lts, opts: &AutWriteOptions) -> String {
    let mut buf = Vec::new();
    // Writing into a Vec cannot fail, and every label is UTF-8, so neither fallback is ever taken.
    if write_aut(lts, &mut buf, opts).is_err() {
        buf.clear();
    }
    String::from_utf8(buf).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Writes `tau` bare and every other label quoted with escapes.
fn write_label<W: Write>(w: &mut W, a: ActionId, lts: &Lts) -> io::Result<()> {
    if a.is_tau() {
        return w.write_all(b"tau");
    }
    let name = lts.action_name(a);
    w.write_all(b"\"")?;
    let mut last = 0;
    for (i, b) in name.bytes().enumerate() {
        let escape: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            _ => continue,
        };
        w.write_all(&name.as_bytes()[last..i])?;
        w.write_all(escape)?;
        last = i + 1;
    }
    w.write_all(&name.as_bytes()[last..])?;
    w.write_all(b"\"")
}

/// The state numbers written to the file: the error state moves to the end (or becomes `-1`).
struct Numbering {
    error: Option<u32>,
    style: ErrorStateStyle,
    /// The state count written in the header (state counts fit in `u32`: ids are 32-bit).
    header_states: u32,
}

impl Numbering {
    fn new(lts: &Lts, style: ErrorStateStyle) -> Self {
        let error = lts.error_state().map(StateId::as_u32);
        let n = lts.num_states() as u32;
        let header_states = match (error, style) {
            (Some(_), ErrorStateStyle::MinusOne) => n - 1,
            _ => n,
        };
        Self {
            error,
            style,
            header_states,
        }
    }

    fn get(&self, s: StateId) -> i64 {
        let s = s.as_u32();
        match self.error {
            Some(e) if s == e => match self.style {
                ErrorStateStyle::MinusOne => -1,
                ErrorStateStyle::LastState => i64::from(self.header_states) - 1,
            },
            Some(e) if s > e => i64::from(s) - 1,
            _ => i64::from(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> ParseError {
        parse_aut(text).unwrap_err()
    }

    #[test]
    fn bare_labels_run_to_the_last_comma() {
        let lts = parse_aut("des(0,1,2)\n(0, a(1, 2) ,1)").unwrap();
        assert!(lts.alphabet().contains("a(1, 2)"));
    }

    #[test]
    fn quoted_labels_keep_commas_and_decode_escapes() {
        let lts = parse_aut("des(0,2,2)\n(0,\"x,)y\",1)\n(1, \"q\\\"\\\\z\" , 0)").unwrap();
        assert!(lts.alphabet().contains("x,)y"));
        assert!(lts.alphabet().contains("q\"\\z"));
    }

    #[test]
    fn only_tau_is_internal() {
        let lts = parse_aut("des(0,2,1)\n(0,tau,0)\n(0,i,0)").unwrap();
        assert!(lts.has_tau());
        assert!(lts.alphabet().contains("i"));
    }

    #[test]
    fn minus_one_is_a_fresh_error_state() {
        let lts = parse_aut("des(0,2,2)\r\n(0,a,-1)\r\n(1,b,-1)\r\n").unwrap();
        assert_eq!(lts.num_states(), 3);
        assert_eq!(lts.error_state(), Some(StateId::must(2)));
    }

    #[test]
    fn minus_one_refers_to_the_optioned_error_state() {
        let opts = AutReadOptions::default().with_error_state(Some(1));
        let lts = parse_aut_with("des(0,1,2)\n(0,a,-1)", &opts).unwrap();
        assert_eq!(lts.num_states(), 2);
        assert_eq!(lts.error_state(), Some(StateId::must(1)));
        assert_eq!(
            lts.successors(StateId::must(0), ActionId::must(1)).next(),
            Some(StateId::must(1))
        );
    }

    #[test]
    fn errors_are_located() {
        let e = err("des (0, 1, 2)\n(0 a, 1)");
        assert_eq!((e.line(), e.column()), (2, 4));
        let e = err("des (0, 1, 2)\n(0, a, 2)");
        assert_eq!(
            (e.line(), e.column(), e.kind()),
            (2, 8, ParseErrorKind::StateOutOfRange)
        );
        let e = err("des (0, 2, 2)\n(0, a, 1)");
        assert_eq!(
            (e.line(), e.column(), e.kind()),
            (1, 9, ParseErrorKind::CountMismatch)
        );
    }

    #[test]
    fn minus_one_style_round_trips_the_error_state() {
        let lts = parse_aut("des(0,2,2)\n(0,a,-1)\n(1,b,0)").unwrap();
        let opts = AutWriteOptions::default().with_error_style(ErrorStateStyle::MinusOne);
        let text = to_aut_string(&lts, &opts);
        assert_eq!(text, "des (0, 2, 2)\n(0, \"a\", -1)\n(1, \"b\", 0)\n");
        assert_eq!(parse_aut(&text).unwrap(), lts);
    }

    #[test]
    fn last_state_style_moves_the_error_state_to_the_end() {
        let mut b = LtsBuilder::new();
        b.ensure_states(3).unwrap();
        b.add_transition_named(StateId::must(2), "a", StateId::must(0))
            .unwrap();
        b.set_error(StateId::must(0)).unwrap();
        b.set_initial(StateId::must(2)).unwrap();
        let text = to_aut_string(&b.build().unwrap(), &AutWriteOptions::default());
        assert_eq!(text, "des (1, 1, 3)\n(1, \"a\", 2)\n");
    }
}
