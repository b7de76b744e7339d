//! The FSP lexer: source text to a flat vector of tokens with byte offsets.
//!
//! Tokens are produced eagerly (models are small) so the parser can look ahead freely. Keywords are
//! not separate token kinds: they are lower-case identifiers the parser recognises by text, which
//! keeps words like `set` usable where LTSA allows them as action names.

use crate::error::{Pos, RawError};

/// A punctuation or operator symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sym {
    Arrow,
    Bar,
    BarBar,
    AndAnd,
    Colon,
    ColonColon,
    Dot,
    DotDot,
    Comma,
    Semi,
    LParen,
    RParen,
    LBrack,
    RBrack,
    LBrace,
    RBrace,
    Assign,
    EqEq,
    NotEq,
    Bang,
    Lt,
    Le,
    Shl,
    Gt,
    Ge,
    Shr,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Backslash,
    At,
    Question,
    Hash,
    Tilde,
    Caret,
    Amp,
}

/// A token kind with its payload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    /// Identifier starting with an upper-case letter (process, constant, range, set names).
    Upper(String),
    /// Identifier starting with a lower-case letter or `_` (actions, variables, keywords).
    Lower(String),
    /// Non-negative integer literal.
    Int(i64),
    /// A quoted label constant `'name`.
    Quote(String),
    /// A string literal `"..."` (animation, fluents).
    Str(String),
    /// A symbol.
    Sym(Sym),
    /// End of input.
    Eof,
}

/// A token and where it starts.
#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub(crate) tok: Tok,
    pub(crate) pos: Pos,
    /// The offset just past the token (where a missing `.` after it belongs).
    pub(crate) end: Pos,
}

/// Splits `src` into tokens, skipping white space and `//`, `/* */` comments.
pub(crate) fn lex(src: &str) -> Result<Vec<Token>, RawError> {
    if src.len() >= u32::MAX as usize {
        return Err(RawError::syntax("source file too large", 0));
    }
    let mut lx = Lexer {
        src: src.as_bytes(),
        text: src,
        i: 0,
        out: Vec::new(),
    };
    lx.run()?;
    Ok(lx.out)
}

struct Lexer<'a> {
    src: &'a [u8],
    text: &'a str,
    i: usize,
    out: Vec<Token>,
}

impl Lexer<'_> {
    fn peek(&self, k: usize) -> u8 {
        self.src.get(self.i + k).copied().unwrap_or(0)
    }

    fn run(&mut self) -> Result<(), RawError> {
        loop {
            self.skip_trivia()?;
            let pos = self.i as Pos;
            if self.i >= self.src.len() {
                self.out.push(Token {
                    tok: Tok::Eof,
                    pos,
                    end: pos,
                });
                return Ok(());
            }
            let tok = self.token(pos)?;
            let end = self.i as Pos;
            self.out.push(Token { tok, pos, end });
        }
    }

    fn skip_trivia(&mut self) -> Result<(), RawError> {
        loop {
            match (self.peek(0), self.peek(1)) {
                (c, _) if c.is_ascii_whitespace() => self.i += 1,
                (b'/', b'/') => {
                    while self.i < self.src.len() && self.src[self.i] != b'\n' {
                        self.i += 1;
                    }
                }
                (b'/', b'*') => {
                    let start = self.i as Pos;
                    match self.text[self.i + 2..].find("*/") {
                        Some(k) => self.i += k + 4,
                        None => return Err(RawError::syntax("unterminated comment", start)),
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    fn ident(&mut self) -> &str {
        let start = self.i;
        while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == b'_' {
            self.i += 1;
        }
        &self.text[start..self.i]
    }

    fn token(&mut self, pos: Pos) -> Result<Tok, RawError> {
        let c = self.peek(0);
        if c.is_ascii_uppercase() {
            return Ok(Tok::Upper(self.ident().to_string()));
        }
        if c.is_ascii_lowercase() || c == b'_' {
            return Ok(Tok::Lower(self.ident().to_string()));
        }
        if c.is_ascii_digit() {
            let digits = self.ident();
            return digits
                .parse::<i64>()
                .map(Tok::Int)
                .map_err(|_| RawError::syntax(format!("bad integer literal '{digits}'"), pos));
        }
        if c == b'\'' {
            self.i += 1;
            if !(self.peek(0).is_ascii_alphabetic() || self.peek(0) == b'_') {
                return Err(RawError::syntax("expected a name after '", pos));
            }
            return Ok(Tok::Quote(self.ident().to_string()));
        }
        if c == b'"' {
            return self.string(pos);
        }
        self.symbol(pos).map(Tok::Sym)
    }

    fn string(&mut self, pos: Pos) -> Result<Tok, RawError> {
        let rest = &self.text[self.i + 1..];
        match rest.find(['"', '\n']) {
            Some(k) if rest.as_bytes()[k] == b'"' => {
                self.i += k + 2;
                Ok(Tok::Str(rest[..k].to_string()))
            }
            _ => Err(RawError::syntax("unterminated string", pos)),
        }
    }

    fn symbol(&mut self, pos: Pos) -> Result<Sym, RawError> {
        use Sym::{
            Amp, AndAnd, Arrow, At, Backslash, Bang, Bar, BarBar, Caret, Colon, ColonColon, Comma,
            Dot, DotDot, EqEq, Ge, Gt, Hash, LBrace, LBrack, LParen, Le, Lt, Minus, NotEq, Percent,
            Plus, Question, RBrace, RBrack, RParen, Semi, Shl, Shr, Slash, Star, Tilde,
        };
        let two = [self.peek(0), self.peek(1)];
        let sym2 = match &two {
            b"->" => Some(Arrow),
            b"||" => Some(BarBar),
            b"&&" => Some(AndAnd),
            b"::" => Some(ColonColon),
            b".." => Some(DotDot),
            b"==" => Some(EqEq),
            b"!=" => Some(NotEq),
            b"<=" => Some(Le),
            b">=" => Some(Ge),
            b"<<" => Some(Shl),
            b">>" => Some(Shr),
            _ => None,
        };
        if let Some(s) = sym2 {
            self.i += 2;
            return Ok(s);
        }
        let s = match two[0] {
            b'|' => Bar,
            b':' => Colon,
            b'.' => Dot,
            b',' => Comma,
            b';' => Semi,
            b'(' => LParen,
            b')' => RParen,
            b'[' => LBrack,
            b']' => RBrack,
            b'{' => LBrace,
            b'}' => RBrace,
            b'=' => Sym::Assign,
            b'!' => Bang,
            b'<' => Lt,
            b'>' => Gt,
            b'+' => Plus,
            b'-' => Minus,
            b'*' => Star,
            b'/' => Slash,
            b'%' => Percent,
            b'\\' => Backslash,
            b'@' => At,
            b'?' => Question,
            b'#' => Hash,
            b'~' => Tilde,
            b'^' => Caret,
            b'&' => Amp,
            _ => {
                let ch = self.text[self.i..].chars().next().unwrap_or('?');
                return Err(RawError::syntax(
                    format!("unexpected character '{ch}'"),
                    pos,
                ));
            }
        };
        self.i += 1;
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexes_arrows_comments_and_labels() {
        let toks = lex("P = (a[1..2] -> 'x /* c */ || Q). // end").unwrap();
        let kinds: Vec<_> = toks.iter().map(|t| t.tok.clone()).collect();
        assert_eq!(kinds[0], Tok::Upper("P".into()));
        assert!(kinds.contains(&Tok::Sym(Sym::DotDot)));
        assert!(kinds.contains(&Tok::Quote("x".into())));
        assert_eq!(kinds.last(), Some(&Tok::Eof));
    }

    #[test]
    fn unterminated_comment_is_an_error() {
        assert!(lex("P = /* oops").is_err());
    }
}
