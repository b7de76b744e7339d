//! The guarded-command language: lexer, parser and located errors (grammar in `docs/formats.md`,
//! section "Guarded commands (predabs)").
//!
//! The parser is hand-written recursive descent that resolves names and checks types as it goes,
//! so the program it returns ([`crate::Program`]) is already well-formed: every name declared
//! before use, every expression linear and well-typed, every integer literal within `i128`.

mod error;
mod lexer;
mod parser;

pub use error::SyntaxError;
pub(crate) use parser::parse;
