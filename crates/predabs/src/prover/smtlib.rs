//! A backend that drives an external SMT-LIB2 solver through a pipe (`z3 -in -smt2` by default).
//!
//! One process serves every query: each query is wrapped in `(push 1)` / `(pop 1)`, declares its
//! symbols as `s<n>` constants, asserts the formula, asks `(check-sat)` and, when satisfiable,
//! `(get-value ...)` for the model. The process is started on the first query and killed when the
//! prover is dropped. Answers are read line by line; a value list is read until its parentheses
//! balance.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use super::{Model, Prover, ProverError, SatResult};
use crate::formula::{Atom, Formula, LinExpr, Sym};

/// A prover backed by an external SMT-LIB2 solver process.
#[derive(Debug)]
pub struct SmtLibProver {
    command: Vec<String>,
    process: Option<Session>,
}

#[derive(Debug)]
struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "(exit)");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl SmtLibProver {
    /// A prover running `command` (program and arguments); it must read SMT-LIB2 on stdin.
    pub fn new(command: Vec<String>) -> Self {
        Self {
            command,
            process: None,
        }
    }

    /// `z3 -in -smt2`.
    pub fn z3() -> Self {
        Self::new(vec!["z3".into(), "-in".into(), "-smt2".into()])
    }

    /// Whether `program` can be found on `PATH`.
    pub fn on_path(program: &str) -> bool {
        std::env::var_os("PATH")
            .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()))
    }

    fn session(&mut self) -> Result<&mut Session, ProverError> {
        if self.process.is_none() {
            let (prog, args) = self
                .command
                .split_first()
                .ok_or_else(|| ProverError::Process("empty solver command".into()))?;
            let mut child = Command::new(prog)
                .args(args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .map_err(|e| ProverError::Process(format!("cannot start {prog}: {e}")))?;
            let stdin = child
                .stdin
                .take()
                .ok_or_else(|| ProverError::Process("no stdin".into()))?;
            let stdout = child
                .stdout
                .take()
                .ok_or_else(|| ProverError::Process("no stdout".into()))?;
            let mut s = Session {
                child,
                stdin,
                stdout: BufReader::new(stdout),
            };
            send(
                &mut s,
                "(set-option :print-success false)\n(set-logic QF_LIA)\n",
            )?;
            self.process = Some(s);
        }
        self.process
            .as_mut()
            .ok_or_else(|| ProverError::Process("no session".into()))
    }
}

fn send(s: &mut Session, text: &str) -> Result<(), ProverError> {
    s.stdin
        .write_all(text.as_bytes())
        .and_then(|()| s.stdin.flush())
        .map_err(|e| ProverError::Process(e.to_string()))
}

fn read_line(s: &mut Session) -> Result<String, ProverError> {
    let mut line = String::new();
    let n = s
        .stdout
        .read_line(&mut line)
        .map_err(|e| ProverError::Process(e.to_string()))?;
    if n == 0 {
        return Err(ProverError::Process("solver closed its output".into()));
    }
    Ok(line.trim().to_string())
}

/// Reads one s-expression that may span several lines.
fn read_sexpr(s: &mut Session) -> Result<String, ProverError> {
    let mut text = String::new();
    loop {
        let line = read_line(s)?;
        text.push_str(&line);
        text.push(' ');
        let depth: i64 = text
            .chars()
            .map(|c| match c {
                '(' => 1,
                ')' => -1,
                _ => 0,
            })
            .sum();
        if depth <= 0 && !text.trim().is_empty() {
            return Ok(text);
        }
    }
}

fn int(out: &mut String, v: i128) {
    if v < 0 {
        let _ = write!(out, "(- {})", v.unsigned_abs());
    } else {
        let _ = write!(out, "{v}");
    }
}

fn lin(out: &mut String, l: &LinExpr) {
    let terms = l.terms();
    if terms.len() > 1 {
        out.push_str("(+");
    }
    for &(s, a) in terms {
        out.push(' ');
        if a == 1 {
            let _ = write!(out, "s{}", s.0);
        } else {
            out.push_str("(* ");
            int(out, a);
            let _ = write!(out, " s{})", s.0);
        }
    }
    if terms.len() > 1 {
        out.push(')');
    }
}

/// Writes `f` as an SMT-LIB2 term.
pub(crate) fn term(out: &mut String, f: &Formula) {
    match f {
        Formula::Const(b) => out.push_str(if *b { "true" } else { "false" }),
        Formula::Atom(Atom::Bool(s)) => {
            let _ = write!(out, "s{}", s.0);
        }
        Formula::Atom(Atom::Le(l, c) | Atom::Eq(l, c)) => {
            out.push_str(if matches!(f, Formula::Atom(Atom::Le(..))) {
                "(<= "
            } else {
                "(= "
            });
            lin(out, l);
            out.push(' ');
            int(out, *c);
            out.push(')');
        }
        Formula::Not(g) => {
            out.push_str("(not ");
            term(out, g);
            out.push(')');
        }
        Formula::And(gs) | Formula::Or(gs) => {
            out.push_str(if matches!(f, Formula::And(_)) {
                "(and"
            } else {
                "(or"
            });
            for g in gs {
                out.push(' ');
                term(out, g);
            }
            out.push(')');
        }
    }
}

/// Integer and boolean symbols of `f`.
fn sorts(f: &Formula) -> (Vec<Sym>, Vec<Sym>) {
    let mut ints = std::collections::BTreeSet::new();
    let mut bools = std::collections::BTreeSet::new();
    for a in f.atoms() {
        match a {
            Atom::Bool(s) => {
                bools.insert(s);
            }
            a => ints.extend(a.syms()),
        }
    }
    (ints.into_iter().collect(), bools.into_iter().collect())
}

/// Parses `((s1 5) (s2 (- 3)) (s4 true))`.
fn parse_values(text: &str, model: &mut Model) -> Result<(), ProverError> {
    let spaced = text.replace('(', " ( ").replace(')', " ) ");
    let tokens: Vec<&str> = spaced.split_whitespace().collect();
    let bad = || ProverError::Protocol(text.to_string());
    let mut i = 1; // skip the outer '('
    while i < tokens.len() && tokens[i] == "(" {
        let name = tokens.get(i + 1).ok_or_else(bad)?;
        let sym = Sym(name
            .strip_prefix('s')
            .and_then(|n| n.parse().ok())
            .ok_or_else(bad)?);
        let (value, next) = match tokens.get(i + 2) {
            Some(&"(") => {
                // (- n)
                let n: i128 = tokens
                    .get(i + 4)
                    .and_then(|t| t.parse().ok())
                    .ok_or_else(bad)?;
                (Some(-n), i + 7)
            }
            Some(&"true") => {
                model.bools.insert(sym, true);
                (None, i + 4)
            }
            Some(&"false") => {
                model.bools.insert(sym, false);
                (None, i + 4)
            }
            Some(t) => (Some(t.parse().map_err(|_| bad())?), i + 4),
            None => return Err(bad()),
        };
        if let Some(v) = value {
            model.ints.insert(sym, v);
        }
        i = next;
    }
    Ok(())
}

impl Prover for SmtLibProver {
    fn check(&mut self, f: &Formula) -> Result<SatResult, ProverError> {
        let (ints, bools) = sorts(f);
        let mut q = String::from("(push 1)\n");
        for s in &ints {
            let _ = writeln!(q, "(declare-const s{} Int)", s.0);
        }
        for s in &bools {
            let _ = writeln!(q, "(declare-const s{} Bool)", s.0);
        }
        q.push_str("(assert ");
        term(&mut q, f);
        q.push_str(")\n(check-sat)\n");
        let s = self.session()?;
        send(s, &q)?;
        let answer = read_line(s)?;
        let result = match answer.as_str() {
            "sat" => {
                let mut model = Model::default();
                let all: Vec<String> = ints
                    .iter()
                    .chain(&bools)
                    .map(|s| format!("s{}", s.0))
                    .collect();
                if !all.is_empty() {
                    send(s, &format!("(get-value ({}))\n", all.join(" ")))?;
                    parse_values(&read_sexpr(s)?, &mut model)?;
                }
                SatResult::Sat(model)
            }
            "unsat" => SatResult::Unsat,
            "unknown" => SatResult::Unknown("external solver said unknown".into()),
            other => {
                self.process = None;
                return Err(ProverError::Protocol(other.to_string()));
            }
        };
        send(s, "(pop 1)\n")?;
        Ok(result)
    }

    fn name(&self) -> &str {
        self.command.first().map_or("smtlib", String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_parse() {
        let mut m = Model::default();
        parse_values("((s1 5) (s2 (- 3)) (s4 true))", &mut m).unwrap();
        assert_eq!(m.int(Sym(1)), 5);
        assert_eq!(m.int(Sym(2)), -3);
        assert!(m.bool(Sym(4)));
    }

    #[test]
    fn terms_print() {
        let l = LinExpr::from_terms([(Sym(0), 2), (Sym(1), -1)]).unwrap();
        let mut out = String::new();
        term(&mut out, &Formula::Atom(Atom::Le(l, -4)).negate());
        assert_eq!(out, "(not (<= (+ (* 2 s0) (* (- 1) s1)) (- 4)))");
    }
}
