//! A recursive-descent parser for LTSA's FSP, with a nesting limit.
//!
//! Every recursive rule goes through [`Parser::enter`], which counts nesting and fails with a located
//! error past [`MAX_DEPTH`]: 100,000 nested parentheses give an error, not a stack overflow.
//! Definitions the front end does not model (`menu`, `animation`) are skipped up to the start of
//! the next definition, with a warning; `progress` tests are parsed ([`ProgressDef`]) and
//! elaborated by `progress.rs`, `fluent`, `assert` and `constraint` definitions
//! ([`FluentSyntax`], [`AssertSyntax`]) by `ltl.rs`.

use crate::ast::{
    BinOp, Branch, CBody, CompositeDef, ConstDef, Expr, ExprKind, Flags, HideSpec, Index, Label,
    LocalDef, Param, PrioritySpec, ProcessDef, ProgressDef, RangeSpec, RelabelItem, Seg, SetElem,
    SetExpr, Term, UnOp,
};
use crate::error::{ErrorKind, Pos, RawError};
use crate::lexer::{Sym, Tok, Token};
use crate::ltl::{AssertSyntax, FluentSyntax, FormulaSyntax, LtlOp};

/// How deeply rules may nest before the parser gives up.
pub(crate) const MAX_DEPTH: usize = 5000;
/// How deeply parentheses and unary operators may nest inside one expression (each level costs a
/// dozen stack frames of precedence climbing, hence the lower limit).
const MAX_EXPR_DEPTH: usize = 32;
/// How many operators one chain (`1+1+...`) may have: evaluation recurses along the chain.
const MAX_CHAIN: usize = 1000;
/// The precedence level of `+` and `-` in [`Parser::binary`]: where LTSA's simple expressions start.
const ADDITIVE: usize = 7;

/// Everything a file defines, in source order per kind.
#[derive(Debug, Default)]
pub(crate) struct ParsedFile {
    pub(crate) consts: Vec<(ConstDef, Pos)>,
    pub(crate) processes: Vec<ProcessDef>,
    pub(crate) composites: Vec<CompositeDef>,
    pub(crate) warnings: Vec<(String, Pos)>,
    /// Definitions parsed and skipped: keyword, defined name (empty if none), position.
    pub(crate) skipped: Vec<(String, String, Pos)>,
    /// `progress` definitions, in source order (also listed in `skipped`: a safety check does
    /// not check them).
    pub(crate) progress: Vec<ProgressDef>,
    /// `fluent` definitions, in source order (also listed in `skipped`).
    pub(crate) fluents: Vec<FluentSyntax>,
    /// `assert` and `constraint` definitions, in source order (also listed in `skipped`).
    pub(crate) asserts: Vec<AssertSyntax>,
}

/// Parses a token stream (ending in [`Tok::Eof`]).
pub(crate) fn parse_tokens(tokens: &[Token]) -> Result<ParsedFile, RawError> {
    let mut p = Parser {
        toks: tokens,
        i: 0,
        depth: 0,
        expr_depth: 0,
        out: ParsedFile::default(),
    };
    p.file()?;
    Ok(p.out)
}

/// Parses a token stream (ending in [`Tok::Eof`]) that is one set expression: a literal
/// `{a, b.[1..2], c[i:R]}` or the name of a `set`.
pub(crate) fn parse_set_tokens(tokens: &[Token]) -> Result<SetExpr, RawError> {
    let mut p = Parser {
        toks: tokens,
        i: 0,
        depth: 0,
        expr_depth: 0,
        out: ParsedFile::default(),
    };
    let set = p.set_expr()?;
    if *p.tok() != Tok::Eof {
        return Err(p.unexpected("the end of the set"));
    }
    Ok(set)
}

struct Parser<'a> {
    toks: &'a [Token],
    i: usize,
    depth: usize,
    expr_depth: usize,
    out: ParsedFile,
}

const SKIPPED: [&str; 2] = ["menu", "animation"];
const DEF_KEYWORDS: [&str; 12] = [
    "const",
    "range",
    "set",
    "property",
    "progress",
    "menu",
    "fluent",
    "assert",
    "animation",
    "minimal",
    "deterministic",
    "constraint",
];

fn describe(t: &Tok) -> String {
    match t {
        Tok::Upper(s) | Tok::Lower(s) => format!("'{s}'"),
        Tok::Int(n) => format!("'{n}'"),
        Tok::Quote(s) => format!("''{s}'"),
        Tok::Str(s) => format!("\"{s}\""),
        Tok::Sym(s) => format!("'{}'", sym_text(*s)),
        Tok::Eof => "end of file".to_string(),
    }
}

fn sym_text(s: Sym) -> &'static str {
    match s {
        Sym::Arrow => "->",
        Sym::Bar => "|",
        Sym::BarBar => "||",
        Sym::AndAnd => "&&",
        Sym::Colon => ":",
        Sym::ColonColon => "::",
        Sym::Dot => ".",
        Sym::DotDot => "..",
        Sym::Comma => ",",
        Sym::Semi => ";",
        Sym::LParen => "(",
        Sym::RParen => ")",
        Sym::LBrack => "[",
        Sym::RBrack => "]",
        Sym::LBrace => "{",
        Sym::RBrace => "}",
        Sym::Assign => "=",
        Sym::EqEq => "==",
        Sym::NotEq => "!=",
        Sym::Bang => "!",
        Sym::Lt => "<",
        Sym::Le => "<=",
        Sym::Shl => "<<",
        Sym::Gt => ">",
        Sym::Ge => ">=",
        Sym::Shr => ">>",
        Sym::Plus => "+",
        Sym::Minus => "-",
        Sym::Star => "*",
        Sym::Slash => "/",
        Sym::Percent => "%",
        Sym::Backslash => "\\",
        Sym::At => "@",
        Sym::Question => "?",
        Sym::Hash => "#",
        Sym::Tilde => "~",
        Sym::Caret => "^",
        Sym::Amp => "&",
    }
}

impl Parser<'_> {
    // ---- token helpers ----

    fn tok(&self) -> &Tok {
        &self.toks[self.i].tok
    }

    fn tok_at(&self, k: usize) -> &Tok {
        &self.toks[(self.i + k).min(self.toks.len() - 1)].tok
    }

    fn pos(&self) -> Pos {
        self.toks[self.i].pos
    }

    fn bump(&mut self) {
        if self.i + 1 < self.toks.len() {
            self.i += 1;
        }
    }

    fn is(&self, s: Sym) -> bool {
        *self.tok() == Tok::Sym(s)
    }

    fn is_kw(&self, kw: &str) -> bool {
        matches!(self.tok(), Tok::Lower(s) if s == kw)
    }

    fn eat(&mut self, s: Sym) -> bool {
        let hit = self.is(s);
        if hit {
            self.bump();
        }
        hit
    }

    fn eat_kw(&mut self, kw: &str) -> bool {
        let hit = self.is_kw(kw);
        if hit {
            self.bump();
        }
        hit
    }

    fn unexpected(&self, what: &str) -> RawError {
        RawError::syntax(
            format!("expected {what}, found {}", describe(self.tok())),
            self.pos(),
        )
    }

    fn expect(&mut self, s: Sym) -> Result<(), RawError> {
        if self.eat(s) {
            Ok(())
        } else {
            Err(self.unexpected(&format!("'{}'", sym_text(s))))
        }
    }

    /// The `.` that ends the definition of `name`. When what follows starts another definition
    /// (or the file ends), the `.` was forgotten: the error points just past the last token of
    /// this definition and says so, instead of at the next line's first token.
    fn expect_end(&mut self, name: &str) -> Result<(), RawError> {
        if self.eat(Sym::Dot) {
            return Ok(());
        }
        if self.i > 0 && self.at_definition_start() {
            return Err(RawError::syntax(
                format!(
                    "expected '.' to end the definition of '{name}' (found {} next; every definition ends with '.')",
                    describe(self.tok())
                ),
                self.toks[self.i - 1].end,
            ));
        }
        Err(self.unexpected("'.'"))
    }

    fn upper(&mut self, what: &str) -> Result<(String, Pos), RawError> {
        let pos = self.pos();
        if let Tok::Upper(s) = self.tok() {
            let s = s.clone();
            self.bump();
            Ok((s, pos))
        } else {
            Err(self.unexpected(what))
        }
    }

    /// Counts one level of nesting; every recursive rule calls this first.
    fn enter(&mut self) -> Result<(), RawError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(RawError::new(
                ErrorKind::TooDeep(format!("nesting deeper than {MAX_DEPTH} levels")),
                self.pos(),
            ));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    // ---- file level ----

    fn file(&mut self) -> Result<(), RawError> {
        while *self.tok() != Tok::Eof {
            self.definition()?;
        }
        Ok(())
    }

    fn definition(&mut self) -> Result<(), RawError> {
        let pos = self.pos();
        if self.eat_kw("const") {
            let (name, _) = self.upper("a constant name")?;
            self.expect(Sym::Assign)?;
            let e = self.simple_expr()?;
            self.not_arithmetic("constant")?;
            self.out.consts.push((ConstDef::Const(name, e), pos));
            return Ok(());
        }
        if self.eat_kw("range") {
            let (name, _) = self.upper("a range name")?;
            self.expect(Sym::Assign)?;
            let lo = self.simple_expr()?;
            self.expect(Sym::DotDot)?;
            let hi = self.simple_expr()?;
            self.not_arithmetic("range bound")?;
            self.out.consts.push((ConstDef::Range(name, lo, hi), pos));
            return Ok(());
        }
        if self.eat_kw("set") {
            let (name, _) = self.upper("a set name")?;
            self.expect(Sym::Assign)?;
            let s = self.set_expr()?;
            self.out.consts.push((ConstDef::Set(name, s), pos));
            return Ok(());
        }
        if self.eat_kw("progress") {
            let def = self.progress(pos)?;
            self.out
                .skipped
                .push(("progress".to_owned(), def.name.clone(), pos));
            self.out.progress.push(def);
            return Ok(());
        }
        if self.eat_kw("fluent") {
            let def = self.fluent(pos)?;
            self.out
                .skipped
                .push(("fluent".to_owned(), def.name.clone(), pos));
            self.out.fluents.push(def);
            return Ok(());
        }
        for (kw, constraint) in [("assert", false), ("constraint", true)] {
            if self.eat_kw(kw) {
                let def = self.assertion(pos, constraint)?;
                self.out
                    .skipped
                    .push((kw.to_owned(), def.name.clone(), pos));
                self.out.asserts.push(def);
                return Ok(());
            }
        }
        if let Tok::Lower(kw) = self.tok() {
            if SKIPPED.contains(&kw.as_str()) {
                let kw = kw.clone();
                self.bump();
                let name = match self.tok() {
                    Tok::Upper(n) => n.clone(),
                    _ => String::new(),
                };
                self.skip_definition();
                self.out.skipped.push((kw.clone(), name, pos));
                self.out
                    .warnings
                    .push((format!("'{kw}' definitions are ignored"), pos));
                return Ok(());
            }
            if kw == "compose" {
                // An LTSA editor directive, not part of the model.
                self.bump();
                return Ok(());
            }
            if !DEF_KEYWORDS.contains(&kw.as_str()) {
                // A definition starts with a keyword or a process name: a lower-case word here
                // is most often a misspelt keyword (`proprety`, `minimal` is fine).
                let hint = crate::closest(kw, &DEF_KEYWORDS)
                    .map(|k| format!("; did you mean '{k}'?"))
                    .unwrap_or_default();
                return Err(RawError::syntax(
                    format!(
                        "expected a definition (a keyword or a process name), found '{kw}'{hint}"
                    ),
                    pos,
                ));
            }
        }
        let flags = self.flags();
        if self.eat(Sym::BarBar) {
            let c = self.composite(flags, pos)?;
            self.out.composites.push(c);
        } else {
            let p = self.process(flags)?;
            self.out.processes.push(p);
        }
        Ok(())
    }

    /// `progress NAME[i:R]... = [if C then] A`, after the keyword (LTSA's syntax: each of `C`
    /// and `A` is one label, usually a set; no full stop).
    fn progress(&mut self, pos: Pos) -> Result<ProgressDef, RawError> {
        let (name, _) = self.upper("a progress test name")?;
        let mut indices = Vec::new();
        while self.eat(Sym::LBrack) {
            indices.push(self.index()?);
            self.expect(Sym::RBrack)?;
        }
        self.expect(Sym::Assign)?;
        let condition = if self.eat_kw("if") {
            let c = self.label(true)?;
            if !self.eat_kw("then") {
                return Err(self.unexpected("'then'"));
            }
            Some(c)
        } else {
            None
        };
        let actions = self.label(true)?;
        Ok(ProgressDef {
            name,
            pos,
            indices,
            condition,
            actions,
        })
    }

    /// After a `const` or `range` value: an operator LTSA does not allow there (comparison,
    /// shift, logic, `?:`) is an error naming the rule, not a confusing one at the next token.
    fn not_arithmetic(&self, what: &str) -> Result<(), RawError> {
        let Tok::Sym(sym) = self.tok() else {
            return Ok(());
        };
        let refused = matches!(
            sym,
            Sym::AndAnd
                | Sym::EqEq
                | Sym::NotEq
                | Sym::Lt
                | Sym::Le
                | Sym::Gt
                | Sym::Ge
                | Sym::Shl
                | Sym::Shr
                | Sym::Amp
                | Sym::Caret
                | Sym::Question
        );
        if refused {
            return Err(RawError::syntax(
                format!(
                    "a {what} is arithmetic only (+ - * / %), as in LTSA: '{}' is not allowed here",
                    sym_text(*sym)
                ),
                self.pos(),
            ));
        }
        Ok(())
    }

    fn flags(&mut self) -> Flags {
        let mut f = Flags::default();
        loop {
            if self.eat_kw("property") {
                f.property = true;
            } else if self.eat_kw("minimal") {
                f.minimal = true;
            } else if self.eat_kw("deterministic") {
                f.deterministic = true;
            } else {
                return f;
            }
        }
    }

    /// Whether the current token starts a new top-level definition (used to resynchronise after
    /// a skipped definition).
    fn at_definition_start(&self) -> bool {
        match self.tok() {
            Tok::Eof => true,
            Tok::Lower(s) => DEF_KEYWORDS.contains(&s.as_str()),
            Tok::Sym(Sym::BarBar) => matches!(self.tok_at(1), Tok::Upper(_)),
            Tok::Upper(_) => match self.tok_at(1) {
                Tok::Sym(Sym::Assign) => true,
                Tok::Sym(Sym::LParen) => {
                    matches!(self.tok_at(2), Tok::Upper(_))
                        && *self.tok_at(3) == Tok::Sym(Sym::Assign)
                }
                _ => false,
            },
            _ => false,
        }
    }

    fn skip_definition(&mut self) {
        // The defined name is followed by '=', which would look like the start of a process.
        if matches!(self.tok(), Tok::Upper(_)) {
            self.bump();
        }
        let mut depth = 0usize;
        loop {
            if depth == 0 && self.at_definition_start() {
                return;
            }
            match self.tok() {
                Tok::Sym(Sym::LParen | Sym::LBrack | Sym::LBrace) => depth += 1,
                Tok::Sym(Sym::RParen | Sym::RBrack | Sym::RBrace) => {
                    depth = depth.saturating_sub(1);
                }
                Tok::Eof => return,
                _ => {}
            }
            self.bump();
        }
    }

    fn params(&mut self) -> Result<Vec<Param>, RawError> {
        let mut ps = Vec::new();
        if self.eat(Sym::LParen) {
            loop {
                let (name, _) = self.upper("a parameter name")?;
                self.expect(Sym::Assign)?;
                let default = self.expr()?;
                ps.push(Param { name, default });
                if !self.eat(Sym::Comma) {
                    break;
                }
            }
            self.expect(Sym::RParen)?;
        }
        Ok(ps)
    }

    // ---- primitive processes ----

    fn process(&mut self, flags: Flags) -> Result<ProcessDef, RawError> {
        let (name, pos) = self.upper("a process name or definition")?;
        if self.is(Sym::LBrack) {
            return Err(RawError::syntax(
                format!(
                    "a process name cannot be indexed (LTSA): define the indexed process as a local one, {name} = {name}[0], {name}[i:R] = (...)"
                ),
                self.pos(),
            ));
        }
        let params = self.params()?;
        self.expect(Sym::Assign)?;
        let body = self.term()?;
        let mut locals = vec![LocalDef {
            name: name.clone(),
            indices: Vec::new(),
            body,
            pos,
        }];
        while self.is(Sym::Comma) && matches!(self.tok_at(1), Tok::Upper(_)) {
            self.bump();
            let (lname, lpos) = self.upper("a local process name")?;
            let mut indices = Vec::new();
            while self.eat(Sym::LBrack) {
                indices.push(self.index()?);
                self.expect(Sym::RBrack)?;
            }
            self.expect(Sym::Assign)?;
            let body = self.term()?;
            locals.push(LocalDef {
                name: lname,
                indices,
                body,
                pos: lpos,
            });
        }
        let mut def = ProcessDef {
            name,
            pos,
            flags,
            params,
            locals,
            alpha_ext: None,
            relabel: Vec::new(),
            hide: None,
        };
        if self.eat(Sym::Plus) {
            def.alpha_ext = Some(self.set_expr()?);
        }
        while self.is(Sym::Slash) {
            def.relabel.extend(self.relabel()?);
        }
        def.hide = self.hide_spec()?;
        self.expect_end(&def.name)?;
        Ok(def)
    }

    fn hide_spec(&mut self) -> Result<Option<HideSpec>, RawError> {
        if self.eat(Sym::Backslash) {
            Ok(Some(HideSpec::Hide(self.set_expr()?)))
        } else if self.eat(Sym::At) {
            Ok(Some(HideSpec::Interface(self.set_expr()?)))
        } else {
            Ok(None)
        }
    }

    fn term(&mut self) -> Result<Term, RawError> {
        self.enter()?;
        let t = self.term_inner();
        self.leave();
        t
    }

    fn term_inner(&mut self) -> Result<Term, RawError> {
        let pos = self.pos();
        let first = self.simple_term()?;
        if !self.is(Sym::Semi) {
            return Ok(first);
        }
        let mut parts = vec![first];
        while self.eat(Sym::Semi) {
            parts.push(self.simple_term()?);
        }
        Ok(Term::Seq(parts, pos))
    }

    fn simple_term(&mut self) -> Result<Term, RawError> {
        let pos = self.pos();
        match self.tok().clone() {
            Tok::Upper(name) => {
                self.bump();
                Ok(match name.as_str() {
                    "STOP" => Term::Stop(pos),
                    "END" => Term::End(pos),
                    "ERROR" => Term::Error(pos),
                    _ => self.process_ref(name, pos)?,
                })
            }
            Tok::Sym(Sym::LParen) => {
                self.bump();
                if self.is(Sym::LParen) {
                    // Accepted (fspc reads it), but LTSA's grammar refuses it: say so, so that a
                    // model written here still opens in LTSA after a fix.
                    self.out.warnings.push((
                        "a process in double parentheses: LTSA refuses '((...))', write '(...)'"
                            .to_owned(),
                        pos,
                    ));
                }
                let t = if self.starts_term() {
                    self.term()?
                } else {
                    self.choice(pos)?
                };
                self.expect(Sym::RParen)?;
                Ok(t)
            }
            Tok::Lower(kw) if kw == "if" => self.if_term(),
            _ if self.starts_label() || self.is_kw("when") => {
                // LTSA wants parentheses around a choice; fspc does not. Accept one branch, and
                // say so for a guard, which LTSA's grammar allows only where a choice starts.
                if self.is_kw("when") {
                    self.out.warnings.push((
                        "a guard inside a sequence: LTSA refuses it, write '(when ...)'".to_owned(),
                        pos,
                    ));
                }
                let b = self.branch()?;
                Ok(Term::Choice(vec![b], pos))
            }
            _ => Err(self.unexpected("a process (STOP, END, ERROR, a name, '(' or 'if')")),
        }
    }

    fn starts_term(&self) -> bool {
        match self.tok() {
            // `(Actions -> P)`: an upper-case set name used as an action label.
            Tok::Upper(_) => !self.upper_label_ends_in(&[Sym::Arrow]),
            Tok::Sym(Sym::LParen) => true,
            _ => self.is_kw("if"),
        }
    }

    fn process_ref(&mut self, name: String, pos: Pos) -> Result<Term, RawError> {
        let mut indices = Vec::new();
        while self.eat(Sym::LBrack) {
            indices.push(self.expr()?);
            self.expect(Sym::RBrack)?;
        }
        let args = if self.eat(Sym::LParen) {
            Some(self.args()?)
        } else {
            None
        };
        Ok(Term::Ref {
            name,
            indices,
            args,
            pos,
        })
    }

    fn args(&mut self) -> Result<Vec<Expr>, RawError> {
        let mut args = Vec::new();
        if !self.is(Sym::RParen) {
            loop {
                args.push(self.expr()?);
                if !self.eat(Sym::Comma) {
                    break;
                }
            }
        }
        self.expect(Sym::RParen)?;
        Ok(args)
    }

    fn if_term(&mut self) -> Result<Term, RawError> {
        self.bump(); // 'if'
        let cond = self.expr()?;
        if !self.eat_kw("then") {
            return Err(self.unexpected("'then'"));
        }
        let then = self.term()?;
        let other = if self.eat_kw("else") {
            Some(Box::new(self.term()?))
        } else {
            None
        };
        Ok(Term::If(cond, Box::new(then), other))
    }

    fn choice(&mut self, pos: Pos) -> Result<Term, RawError> {
        let mut branches = vec![self.branch()?];
        while self.eat(Sym::Bar) {
            branches.push(self.branch()?);
        }
        Ok(Term::Choice(branches, pos))
    }

    fn branch(&mut self) -> Result<Branch, RawError> {
        let guard = if self.eat_kw("when") {
            Some(self.expr()?)
        } else {
            None
        };
        let mut actions = vec![self.label(true)?];
        self.expect(Sym::Arrow)?;
        while self.starts_label() {
            actions.push(self.label(true)?);
            self.expect(Sym::Arrow)?;
        }
        let target = self.term()?;
        Ok(Branch {
            guard,
            actions,
            target,
        })
    }

    fn starts_label(&self) -> bool {
        match self.tok() {
            Tok::Lower(s) => !matches!(s.as_str(), "if" | "when" | "forall"),
            Tok::Sym(Sym::LBrace | Sym::LBrack) | Tok::Quote(_) => true,
            _ => false,
        }
    }

    /// `fluent NAME[i:R]... = <start, end> (initially E)?`, after the keyword.
    fn fluent(&mut self, pos: Pos) -> Result<FluentSyntax, RawError> {
        let (name, _) = self.upper("a fluent name")?;
        let mut indices = Vec::new();
        while self.eat(Sym::LBrack) {
            indices.push(self.index()?);
            self.expect(Sym::RBrack)?;
        }
        self.expect(Sym::Assign)?;
        self.expect(Sym::Lt)?;
        let initiating = self.label(true)?;
        self.expect(Sym::Comma)?;
        let terminating = self.label(true)?;
        self.expect(Sym::Gt)?;
        let initially = if self.eat_kw("initially") {
            Some(self.simple_expr()?)
        } else {
            None
        };
        Ok(FluentSyntax {
            name,
            pos,
            indices,
            initiating,
            terminating,
            initially,
        })
    }

    /// `assert NAME = formula (+ set)?` (or `constraint`), after the keyword. As in LTSA the body
    /// is one unary formula (`[]f`, `(f && g)`), and no full stop ends it.
    fn assertion(&mut self, pos: Pos, constraint: bool) -> Result<AssertSyntax, RawError> {
        let (name, _) = self.upper("an assertion name")?;
        self.expect(Sym::Assign)?;
        let formula = self.ltl_unary()?;
        let extension = if self.eat(Sym::Plus) {
            Some(self.set_expr()?)
        } else {
            None
        };
        Ok(AssertSyntax {
            name,
            pos,
            constraint,
            formula,
            extension,
        })
    }

    fn ltl_or(&mut self) -> Result<FormulaSyntax, RawError> {
        let mut left = self.ltl_binary()?;
        while self.eat(Sym::BarBar) {
            let right = self.ltl_binary()?;
            left = FormulaSyntax::Binary(LtlOp::Or, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    /// One of `U`, `W`, `->`, `<->` between two conjunctions (LTSA: not associative).
    fn ltl_binary(&mut self) -> Result<FormulaSyntax, RawError> {
        let left = self.ltl_and()?;
        let op = match self.tok() {
            Tok::Upper(u) if u == "U" => LtlOp::Until,
            Tok::Upper(w) if w == "W" => LtlOp::WeakUntil,
            Tok::Sym(Sym::Arrow) => LtlOp::Implies,
            Tok::Sym(Sym::Lt) if *self.tok_at(1) == Tok::Sym(Sym::Arrow) => {
                self.bump();
                LtlOp::Iff
            }
            _ => return Ok(left),
        };
        self.bump();
        let right = self.ltl_and()?;
        Ok(FormulaSyntax::Binary(op, Box::new(left), Box::new(right)))
    }

    fn ltl_and(&mut self) -> Result<FormulaSyntax, RawError> {
        let mut left = self.ltl_unary()?;
        while self.eat(Sym::AndAnd) {
            let right = self.ltl_unary()?;
            left = FormulaSyntax::Binary(LtlOp::And, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    /// `[i:R]...` after a name or quantifier; `[]` (always) is not an index.
    fn ltl_indices(&mut self) -> Result<Vec<Index>, RawError> {
        let mut indices = Vec::new();
        while self.is(Sym::LBrack) && *self.tok_at(1) != Tok::Sym(Sym::RBrack) {
            self.bump();
            indices.push(self.index()?);
            self.expect(Sym::RBrack)?;
        }
        Ok(indices)
    }

    fn ltl_unary(&mut self) -> Result<FormulaSyntax, RawError> {
        self.enter()?;
        let f = self.ltl_unary_inner();
        self.leave();
        f
    }

    fn ltl_unary_inner(&mut self) -> Result<FormulaSyntax, RawError> {
        let pos = self.pos();
        let unary = match (self.tok(), self.tok_at(1)) {
            (Tok::Sym(Sym::Bang), _) => Some((LtlOp::Not, 1)),
            (Tok::Upper(x), _) if x == "X" => Some((LtlOp::Next, 1)),
            (Tok::Sym(Sym::LBrack), Tok::Sym(Sym::RBrack)) => Some((LtlOp::Always, 2)),
            (Tok::Sym(Sym::Lt), Tok::Sym(Sym::Gt)) => Some((LtlOp::Eventually, 2)),
            _ => None,
        };
        if let Some((op, len)) = unary {
            for _ in 0..len {
                self.bump();
            }
            return Ok(FormulaSyntax::Unary(op, Box::new(self.ltl_unary()?)));
        }
        match self.tok().clone() {
            Tok::Sym(Sym::LParen) => {
                self.bump();
                let f = self.ltl_or()?;
                self.expect(Sym::RParen)?;
                Ok(f)
            }
            Tok::Upper(name) => {
                self.bump();
                let indices = self.ltl_indices()?;
                Ok(FormulaSyntax::Name { name, indices, pos })
            }
            Tok::Lower(q)
                if (q == "forall" || q == "exists") && *self.tok_at(1) == Tok::Sym(Sym::LBrack) =>
            {
                self.bump();
                let indices = self.ltl_indices()?;
                let body = Box::new(self.ltl_unary()?);
                Ok(FormulaSyntax::Quantified {
                    all: q == "forall",
                    indices,
                    body,
                })
            }
            Tok::Lower(_) | Tok::Quote(_) | Tok::Int(_) | Tok::Sym(Sym::LBrace | Sym::LBrack) => {
                Ok(FormulaSyntax::Action(self.label(true)?))
            }
            _ => Err(self.unexpected("an LTL formula")),
        }
    }

    // ---- labels and sets ----

    /// Parses an action label. `in_set` allows upper-case set names as label parts.
    fn label(&mut self, in_set: bool) -> Result<Label, RawError> {
        self.enter()?;
        let l = self.label_inner(in_set);
        self.leave();
        l
    }

    fn label_inner(&mut self, in_set: bool) -> Result<Label, RawError> {
        let pos = self.pos();
        if self.is_kw("tau") {
            // LTSA's rule: tau is the internal action, never written.
            return Err(RawError::syntax(
                "'tau' cannot be used as an action label",
                pos,
            ));
        }
        let mut segs = vec![self.label_element(in_set)?];
        loop {
            if self.is(Sym::Dot) && self.label_element_follows(in_set) {
                self.bump();
                segs.push(self.label_element(in_set)?);
            } else if self.eat(Sym::LBrack) {
                segs.push(Seg::Index(self.index()?));
                self.expect(Sym::RBrack)?;
            } else {
                return Ok(Label { segs, pos });
            }
        }
    }

    fn label_element_follows(&self, in_set: bool) -> bool {
        match self.tok_at(1) {
            Tok::Lower(_) | Tok::Sym(Sym::LBrace | Sym::LBrack) | Tok::Int(_) => true,
            Tok::Upper(_) => in_set,
            _ => false,
        }
    }

    /// One element of a label; a set-valued one (`{..}`, or a set name inside a set) may be
    /// followed by `\ set`, LTSA's set difference, which binds before any `.` or `[..]` that
    /// follows (`S\{a}.x` is `(S\{a}).x`, as in LTSA's `labelElement`).
    fn label_element(&mut self, in_set: bool) -> Result<Seg, RawError> {
        let pos = self.pos();
        let seg = self.label_element_alone(in_set)?;
        let set_valued = matches!(&seg, Seg::Set(_))
            || matches!(&seg, Seg::Name(n, _) if n.starts_with(|c: char| c.is_ascii_uppercase()));
        if !(set_valued && self.eat(Sym::Backslash)) {
            return Ok(seg);
        }
        let minus = self.set_expr()?;
        let label = Label {
            segs: vec![seg],
            pos,
        };
        Ok(Seg::Set(SetExpr::Literal(vec![SetElem {
            label,
            minus: Some(minus),
        }])))
    }

    fn label_element_alone(&mut self, in_set: bool) -> Result<Seg, RawError> {
        let pos = self.pos();
        match self.tok().clone() {
            Tok::Lower(s) | Tok::Quote(s) => {
                self.bump();
                Ok(Seg::Name(s, pos))
            }
            Tok::Int(n) => {
                self.bump();
                Ok(Seg::Name(n.to_string(), pos))
            }
            Tok::Upper(s) if in_set => {
                self.bump();
                Ok(Seg::Name(s, pos))
            }
            Tok::Sym(Sym::LBrace) => Ok(Seg::Set(self.set_literal()?)),
            Tok::Sym(Sym::LBrack) => {
                self.bump();
                let ix = self.index()?;
                self.expect(Sym::RBrack)?;
                Ok(Seg::Index(ix))
            }
            _ => Err(self.unexpected("an action label")),
        }
    }

    fn index(&mut self) -> Result<Index, RawError> {
        if let (Tok::Lower(v), Tok::Sym(Sym::Colon)) = (self.tok().clone(), self.tok_at(1)) {
            self.bump();
            self.bump();
            return Ok(Index::Binder(v, self.range_spec()?));
        }
        if self.is(Sym::LBrace) {
            return Ok(Index::Set(self.set_literal()?));
        }
        let e = self.expr()?;
        if self.eat(Sym::DotDot) {
            let hi = self.expr()?;
            return Ok(Index::Range(e, hi));
        }
        Ok(Index::Expr(e))
    }

    fn range_spec(&mut self) -> Result<RangeSpec, RawError> {
        if self.is(Sym::LBrace) {
            return Ok(RangeSpec::Set(self.set_literal()?));
        }
        if let Tok::Upper(name) = self.tok().clone()
            && matches!(self.tok_at(1), Tok::Sym(Sym::RBrack))
        {
            let pos = self.pos();
            self.bump();
            return Ok(RangeSpec::Named(name, pos));
        }
        let lo = self.expr()?;
        self.expect(Sym::DotDot)?;
        let hi = self.expr()?;
        Ok(RangeSpec::Bounds(lo, hi))
    }

    fn set_expr(&mut self) -> Result<SetExpr, RawError> {
        if let Tok::Upper(name) = self.tok().clone() {
            let pos = self.pos();
            self.bump();
            return Ok(SetExpr::Named(name, pos));
        }
        self.set_literal()
    }

    fn set_literal(&mut self) -> Result<SetExpr, RawError> {
        self.enter()?;
        self.expect(Sym::LBrace)?;
        let mut labels = Vec::new();
        if !self.is(Sym::RBrace) {
            loop {
                let label = self.label(true)?;
                let minus = if self.eat(Sym::Backslash) {
                    Some(self.set_expr()?)
                } else {
                    None
                };
                labels.push(SetElem { label, minus });
                if !self.eat(Sym::Comma) {
                    break;
                }
            }
        }
        self.expect(Sym::RBrace)?;
        self.leave();
        Ok(SetExpr::Literal(labels))
    }

    fn relabel(&mut self) -> Result<Vec<RelabelItem>, RawError> {
        self.expect(Sym::Slash)?;
        self.relabel_block()
    }

    fn relabel_block(&mut self) -> Result<Vec<RelabelItem>, RawError> {
        self.enter()?;
        self.expect(Sym::LBrace)?;
        let mut items = Vec::new();
        if !self.is(Sym::RBrace) {
            loop {
                items.push(self.relabel_item()?);
                if !self.eat(Sym::Comma) {
                    break;
                }
            }
        }
        self.expect(Sym::RBrace)?;
        self.leave();
        Ok(items)
    }

    fn relabel_item(&mut self) -> Result<RelabelItem, RawError> {
        if self.eat_kw("forall") {
            let ix = self.binders()?;
            return Ok(RelabelItem::Forall(ix, self.relabel_block()?));
        }
        let new = self.label(true)?;
        self.expect(Sym::Slash)?;
        let old = self.label(true)?;
        Ok(RelabelItem::Pair { new, old })
    }

    fn binders(&mut self) -> Result<Vec<Index>, RawError> {
        let mut ix = Vec::new();
        while self.eat(Sym::LBrack) {
            ix.push(self.index()?);
            self.expect(Sym::RBrack)?;
        }
        if ix.is_empty() {
            return Err(self.unexpected("'['"));
        }
        Ok(ix)
    }

    // ---- composites ----

    fn composite(&mut self, flags: Flags, pos: Pos) -> Result<CompositeDef, RawError> {
        let (name, _) = self.upper("a composite name")?;
        let params = self.params()?;
        self.expect(Sym::Assign)?;
        let body = self.cbody()?;
        let mut priority = None;
        let mut hide = None;
        loop {
            if self.is(Sym::Shl) || self.is(Sym::Shr) {
                let high = self.is(Sym::Shl);
                self.bump();
                priority = Some(PrioritySpec {
                    high,
                    set: self.set_expr()?,
                });
            } else if let Some(h) = self.hide_spec()? {
                hide = Some(h);
            } else {
                break;
            }
        }
        self.expect_end(&name)?;
        Ok(CompositeDef {
            name,
            pos,
            flags,
            params,
            body,
            priority,
            hide,
        })
    }

    fn cbody(&mut self) -> Result<CBody, RawError> {
        self.enter()?;
        let b = self.cbody_inner();
        self.leave();
        b
    }

    fn starts_prefix_label(&self) -> bool {
        match self.tok() {
            Tok::Upper(_) => self.upper_label_ends_in(&[Sym::Colon, Sym::ColonColon]),
            _ => self.starts_label(),
        }
    }

    /// Whether the tokens from here form `Name(.name)*` (brackets skipped) followed by one of
    /// `ends`: an upper-case set name used as a label rather than a process name.
    fn upper_label_ends_in(&self, ends: &[Sym]) -> bool {
        let mut k = 0;
        loop {
            if !matches!(self.tok_at(k), Tok::Upper(_) | Tok::Lower(_)) {
                return false;
            }
            k += 1;
            let mut depth = 0usize;
            while *self.tok_at(k) == Tok::Sym(Sym::LBrack) || depth > 0 {
                match self.tok_at(k) {
                    Tok::Sym(Sym::LBrack) => depth += 1,
                    Tok::Sym(Sym::RBrack) => depth -= 1,
                    Tok::Eof => return false,
                    _ => {}
                }
                k += 1;
            }
            match self.tok_at(k) {
                Tok::Sym(Sym::Dot) => k += 1,
                Tok::Sym(s) if ends.contains(s) => return true,
                _ => return false,
            }
        }
    }

    fn cbody_inner(&mut self) -> Result<CBody, RawError> {
        // Relabelling applies to the labelled process: `p:(P||Q)/{x/y}` relabels `p.x`... (as
        // LTSA and fspc read it).
        let mut body = self.labelled()?;
        while self.is(Sym::Slash) {
            let items = self.relabel()?;
            body = CBody::Relabel(Box::new(body), items);
        }
        Ok(body)
    }

    fn labelled(&mut self) -> Result<CBody, RawError> {
        if !self.starts_prefix_label() {
            return self.cprimary();
        }
        self.enter()?;
        let label = self.label(true)?;
        let share = if self.eat(Sym::ColonColon) {
            true
        } else {
            self.expect(Sym::Colon)?;
            false
        };
        let body = self.labelled()?;
        self.leave();
        Ok(CBody::Labelled {
            label,
            share,
            body: Box::new(body),
        })
    }

    fn cprimary(&mut self) -> Result<CBody, RawError> {
        let pos = self.pos();
        if self.eat_kw("forall") {
            let ix = self.binders()?;
            return Ok(CBody::Forall(ix, Box::new(self.cbody()?)));
        }
        if self.eat_kw("if") {
            let cond = self.expr()?;
            if !self.eat_kw("then") {
                return Err(self.unexpected("'then'"));
            }
            let then = self.cbody()?;
            let other = if self.eat_kw("else") {
                Some(Box::new(self.cbody()?))
            } else {
                None
            };
            return Ok(CBody::If(cond, Box::new(then), other));
        }
        if self.eat(Sym::LParen) {
            let mut parts = vec![self.cbody()?];
            while self.eat(Sym::BarBar) {
                parts.push(self.cbody()?);
            }
            self.expect(Sym::RParen)?;
            return Ok(if parts.len() == 1 {
                parts.remove(0)
            } else {
                CBody::Par(parts)
            });
        }
        let (name, _) = self.upper("a process or composite name")?;
        let args = if self.eat(Sym::LParen) {
            self.args()?
        } else {
            Vec::new()
        };
        Ok(CBody::Ref { name, args, pos })
    }

    // ---- expressions ----

    pub(crate) fn expr(&mut self) -> Result<Expr, RawError> {
        self.expr_at(0)
    }

    /// LTSA's simple expression: arithmetic only (`+ - * / %`, unary minus, parentheses), as a
    /// `const` or `range` definition takes it. `const N = 3` followed by `||S = ...` ends at `3`,
    /// and `const N = 3 < 4` is an error at `<`.
    fn simple_expr(&mut self) -> Result<Expr, RawError> {
        self.expr_at(ADDITIVE)
    }

    /// An expression whose loosest operator is at precedence `level` of [`Self::binary`] (0:
    /// the conditional `?:` and every operator).
    fn expr_at(&mut self, level: usize) -> Result<Expr, RawError> {
        self.enter()?;
        self.expr_depth += 1;
        if self.expr_depth > MAX_EXPR_DEPTH {
            return Err(RawError::new(
                ErrorKind::TooDeep(format!(
                    "expression nesting deeper than {MAX_EXPR_DEPTH} levels"
                )),
                self.pos(),
            ));
        }
        let e = if level == 0 {
            self.cond_expr()
        } else {
            self.binary(level)
        };
        self.expr_depth -= 1;
        self.leave();
        e
    }

    fn cond_expr(&mut self) -> Result<Expr, RawError> {
        let c = self.binary(0)?;
        if !self.eat(Sym::Question) {
            return Ok(c);
        }
        let pos = c.pos;
        let a = self.expr()?;
        self.expect(Sym::Colon)?;
        let b = self.expr()?;
        Ok(Expr {
            kind: ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)),
            pos,
        })
    }

    /// Precedence climbing over the binary operators; level 0 binds loosest.
    fn binary(&mut self, level: usize) -> Result<Expr, RawError> {
        const LEVELS: [&[(Sym, BinOp)]; 9] = [
            &[(Sym::BarBar, BinOp::Or)],
            &[(Sym::AndAnd, BinOp::And)],
            &[(Sym::Caret, BinOp::BitXor)],
            &[(Sym::Amp, BinOp::BitAnd)],
            &[(Sym::EqEq, BinOp::Eq), (Sym::NotEq, BinOp::Ne)],
            &[
                (Sym::Lt, BinOp::Lt),
                (Sym::Le, BinOp::Le),
                (Sym::Gt, BinOp::Gt),
                (Sym::Ge, BinOp::Ge),
            ],
            &[(Sym::Shl, BinOp::Shl), (Sym::Shr, BinOp::Shr)],
            &[(Sym::Plus, BinOp::Add), (Sym::Minus, BinOp::Sub)],
            &[
                (Sym::Star, BinOp::Mul),
                (Sym::Slash, BinOp::Div),
                (Sym::Percent, BinOp::Rem),
            ],
        ];
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut lhs = self.binary(level + 1)?;
        let mut chain = 0usize;
        'outer: loop {
            for &(sym, op) in LEVELS[level] {
                if self.is(sym) {
                    chain += 1;
                    if chain > MAX_CHAIN {
                        return Err(RawError::new(
                            ErrorKind::TooDeep(format!("more than {MAX_CHAIN} operators in a row")),
                            self.pos(),
                        ));
                    }
                    self.bump();
                    let rhs = self.binary(level + 1)?;
                    let pos = lhs.pos;
                    lhs = Expr {
                        kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                        pos,
                    };
                    continue 'outer;
                }
            }
            return Ok(lhs);
        }
    }

    fn unary(&mut self) -> Result<Expr, RawError> {
        let pos = self.pos();
        let op = if self.eat(Sym::Minus) {
            Some(UnOp::Neg)
        } else if self.eat(Sym::Bang) {
            Some(UnOp::Not)
        } else {
            self.eat(Sym::Plus);
            None
        };
        if let Some(op) = op {
            let e = self.unary_nested()?;
            return Ok(Expr {
                kind: ExprKind::Unary(op, Box::new(e)),
                pos,
            });
        }
        self.primary()
    }

    /// The operand of a unary operator: counted like a parenthesis.
    fn unary_nested(&mut self) -> Result<Expr, RawError> {
        self.expr_depth += 1;
        if self.expr_depth > MAX_EXPR_DEPTH {
            return Err(RawError::new(
                ErrorKind::TooDeep(format!(
                    "expression nesting deeper than {MAX_EXPR_DEPTH} levels"
                )),
                self.pos(),
            ));
        }
        let e = self.unary();
        self.expr_depth -= 1;
        e
    }

    fn primary(&mut self) -> Result<Expr, RawError> {
        let pos = self.pos();
        let kind = match self.tok().clone() {
            Tok::Int(n) => ExprKind::Int(n),
            Tok::Quote(s) => ExprKind::Quote(s),
            Tok::Upper(s) => ExprKind::Ident(s),
            Tok::Lower(s) if !matches!(s.as_str(), "then" | "else") => ExprKind::Ident(s),
            Tok::Sym(Sym::LParen) => {
                self.bump();
                let e = self.expr()?;
                self.expect(Sym::RParen)?;
                return Ok(e);
            }
            _ => return Err(self.unexpected("an expression")),
        };
        self.bump();
        Ok(Expr { kind, pos })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn parse(src: &str) -> Result<ParsedFile, RawError> {
        parse_tokens(&lex(src).unwrap())
    }

    #[test]
    fn parses_process_with_locals_and_suffixes() {
        let f = parse("const N = 2 P = (a[i:0..N] -> Q[i]), Q[j:0..N] = (b -> P)+{c}/{x/a}\\{b}.")
            .unwrap();
        assert_eq!(f.processes.len(), 1);
        assert_eq!(f.processes[0].locals.len(), 2);
        assert!(f.processes[0].alpha_ext.is_some());
    }

    #[test]
    fn parses_composite() {
        let f = parse("||S = (a:P || {x,y}::Q(2) || forall[i:1..2] R/{n/m}) << {a} @{a}.").unwrap();
        assert_eq!(f.composites.len(), 1);
        assert!(f.composites[0].priority.is_some());
    }

    #[test]
    fn deep_nesting_is_an_error() {
        let src = format!(
            "P = {}a -> STOP{}.",
            "(".repeat(100_000),
            ")".repeat(100_000)
        );
        // As the crate's entry points do: on the front end's deep stack.
        let err = crate::stack::on_deep_stack(|| parse(&src).map(|_| ()).unwrap_err());
        assert!(matches!(err.kind, ErrorKind::TooDeep(_)));
    }
}
