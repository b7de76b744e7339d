//! Recursive-descent parser with name resolution and type checking on the fly.

use std::collections::{BTreeSet, HashMap};

use guarantor_lts::{LtsBuilder, StateId};

use super::SyntaxError;
use super::lexer::{Tok, Token, error_at, lex};
use crate::formula::{Affine, Formula, Sym, Term};
use crate::program::{Component, Program, Property, Transition, Type, Value, Variable};

const KEYWORDS: &[&str] = &[
    "global",
    "pred",
    "component",
    "property",
    "var",
    "loc",
    "init",
    "error",
    "on",
    "when",
    "do",
    "alphabet",
    "int",
    "bool",
    "true",
    "false",
    "tau",
];

struct Parser<'s> {
    src: &'s str,
    file: &'s str,
    toks: Vec<Token>,
    pos: usize,
    sys: Program,
    /// Names in scope: globals, plus the current component's locals.
    scope: HashMap<String, usize>,
    component: Option<usize>,
}

type R<T> = Result<T, SyntaxError>;

pub(crate) fn parse(src: &str, file: &str) -> Result<Program, SyntaxError> {
    let mut p = Parser {
        src,
        file,
        toks: lex(src, file)?,
        pos: 0,
        sys: Program {
            vars: Vec::new(),
            components: Vec::new(),
            properties: Vec::new(),
            predicates: Vec::new(),
        },
        scope: HashMap::new(),
        component: None,
    };
    while p.peek() != &Tok::Eof {
        p.item()?;
    }
    Ok(p.sys)
}

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos].tok
    }

    fn here(&self) -> (usize, usize) {
        let t = &self.toks[self.pos];
        (t.line, t.col)
    }

    fn err_at<T>(&self, (line, col): (usize, usize), message: impl Into<String>) -> R<T> {
        Err(error_at(self.src, self.file, line, col, message.into()))
    }

    fn err<T>(&self, message: impl Into<String>) -> R<T> {
        self.err_at(self.here(), message)
    }

    fn describe(&self) -> String {
        match self.peek() {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Int(v) => format!("`{v}`"),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::Eof => "end of file".into(),
        }
    }

    fn bump(&mut self) -> Tok {
        let t = self.toks[self.pos].tok.clone();
        if t != Tok::Eof {
            self.pos += 1;
        }
        t
    }

    fn eat(&mut self, p: &str) -> bool {
        if matches!(self.peek(), Tok::Punct(q) if *q == p) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, p: &str) -> R<()> {
        if self.eat(p) {
            Ok(())
        } else {
            self.err(format!("expected `{p}`, found {}", self.describe()))
        }
    }

    fn is_kw(&self, kw: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == kw)
    }

    fn eat_kw(&mut self, kw: &str) -> bool {
        if self.is_kw(kw) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// An identifier that is not a keyword.
    fn name(&mut self, what: &str) -> R<(String, (usize, usize))> {
        let at = self.here();
        match self.peek().clone() {
            Tok::Ident(s) if !KEYWORDS.contains(&s.as_str()) => {
                self.pos += 1;
                Ok((s, at))
            }
            _ => self.err(format!("expected {what}, found {}", self.describe())),
        }
    }

    fn item(&mut self) -> R<()> {
        if self.eat_kw("global") {
            self.decl(None)?;
            return self.expect(";");
        }
        if self.eat_kw("pred") {
            let f = self.predicate()?;
            self.sys.predicates.push(f);
            return Ok(());
        }
        if self.eat_kw("component") {
            return self.component();
        }
        if self.eat_kw("property") {
            return self.property();
        }
        self.err(format!(
            "expected `global`, `pred`, `component` or `property`, found {}",
            self.describe()
        ))
    }

    fn decl(&mut self, owner: Option<usize>) -> R<()> {
        let (name, at) = self.name("a variable name")?;
        if self.scope.contains_key(&name) {
            return self.err_at(at, format!("`{name}` is already declared"));
        }
        self.expect(":")?;
        let ty = if self.eat_kw("int") {
            Type::Int
        } else if self.eat_kw("bool") {
            Type::Bool
        } else {
            return self.err(format!(
                "expected `int` or `bool`, found {}",
                self.describe()
            ));
        };
        let init = if self.eat("=") {
            Some(self.literal(ty)?)
        } else {
            None
        };
        self.scope.insert(name.clone(), self.sys.vars.len());
        self.sys.vars.push(Variable {
            name,
            ty,
            owner,
            init,
        });
        Ok(())
    }

    fn literal(&mut self, ty: Type) -> R<Value> {
        let at = self.here();
        let negative = self.eat("-");
        match (self.bump(), ty) {
            (Tok::Int(v), Type::Int) => Ok(Value::Int(if negative { -v } else { v })),
            (Tok::Ident(s), Type::Bool) if !negative && (s == "true" || s == "false") => {
                Ok(Value::Bool(s == "true"))
            }
            _ => self.err_at(
                at,
                format!(
                    "expected {} constant",
                    if ty == Type::Int {
                        "an integer"
                    } else {
                        "a boolean"
                    }
                ),
            ),
        }
    }

    /// `pred <formula>;` — every atom of the formula becomes a predicate.
    fn predicate(&mut self) -> R<Formula> {
        let at = self.here();
        let f = self.bool_expr()?;
        self.expect(";")?;
        if f.atoms().is_empty() {
            return self.err_at(at, "a predicate must mention a variable");
        }
        // Mixed atoms cannot be tracked soundly (the abstraction module says why).
        for a in f.atoms() {
            let owners: BTreeSet<Option<usize>> = Formula::Atom(a)
                .syms()
                .iter()
                .filter_map(|s| self.sys.vars.get(s.0 as usize))
                .map(|v| v.owner)
                .collect();
            if owners.len() > 1 {
                return self.err_at(
                    at,
                    "this predicate mixes the component's local variables with global \
                     variables; a predicate must be over one component's variables or over \
                     globals only",
                );
            }
        }
        Ok(f)
    }

    fn component(&mut self) -> R<()> {
        let (name, at) = self.name("a component name")?;
        if self.sys.components.iter().any(|c| c.name == name) {
            return self.err_at(at, format!("component `{name}` is already declared"));
        }
        let index = self.sys.components.len();
        self.component = Some(index);
        let globals = self.scope.clone();
        self.sys.components.push(Component {
            name,
            locations: Vec::new(),
            initial: 0,
            error_locations: Vec::new(),
            transitions: Vec::new(),
            predicates: Vec::new(),
        });
        self.expect("{")?;
        let mut init: Option<(usize, (usize, usize))> = None;
        while !self.eat("}") {
            if self.eat_kw("var") {
                loop {
                    self.decl(Some(index))?;
                    if !self.eat(",") {
                        break;
                    }
                }
                self.expect(";")?;
            } else if self.eat_kw("loc") {
                loop {
                    let (l, at) = self.name("a location name")?;
                    if self.comp().locations.contains(&l) {
                        return self.err_at(at, format!("location `{l}` is already declared"));
                    }
                    self.comp_mut().locations.push(l);
                    if !self.eat(",") {
                        break;
                    }
                }
                self.expect(";")?;
            } else if self.eat_kw("init") {
                let at = self.here();
                init = Some((self.location()?, at));
                self.expect(";")?;
            } else if self.eat_kw("error") {
                loop {
                    let l = self.location()?;
                    self.comp_mut().error_locations.push(l);
                    if !self.eat(",") {
                        break;
                    }
                }
                self.expect(";")?;
            } else if self.eat_kw("pred") {
                let f = self.predicate()?;
                self.comp_mut().predicates.push(f);
            } else if matches!(self.peek(), Tok::Eof) {
                return self.err("expected `}`, found end of file");
            } else {
                self.transition()?;
            }
        }
        if self.comp().locations.is_empty() {
            return self.err_at(at, "a component needs at least one location (`loc ...;`)");
        }
        if let Some((l, _)) = init {
            self.comp_mut().initial = l;
        }
        self.scope = globals;
        self.component = None;
        Ok(())
    }

    fn comp(&self) -> &Component {
        &self.sys.components[self.component.unwrap_or(0)]
    }

    fn comp_mut(&mut self) -> &mut Component {
        let i = self.component.unwrap_or(0);
        &mut self.sys.components[i]
    }

    fn location(&mut self) -> R<usize> {
        let (l, at) = self.name("a location name")?;
        match self.comp().locations.iter().position(|x| *x == l) {
            Some(i) => Ok(i),
            None => self.err_at(
                at,
                format!("unknown location `{l}` (declare it with `loc`)"),
            ),
        }
    }

    fn transition(&mut self) -> R<()> {
        let line = self.here().0;
        let from = self.location()?;
        self.expect("->")?;
        let to = self.location()?;
        let action = if self.eat_kw("on") {
            if self.eat_kw("tau") {
                None
            } else {
                Some(self.name("an action name")?.0)
            }
        } else {
            None
        };
        let guard = if self.eat_kw("when") {
            self.bool_expr()?
        } else {
            Formula::TRUE
        };
        let mut assignments: Vec<(usize, Term)> = Vec::new();
        if self.eat_kw("do") {
            loop {
                let (x, at) = self.name("a variable name")?;
                let Some(&v) = self.scope.get(&x) else {
                    return self.err_at(at, format!("unknown variable `{x}`"));
                };
                if assignments.iter().any(|a| a.0 == v) {
                    return self.err_at(at, format!("`{x}` is assigned twice in one transition"));
                }
                self.expect(":=")?;
                let eat = self.here();
                let t = self.expr()?;
                let ok = matches!(
                    (&t, self.sys.vars[v].ty),
                    (Term::Int(_), Type::Int) | (Term::Bool(_), Type::Bool)
                );
                if !ok {
                    return self.err_at(
                        eat,
                        format!("type mismatch: `{x}` is {}", ty_name(self.sys.vars[v].ty)),
                    );
                }
                assignments.push((v, t));
                if !self.eat(",") {
                    break;
                }
            }
        }
        self.expect(";")?;
        self.comp_mut().transitions.push(Transition {
            from,
            to,
            action,
            guard,
            assignments,
            line,
        });
        Ok(())
    }

    fn property(&mut self) -> R<()> {
        let (name, _) = self.name("a property name")?;
        self.expect("{")?;
        let mut states: Vec<String> = Vec::new();
        let mut alphabet: BTreeSet<String> = BTreeSet::new();
        let mut edges = Vec::new();
        let state = |s: String, states: &mut Vec<String>| {
            states.iter().position(|x| *x == s).unwrap_or_else(|| {
                states.push(s);
                states.len() - 1
            })
        };
        while !self.eat("}") {
            if self.eat_kw("alphabet") {
                loop {
                    alphabet.insert(self.name("an action name")?.0);
                    if !self.eat(",") {
                        break;
                    }
                }
            } else if matches!(self.peek(), Tok::Eof) {
                return self.err("expected `}`, found end of file");
            } else {
                let s = state(self.name("a state name")?.0, &mut states);
                self.expect("->")?;
                let t = state(self.name("a state name")?.0, &mut states);
                if !self.eat_kw("on") {
                    return self.err(format!("expected `on`, found {}", self.describe()));
                }
                let (a, at) = self.name("an action name")?;
                if edges
                    .iter()
                    .any(|&(s2, ref a2, t2, _)| s2 == s && *a2 == a && t2 != t)
                {
                    return self.err_at(
                        at,
                        format!("property `{name}` is not deterministic on `{a}`"),
                    );
                }
                edges.push((s, a, t, at));
            }
            self.expect(";")?;
        }
        let mut b = LtsBuilder::new();
        let lts_err =
            |e: guarantor_lts::LtsError| error_at(self.src, self.file, 1, 1, e.to_string());
        b.ensure_states(states.len().max(1)).map_err(lts_err)?;
        for a in &alphabet {
            b.action(a).map_err(lts_err)?;
        }
        for (s, a, t, _) in &edges {
            b.add_transition_named(StateId::must(*s), a, StateId::must(*t))
                .map_err(lts_err)?;
        }
        let lts = b.build().map_err(lts_err)?;
        self.sys.properties.push(Property { name, lts });
        Ok(())
    }

    // ---- expressions ----

    fn bool_expr(&mut self) -> R<Formula> {
        let at = self.here();
        match self.expr()? {
            Term::Bool(f) => Ok(f),
            Term::Int(_) => self.err_at(at, "expected a boolean expression, found an integer one"),
        }
    }

    fn expr(&mut self) -> R<Term> {
        let at = self.here();
        let lhs = self.or()?;
        if self.eat("=>") {
            let rat = self.here();
            let rhs = self.expr()?;
            let a = self.as_bool(lhs, at)?;
            let b = self.as_bool(rhs, rat)?;
            return Ok(Term::Bool(Formula::implies(a, b)));
        }
        Ok(lhs)
    }

    fn as_bool(&self, t: Term, at: (usize, usize)) -> R<Formula> {
        match t {
            Term::Bool(f) => Ok(f),
            Term::Int(_) => self.err_at(at, "expected a boolean operand, found an integer"),
        }
    }

    fn as_int(&self, t: Term, at: (usize, usize)) -> R<Affine> {
        match t {
            Term::Int(a) => Ok(a),
            Term::Bool(_) => self.err_at(at, "expected an integer operand, found a boolean"),
        }
    }

    fn or(&mut self) -> R<Term> {
        self.chain("||", Self::and, Formula::or)
    }

    fn and(&mut self) -> R<Term> {
        self.chain("&&", Self::not, Formula::and)
    }

    fn chain(
        &mut self,
        op: &str,
        next: fn(&mut Self) -> R<Term>,
        join: fn(Vec<Formula>) -> Formula,
    ) -> R<Term> {
        let at = self.here();
        let first = next(self)?;
        if !matches!(self.peek(), Tok::Punct(p) if *p == op) {
            return Ok(first);
        }
        let mut parts = vec![self.as_bool(first, at)?];
        while self.eat(op) {
            let at = self.here();
            let t = next(self)?;
            parts.push(self.as_bool(t, at)?);
        }
        Ok(Term::Bool(join(parts)))
    }

    fn not(&mut self) -> R<Term> {
        let at = self.here();
        if self.eat("!") {
            let t = self.not()?;
            return Ok(Term::Bool(self.as_bool(t, at)?.negate()));
        }
        self.cmp()
    }

    fn cmp(&mut self) -> R<Term> {
        let at = self.here();
        let lhs = self.sum()?;
        let op = match self.peek() {
            Tok::Punct(p @ ("==" | "!=" | "<" | "<=" | ">" | ">=")) => *p,
            _ => return Ok(lhs),
        };
        let opat = self.here();
        self.pos += 1;
        let rat = self.here();
        let rhs = self.sum()?;
        let overflow = |s: &Self| s.err_at(opat, "integer overflow in constant arithmetic");
        if let (Term::Bool(a), Term::Bool(b)) = (&lhs, &rhs) {
            return match op {
                "==" => Ok(Term::Bool(Formula::iff(a.clone(), b.clone()))),
                "!=" => Ok(Term::Bool(Formula::iff(a.clone(), b.clone()).negate())),
                _ => self.err_at(opat, format!("`{op}` needs integer operands")),
            };
        }
        let a = self.as_int(lhs, at)?;
        let b = self.as_int(rhs, rat)?;
        let f = match op {
            "==" => Formula::eq(&a, &b),
            "!=" => Formula::eq(&a, &b).map(Formula::negate),
            "<" => Formula::lt(&a, &b),
            "<=" => Formula::le(&a, &b),
            ">" => Formula::lt(&b, &a),
            _ => Formula::le(&b, &a),
        };
        f.map(Term::Bool).or_else(|_| overflow(self))
    }

    fn sum(&mut self) -> R<Term> {
        let at = self.here();
        let mut acc = self.product()?;
        loop {
            let opat = self.here();
            let sign = if self.eat("+") {
                1
            } else if self.eat("-") {
                -1
            } else {
                return Ok(acc);
            };
            let rat = self.here();
            let rhs = self.product()?;
            let a = self.as_int(acc, at)?;
            let b = self.as_int(rhs, rat)?;
            let r = b.scale(sign).and_then(|b| a.add(&b));
            acc = Term::Int(
                r.or_else(|_| self.err_at(opat, "integer overflow in constant arithmetic"))?,
            );
        }
    }

    fn product(&mut self) -> R<Term> {
        let at = self.here();
        let mut acc = self.unary()?;
        loop {
            let opat = self.here();
            if !self.eat("*") {
                return Ok(acc);
            }
            let rat = self.here();
            let rhs = self.unary()?;
            let a = self.as_int(acc, at)?;
            let b = self.as_int(rhs, rat)?;
            let r = match (a.as_constant(), b.as_constant()) {
                (Some(k), _) => b.scale(k),
                (_, Some(k)) => a.scale(k),
                (None, None) => {
                    return self.err_at(
                        opat,
                        "nonlinear multiplication: one side must be a constant",
                    );
                }
            };
            acc = Term::Int(
                r.or_else(|_| self.err_at(opat, "integer overflow in constant arithmetic"))?,
            );
        }
    }

    fn unary(&mut self) -> R<Term> {
        let at = self.here();
        if self.eat("-") {
            let t = self.unary()?;
            let a = self.as_int(t, at)?;
            return Ok(Term::Int(
                a.scale(-1)
                    .or_else(|_| self.err_at(at, "integer overflow"))?,
            ));
        }
        self.atom()
    }

    fn atom(&mut self) -> R<Term> {
        let at = self.here();
        match self.peek().clone() {
            Tok::Int(v) => {
                self.pos += 1;
                Ok(Term::Int(Affine::constant(v)))
            }
            Tok::Ident(s) if s == "true" || s == "false" => {
                self.pos += 1;
                Ok(Term::Bool(Formula::Const(s == "true")))
            }
            Tok::Ident(s) if !KEYWORDS.contains(&s.as_str()) => {
                self.pos += 1;
                let Some(&v) = self.scope.get(&s) else {
                    return self.err_at(at, format!("unknown variable `{s}`"));
                };
                let sym = Sym(v as u32);
                Ok(match self.sys.vars[v].ty {
                    Type::Int => Term::Int(Affine::var(sym)),
                    Type::Bool => Term::Bool(Formula::bool_var(sym)),
                })
            }
            Tok::Punct("(") => {
                self.pos += 1;
                let t = self.expr()?;
                self.expect(")")?;
                Ok(t)
            }
            _ => self.err(format!("expected an expression, found {}", self.describe())),
        }
    }
}

fn ty_name(t: Type) -> &'static str {
    match t {
        Type::Int => "an integer",
        Type::Bool => "a boolean",
    }
}
