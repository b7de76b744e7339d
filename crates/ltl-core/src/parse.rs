//! LTSA's `assert` syntax over expanded names ([`parse`], [`Context::parse`]).
//!
//! ```text
//! formula := unary                              (an assertion's body, as LTSA reads it)
//! or      := binary ('||' binary)*
//! binary  := and (('U' | 'W' | '->' | '<->') and)?
//! and     := unary ('&&' unary)*
//! unary   := ('!' | 'X' | '[]' | '<>') unary | '(' or ')' | 'true' | 'false'
//!          | Fluent | Formula | action | '{' action (',' action)* '}'
//! ```
//!
//! The precedence is LTSA's: the unary operators bind tightest, then `&&`, then one of `U`, `W`,
//! `->`, `<->` (not associative), then `||`; so `a || b -> c` is `a || (b -> c)`, and an
//! assertion's body is one unary formula (`[]!(A && B)`, `(A -> B)`). Names are FSP's expanded
//! labels, `red.1.enter`, `CRITICAL.2`: a name starting with an upper-case letter is a fluent or a
//! formula defined earlier (an `assert` used inside another, inlined), anything else an action.
//! `X`, `U` and `W` alone are operators. FSP's `forall`, `exists`, indices and ranges are expanded
//! by the front end before a formula gets here.

use std::collections::BTreeMap;

use crate::formula::{Fluent, Formula, Ltl, Prop, PropId};

/// A syntax error or an unknown name, with its byte offset in the text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{offset}: {message}")]
#[non_exhaustive]
pub struct ParseError {
    /// The byte offset in the formula text.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

/// The fluents and named formulas a formula may use.
#[derive(Clone, Debug, Default)]
pub struct Context {
    fluents: BTreeMap<String, Fluent>,
    formulas: BTreeMap<String, Ltl>,
}

impl Context {
    /// An empty context.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a fluent (replacing one of the same name).
    #[must_use]
    pub fn with_fluent(mut self, fluent: Fluent) -> Self {
        self.fluents.insert(fluent.name.clone(), fluent);
        self
    }

    /// Names a formula, so that later formulas may use it (`assert CROSS = (RED && BLUE)`).
    pub fn define(&mut self, name: impl Into<String>, ltl: Ltl) {
        self.formulas.insert(name.into(), ltl);
    }

    /// Parses `text` (see the module documentation).
    ///
    /// ```
    /// use guarantor_ltl_core::{Context, Fluent};
    /// let mut ctx = Context::new().with_fluent(Fluent::new("RED", ["red.enter"], ["red.exit"]));
    /// let red = ctx.parse("[]<>RED")?;
    /// ctx.define("REDLIVE", red);
    /// let both = ctx.parse("(REDLIVE && []<>{blue.enter, blue.exit})")?;
    /// assert_eq!(both.to_string(), "([]<>RED && []<>{blue.enter, blue.exit})");
    /// # Ok::<(), guarantor_ltl_core::ParseError>(())
    /// ```
    ///
    /// # Errors
    /// A [`ParseError`] at the first token that does not fit, or at an unknown upper-case name.
    pub fn parse(&self, text: &str) -> Result<Ltl, ParseError> {
        let tokens = lex(text)?;
        let mut p = Parser {
            ctx: self,
            tokens,
            pos: 0,
            props: Vec::new(),
            end: text.len(),
        };
        let f = p.unary()?;
        if let Some((off, t)) = p.tokens.get(p.pos) {
            return Err(ParseError {
                offset: *off,
                message: format!("unexpected {t:?} after the formula"),
            });
        }
        Ltl::new(f, p.props).map_err(|e| ParseError {
            offset: 0,
            message: e.to_string(),
        })
    }
}

/// Parses `text` with the given fluents and no named formulas.
///
/// ```
/// use guarantor_ltl_core::{parse, Fluent};
/// let f = parse("[]!(C.1 && C.2)", &[Fluent::new("C.1", ["a.enter"], ["a.exit"]),
///                                     Fluent::new("C.2", ["b.enter"], ["b.exit"])])?;
/// assert_eq!(f.to_string(), "[]!(C.1 && C.2)");
/// assert!(parse("[]<>Nope", &[]).is_err());
/// # Ok::<(), guarantor_ltl_core::ParseError>(())
/// ```
///
/// # Errors
/// As [`Context::parse`].
pub fn parse(text: &str, fluents: &[Fluent]) -> Result<Ltl, ParseError> {
    let ctx = fluents
        .iter()
        .cloned()
        .fold(Context::new(), Context::with_fluent);
    ctx.parse(text)
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Not,
    And,
    Or,
    Arrow,
    Iff,
    Always,
    Eventually,
    LParen,
    RParen,
    LBrace,
    RBrace,
    Comma,
    Name(String),
}

fn lex(text: &str) -> Result<Vec<(usize, Tok)>, ParseError> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let two = text.get(i..i + 2);
        let three = text.get(i..i + 3);
        let (tok, len) = if three == Some("<->") {
            (Tok::Iff, 3)
        } else if two == Some("&&") {
            (Tok::And, 2)
        } else if two == Some("||") {
            (Tok::Or, 2)
        } else if two == Some("->") {
            (Tok::Arrow, 2)
        } else if two == Some("[]") {
            (Tok::Always, 2)
        } else if two == Some("<>") {
            (Tok::Eventually, 2)
        } else {
            match c {
                b'!' => (Tok::Not, 1),
                b'(' => (Tok::LParen, 1),
                b')' => (Tok::RParen, 1),
                b'{' => (Tok::LBrace, 1),
                b'}' => (Tok::RBrace, 1),
                b',' => (Tok::Comma, 1),
                c if c.is_ascii_alphanumeric() || c == b'_' => {
                    let mut j = i;
                    while j < bytes.len()
                        && (bytes[j].is_ascii_alphanumeric()
                            || bytes[j] == b'_'
                            || bytes[j] == b'.')
                    {
                        j += 1;
                    }
                    (Tok::Name(text[i..j].to_string()), j - i)
                }
                _ => {
                    return Err(ParseError {
                        offset: i,
                        message: format!(
                            "unexpected character {:?}",
                            text[i..].chars().next().unwrap_or('?')
                        ),
                    });
                }
            }
        };
        out.push((i, tok));
        i += len;
    }
    Ok(out)
}

struct Parser<'c> {
    ctx: &'c Context,
    tokens: Vec<(usize, Tok)>,
    pos: usize,
    props: Vec<Prop>,
    end: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.pos).map(|(_, t)| t)
    }

    fn offset(&self) -> usize {
        self.tokens.get(self.pos).map_or(self.end, |(o, _)| *o)
    }

    fn err<T>(&self, message: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError {
            offset: self.offset(),
            message: message.into(),
        })
    }

    fn prop(&mut self, p: Prop) -> PropId {
        if let Some(i) = self.props.iter().position(|q| *q == p) {
            return PropId::new(i);
        }
        self.props.push(p);
        PropId::new(self.props.len() - 1)
    }

    fn or(&mut self) -> Result<Formula, ParseError> {
        let mut left = self.binary()?;
        while self.peek() == Some(&Tok::Or) {
            self.pos += 1;
            let right = self.binary()?;
            left = Formula::or(left, right);
        }
        Ok(left)
    }

    fn binary(&mut self) -> Result<Formula, ParseError> {
        let left = self.and()?;
        let make: fn(Box<Formula>, Box<Formula>) -> Formula = match self.peek() {
            Some(Tok::Arrow) => Formula::Implies,
            Some(Tok::Iff) => Formula::Iff,
            Some(Tok::Name(n)) if n == "U" => Formula::Until,
            Some(Tok::Name(n)) if n == "W" => Formula::WeakUntil,
            _ => return Ok(left),
        };
        self.pos += 1;
        let right = self.and()?;
        Ok(make(Box::new(left), Box::new(right)))
    }

    fn and(&mut self) -> Result<Formula, ParseError> {
        let mut left = self.unary()?;
        while self.peek() == Some(&Tok::And) {
            self.pos += 1;
            let right = self.unary()?;
            left = Formula::and(left, right);
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Formula, ParseError> {
        let Some(tok) = self.peek().cloned() else {
            return self.err("a formula expected, found the end");
        };
        let unop = |f: fn(Box<Formula>) -> Formula, p: &mut Self| -> Result<Formula, ParseError> {
            p.pos += 1;
            Ok(f(Box::new(p.unary()?)))
        };
        match tok {
            Tok::Not => unop(Formula::Not, self),
            Tok::Always => unop(Formula::Always, self),
            Tok::Eventually => unop(Formula::Eventually, self),
            Tok::Name(n) if n == "X" => unop(Formula::Next, self),
            Tok::LParen => {
                self.pos += 1;
                let f = self.or()?;
                if self.peek() != Some(&Tok::RParen) {
                    return self.err("')' expected to end the formula");
                }
                self.pos += 1;
                Ok(f)
            }
            Tok::LBrace => {
                self.pos += 1;
                let mut actions = Vec::new();
                loop {
                    match self.peek().cloned() {
                        Some(Tok::Name(a)) => {
                            self.pos += 1;
                            actions.push(a);
                        }
                        _ => return self.err("an action name expected in the set"),
                    }
                    match self.peek() {
                        Some(Tok::Comma) => self.pos += 1,
                        Some(Tok::RBrace) => {
                            self.pos += 1;
                            break;
                        }
                        _ => return self.err("',' or '}' expected in the action set"),
                    }
                }
                actions.sort();
                actions.dedup();
                let id = self.prop(Prop::Actions(actions));
                Ok(Formula::Prop(id))
            }
            Tok::Name(n) if n == "true" => {
                self.pos += 1;
                Ok(Formula::True)
            }
            Tok::Name(n) if n == "false" => {
                self.pos += 1;
                Ok(Formula::False)
            }
            Tok::Name(n) if n == "U" || n == "W" => {
                self.err(format!("a formula expected before {n}"))
            }
            Tok::Name(n) if n.starts_with(|c: char| c.is_ascii_uppercase()) => {
                if let Some(fl) = self.ctx.fluents.get(&n) {
                    self.pos += 1;
                    let id = self.prop(Prop::Fluent(fl.clone()));
                    Ok(Formula::Prop(id))
                } else if let Some(def) = self.ctx.formulas.get(&n) {
                    self.pos += 1;
                    let map: Vec<PropId> =
                        def.props().iter().map(|p| self.prop(p.clone())).collect();
                    Ok(remap(def.formula(), &map))
                } else {
                    self.err(format!("{n} is not a fluent or a formula defined before"))
                }
            }
            Tok::Name(n) => {
                self.pos += 1;
                let id = self.prop(Prop::Actions(vec![n]));
                Ok(Formula::Prop(id))
            }
            Tok::And | Tok::Or | Tok::Arrow | Tok::Iff | Tok::RParen | Tok::RBrace | Tok::Comma => {
                self.err(format!("a formula expected, found {tok:?}"))
            }
        }
    }
}

/// `f` with proposition `i` renamed to `map[i]`.
fn remap(f: &Formula, map: &[PropId]) -> Formula {
    let b = |g: &Formula| Box::new(remap(g, map));
    match f {
        Formula::Prop(p) => Formula::Prop(map[p.index()]),
        Formula::Not(a) => Formula::Not(b(a)),
        Formula::Next(a) => Formula::Next(b(a)),
        Formula::Always(a) => Formula::Always(b(a)),
        Formula::Eventually(a) => Formula::Eventually(b(a)),
        Formula::And(x, y) => Formula::And(b(x), b(y)),
        Formula::Or(x, y) => Formula::Or(b(x), b(y)),
        Formula::Implies(x, y) => Formula::Implies(b(x), b(y)),
        Formula::Iff(x, y) => Formula::Iff(b(x), b(y)),
        Formula::Until(x, y) => Formula::Until(b(x), b(y)),
        Formula::WeakUntil(x, y) => Formula::WeakUntil(b(x), b(y)),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precedence_is_ltsas() {
        let f = parse("(a || b -> c)", &[]).unwrap();
        assert_eq!(f.to_string(), "(a || (b -> c))");
        let f = parse("(a U b && c)", &[]).unwrap();
        assert_eq!(f.to_string(), "(a U (b && c))");
        let f = parse("[]!X a", &[]).unwrap();
        assert_eq!(f.to_string(), "[]!X a");
    }

    #[test]
    fn errors_are_located() {
        let e = parse("[](a &&)", &[]).unwrap_err();
        assert_eq!(e.offset, 7);
        let e = parse("[]a b", &[]).unwrap_err();
        assert_eq!(e.offset, 4);
        assert!(
            parse("<>Q", &[])
                .unwrap_err()
                .message
                .contains("not a fluent")
        );
    }
}
