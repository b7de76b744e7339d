//! Mealy machines in the DOT format AALpy reads and writes: `s0 -> s1 [label="in/out"]` for a
//! transition, `__start0 -> s0` for the initial state, node statements (`s0 [label="s0"]`) ignored
//! beyond declaring the state. The reader takes the subset of DOT those files use (bare or quoted
//! ids, attribute lists, `;` or newlines between statements, `//` and `/* */` comments) and
//! reports anything else as a [`DotError`] with its line and column, never a panic.
//!
//! The reader also reads AALpy's DFA files (edges labelled by an input alone, accepting states
//! drawn `shape=doublecircle`) as a Mealy machine whose output on each transition is whether its
//! target accepts (`true`/`false`): learning that machine learns the DFA.

use std::fmt::Write as _;

use rustc_hash::FxHashMap;

use crate::mealy::machine::{Mealy, StateId};

/// A malformed DOT file: what is wrong and where (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
#[non_exhaustive]
pub struct DotError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// One token with its position.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    /// A bare or quoted id (quotes removed, escapes resolved).
    Id(String),
    /// One of `{ } [ ] = , ;` or `->`.
    Punct(&'static str),
}

#[derive(Clone, Copy, Debug)]
struct Pos {
    line: usize,
    column: usize,
}

fn err(pos: Pos, message: impl Into<String>) -> DotError {
    DotError {
        line: pos.line,
        column: pos.column,
        message: message.into(),
    }
}

/// Splits `text` into tokens.
fn lex(text: &str) -> Result<(Vec<(Tok, Pos)>, Pos), DotError> {
    let chars: Vec<char> = text.chars().collect();
    let (mut i, mut line, mut col) = (0, 1, 1);
    let mut out = Vec::new();
    let advance = |i: &mut usize, line: &mut usize, col: &mut usize, c: char| {
        *i += 1;
        if c == '\n' {
            *line += 1;
            *col = 1;
        } else {
            *col += 1;
        }
    };
    while i < chars.len() {
        let c = chars[i];
        let pos = Pos { line, column: col };
        if c.is_whitespace() {
            advance(&mut i, &mut line, &mut col, c);
        } else if c == '/' && chars.get(i + 1) == Some(&'/') || c == '#' && col == 1 {
            while i < chars.len() && chars[i] != '\n' {
                let d = chars[i];
                advance(&mut i, &mut line, &mut col, d);
            }
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            advance(&mut i, &mut line, &mut col, '/');
            advance(&mut i, &mut line, &mut col, '*');
            loop {
                match chars.get(i) {
                    None => return Err(err(pos, "unterminated comment")),
                    Some('*') if chars.get(i + 1) == Some(&'/') => {
                        advance(&mut i, &mut line, &mut col, '*');
                        advance(&mut i, &mut line, &mut col, '/');
                        break;
                    }
                    Some(&d) => advance(&mut i, &mut line, &mut col, d),
                }
            }
        } else if c == '"' {
            advance(&mut i, &mut line, &mut col, c);
            let mut s = String::new();
            loop {
                match chars.get(i) {
                    None => return Err(err(pos, "unterminated string")),
                    Some('"') => {
                        advance(&mut i, &mut line, &mut col, '"');
                        break;
                    }
                    Some('\\') if matches!(chars.get(i + 1), Some('"' | '\\')) => {
                        s.push(chars[i + 1]);
                        advance(&mut i, &mut line, &mut col, '\\');
                        let d = chars[i];
                        advance(&mut i, &mut line, &mut col, d);
                    }
                    Some(&d) => {
                        s.push(d);
                        advance(&mut i, &mut line, &mut col, d);
                    }
                }
            }
            out.push((Tok::Id(s), pos));
        } else if c == '-' && chars.get(i + 1) == Some(&'>') {
            advance(&mut i, &mut line, &mut col, '-');
            advance(&mut i, &mut line, &mut col, '>');
            out.push((Tok::Punct("->"), pos));
        } else if let Some(p) = ["{", "}", "[", "]", "=", ",", ";"]
            .iter()
            .find(|p| p.starts_with(c))
        {
            advance(&mut i, &mut line, &mut col, c);
            out.push((Tok::Punct(p), pos));
        } else if c.is_alphanumeric() || c == '_' || c == '.' {
            let mut s = String::new();
            while let Some(&d) = chars
                .get(i)
                .filter(|d| d.is_alphanumeric() || **d == '_' || **d == '.')
            {
                s.push(d);
                advance(&mut i, &mut line, &mut col, d);
            }
            out.push((Tok::Id(s), pos));
        } else {
            return Err(err(pos, format!("unexpected character {c:?}")));
        }
    }
    Ok((out, Pos { line, column: col }))
}

/// An edge: source, target, attributes, position of the source.
type Edge = (String, String, Vec<(String, String)>, Pos);

/// The statements of a graph: nodes with attributes and edges with attributes.
#[derive(Default)]
struct Graph {
    /// Node ids in order of first mention, with the position of that mention.
    nodes: Vec<(String, Pos)>,
    node_attrs: FxHashMap<String, Vec<(String, String)>>,
    edges: Vec<Edge>,
}

impl Graph {
    fn mention(&mut self, id: &str, pos: Pos) {
        if !self.node_attrs.contains_key(id) {
            self.node_attrs.insert(id.to_owned(), Vec::new());
            self.nodes.push((id.to_owned(), pos));
        }
    }
}

/// A cursor over the tokens.
struct Parser {
    toks: Vec<(Tok, Pos)>,
    at: usize,
    end: Pos,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at).map(|t| &t.0)
    }

    fn pos(&self) -> Pos {
        self.toks.get(self.at).map_or(self.end, |t| t.1)
    }

    fn eat(&mut self, p: &str) -> bool {
        if self.peek()
            == Some(&Tok::Punct(match p {
                "{" => "{",
                "}" => "}",
                "[" => "[",
                "]" => "]",
                "=" => "=",
                "," => ",",
                ";" => ";",
                _ => "->",
            }))
        {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, p: &str) -> Result<(), DotError> {
        if self.eat(p) {
            Ok(())
        } else {
            Err(err(self.pos(), format!("expected `{p}`")))
        }
    }

    fn id(&mut self, what: &str) -> Result<(String, Pos), DotError> {
        let pos = self.pos();
        match self.peek() {
            Some(Tok::Id(s)) => {
                let s = s.clone();
                self.at += 1;
                Ok((s, pos))
            }
            _ => Err(err(pos, format!("expected {what}"))),
        }
    }

    /// `[k=v, k=v ...]`, possibly several lists in a row; none is an empty list.
    fn attrs(&mut self) -> Result<Vec<(String, String)>, DotError> {
        let mut out = Vec::new();
        while self.eat("[") {
            while !self.eat("]") {
                let (k, _) = self.id("an attribute name or `]`")?;
                self.expect("=")?;
                let (v, _) = self.id("an attribute value")?;
                out.push((k, v));
                while self.eat(",") || self.eat(";") {}
            }
        }
        Ok(out)
    }

    fn graph(&mut self) -> Result<Graph, DotError> {
        let (kw, pos) = self.id("`digraph`")?;
        if kw == "strict" {
            self.id("`digraph`")?;
        } else if kw != "digraph" {
            return Err(err(pos, "expected `digraph`"));
        }
        if matches!(self.peek(), Some(Tok::Id(_))) {
            self.at += 1;
        }
        self.expect("{")?;
        let mut g = Graph::default();
        loop {
            if self.eat("}") {
                break;
            }
            if self.eat(";") {
                continue;
            }
            let (a, apos) = self.id("a statement or `}`")?;
            if self.eat("=") {
                self.id("a value")?; // graph attribute such as rankdir=LR
                continue;
            }
            if self.eat("->") {
                let (b, bpos) = self.id("the target of an edge")?;
                let attrs = self.attrs()?;
                g.mention(&a, apos);
                g.mention(&b, bpos);
                g.edges.push((a, b, attrs, apos));
            } else {
                let attrs = self.attrs()?;
                if !matches!(a.as_str(), "graph" | "node" | "edge") {
                    g.mention(&a, apos);
                    g.node_attrs.get_mut(&a).expect("mentioned").extend(attrs);
                }
            }
        }
        if self.at < self.toks.len() {
            return Err(err(self.pos(), "text after the closing `}`"));
        }
        Ok(g)
    }
}

fn attr<'a>(attrs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    attrs
        .iter()
        .rev()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// Whether a node id is one of AALpy's invisible start markers.
fn is_start(id: &str) -> bool {
    id.starts_with("__start")
}

impl Mealy {
    /// Reads a Mealy machine (or a DFA, see the module docs) from AALpy's DOT format. States are
    /// numbered in order of first mention, inputs and outputs in order of first use; the initial
    /// state is the target of the `__start0` edge, or the first state without one.
    ///
    /// ```
    /// use guarantor_lstar::mealy::Mealy;
    /// let m = Mealy::from_dot(
    ///     "digraph g {\n s0 -> s1 [label=\"coin/beep\"];\n s1 -> s0 [label=\"button/coffee\"];\n\
    ///      __start0 -> s0;\n}",
    /// )?;
    /// assert_eq!(m.num_states(), 2);
    /// assert!(!m.is_complete());
    /// let bad = Mealy::from_dot("digraph g {\n s0 -> [label=\"a/b\"]\n}").unwrap_err();
    /// assert_eq!((bad.line, bad.column), (2, 8));
    /// # Ok::<(), guarantor_lstar::mealy::DotError>(())
    /// ```
    ///
    /// # Errors
    /// [`DotError`] on text that is not such a graph: a syntax error, an edge without a label, a
    /// Mealy label without `/` in a file with Mealy labels, two transitions of one state on one
    /// input, or no state.
    pub fn from_dot(text: &str) -> Result<Mealy, DotError> {
        let (toks, end) = lex(text)?;
        let mut parser = Parser { toks, at: 0, end };
        let g = parser.graph()?;
        let states: Vec<&(String, Pos)> = g.nodes.iter().filter(|(n, _)| !is_start(n)).collect();
        if states.is_empty() {
            return Err(err(end, "no states"));
        }
        let id: FxHashMap<&str, StateId> = states
            .iter()
            .enumerate()
            .map(|(i, (n, _))| (n.as_str(), StateId::new(i)))
            .collect();
        let labelled: Vec<_> = g.edges.iter().filter(|e| !is_start(&e.0)).collect();
        let mealy = labelled
            .iter()
            .any(|e| attr(&e.2, "label").is_some_and(|l| l.contains('/')));
        let mut transitions = Vec::new();
        let mut inputs = crate::mealy::machine::Names::default();
        for (from, to, attrs, pos) in &labelled {
            let label = attr(attrs, "label").ok_or_else(|| err(*pos, "edge without a label"))?;
            let (input, output) = if mealy {
                let (i, o) = label
                    .split_once('/')
                    .ok_or_else(|| err(*pos, "label is not `input/output`"))?;
                (i.trim(), Some(o.trim()))
            } else {
                (label.trim(), None)
            };
            inputs.intern(input);
            let (Some(&p), Some(&q)) = (id.get(from.as_str()), id.get(to.as_str())) else {
                return Err(err(*pos, "edge from a start marker into a start marker"));
            };
            transitions.push((p, input, q, output, *pos));
        }
        let mut m = Mealy::new(inputs.as_slice());
        for _ in 1..states.len() {
            m.add_state();
        }
        let accepting: Vec<bool> = states
            .iter()
            .map(|(n, _)| {
                g.node_attrs.get(n).and_then(|a| attr(a, "shape")) == Some("doublecircle")
            })
            .collect();
        for (from, input, to, output, pos) in transitions {
            let Some(a) = m.input(input) else { continue };
            let out = output.map_or_else(|| accepting[to.index()].to_string(), str::to_owned);
            if let Some((t, o)) = m.transition(from, a)
                && (t != to || m.output_name(o) != out)
            {
                return Err(err(pos, format!("second transition on input `{input}`")));
            }
            m.set_transition(from, a, to, &out);
        }
        if let Some((_, to, _, _)) = g.edges.iter().find(|e| is_start(&e.0))
            && let Some(&q) = id.get(to.as_str())
        {
            m.set_initial(q);
        }
        Ok(m)
    }

    /// The machine in AALpy's DOT format (states `s0`, `s1`, ... in id order; the initial state
    /// marked by `__start0`), which [`Mealy::from_dot`] and AALpy read back.
    pub fn to_dot(&self) -> String {
        let quote = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
        let mut out = String::from("digraph learnedModel {\n");
        for q in self.states() {
            let _ = writeln!(out, "s{0} [label=\"s{0}\"];", q.index());
        }
        for q in self.states() {
            for a in self.inputs() {
                if let Some((r, o)) = self.transition(q, a) {
                    let label = format!("{}/{}", self.input_name(a), self.output_name(o));
                    let _ = writeln!(
                        out,
                        "s{} -> s{}  [label=\"{}\"];",
                        q.index(),
                        r.index(),
                        quote(&label)
                    );
                }
            }
        }
        out.push_str("__start0 [label=\"\", shape=none];\n");
        let _ = writeln!(
            out,
            "__start0 -> s{}  [label=\"\"];",
            self.initial().index()
        );
        out.push_str("}\n");
        out
    }
}
