//! Tokens with 1-based positions. Comments run from `//` to the end of the line.

use super::SyntaxError;

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    Ident(String),
    Int(i128),
    Punct(&'static str),
    Eof,
}

/// A token and where it starts.
#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub(crate) tok: Tok,
    pub(crate) line: usize,
    pub(crate) col: usize,
}

/// Longest first, so `->` wins over `-` and `<=` over `<`.
const PUNCT: &[&str] = &[
    ":=", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "{", "}", "(", ")", ";", ",", ":", "=",
    "<", ">", "+", "-", "*", "!",
];

pub(crate) fn error_at(
    src: &str,
    file: &str,
    line: usize,
    col: usize,
    message: String,
) -> SyntaxError {
    SyntaxError {
        file: file.to_string(),
        line,
        col,
        message,
        line_text: src
            .lines()
            .nth(line - 1)
            .unwrap_or("")
            .trim_end()
            .to_string(),
    }
}

pub(crate) fn lex(src: &str, file: &str) -> Result<Vec<Token>, SyntaxError> {
    let mut out = Vec::new();
    for (i, text) in src.lines().enumerate() {
        let line = i + 1;
        let chars: Vec<char> = text.chars().collect();
        let mut c = 0;
        while c < chars.len() {
            let ch = chars[c];
            let col = c + 1;
            if ch.is_whitespace() || ch == '\u{feff}' {
                c += 1;
            } else if ch == '/' && chars.get(c + 1) == Some(&'/') {
                break;
            } else if ch.is_ascii_alphabetic() || ch == '_' {
                let start = c;
                while c < chars.len() && (chars[c].is_ascii_alphanumeric() || chars[c] == '_') {
                    c += 1;
                }
                out.push(Token {
                    tok: Tok::Ident(chars[start..c].iter().collect()),
                    line,
                    col,
                });
            } else if ch.is_ascii_digit() {
                let start = c;
                while c < chars.len() && chars[c].is_ascii_digit() {
                    c += 1;
                }
                let digits: String = chars[start..c].iter().collect();
                let v = digits.parse::<i128>().map_err(|_| {
                    error_at(
                        src,
                        file,
                        line,
                        col,
                        format!("integer literal `{digits}` does not fit in 128 bits"),
                    )
                })?;
                out.push(Token {
                    tok: Tok::Int(v),
                    line,
                    col,
                });
            } else if let Some(p) = PUNCT.iter().find(|p| {
                p.chars()
                    .enumerate()
                    .all(|(k, pc)| chars.get(c + k) == Some(&pc))
            }) {
                out.push(Token {
                    tok: Tok::Punct(p),
                    line,
                    col,
                });
                c += p.chars().count();
            } else {
                return Err(error_at(
                    src,
                    file,
                    line,
                    col,
                    format!("unexpected character `{ch}`"),
                ));
            }
        }
    }
    let line = src.lines().count().max(1);
    let col = src.lines().last().map_or(0, |l| l.chars().count()) + 1;
    out.push(Token {
        tok: Tok::Eof,
        line,
        col,
    });
    Ok(out)
}
