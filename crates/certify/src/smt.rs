//! SMT-LIB2 for program certificates: the few operations the checker needs on the terms a
//! certificate or a program gives (validate one term, list and rename its variables), and the
//! process backend that discharges obligation scripts with an external solver.
//!
//! Variables are quoted symbols, `|x|`; the post-state copy of `x` is `|x'|` (a program variable's
//! name never contains `'`, so the two cannot clash). A term is accepted only if it is one
//! balanced s-expression (or one atom) without comments, strings or line breaks, so a term
//! embedded in a script stays one term: it cannot close the command around it or add commands.
//!
//! The backend ([`Solver`]) runs one solver process per batch of scripts (`z3 -in -smt2` unless
//! told otherwise): each script is followed by an `(echo ...)` marker and a `(reset)`, and the
//! answer of each script is the text printed before its marker. Only `unsat` discharges an
//! obligation; `sat`, `unknown`, an error or no answer do not.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::io::{Read, Write};
use std::process::{Command, Stdio};

/// The environment variable naming the solver command (program and arguments separated by
/// whitespace); the default is `z3 -in -smt2`.
pub const SOLVER_ENV: &str = "GUARANTOR_SMT_SOLVER";

/// Checks that `term` is one SMT-LIB2 term the checker can embed: one atom or one balanced
/// parenthesised expression, printable ASCII without `;`, `"`, `\` or line breaks, quoted symbols
/// without `'`.
///
/// # Errors
/// A sentence saying what is wrong.
pub fn validate_term(term: &str) -> Result<(), String> {
    let t = term.trim();
    if t.is_empty() {
        return Err("the term is empty".to_owned());
    }
    if let Some(c) = t
        .chars()
        .find(|&c| !(c == ' ' || c.is_ascii_graphic()) || matches!(c, ';' | '"' | '\\'))
    {
        return Err(format!("the term {t:?} contains {c:?}"));
    }
    let mut depth = 0usize;
    let mut closed_at = None;
    let mut in_quote = false;
    for (i, c) in t.char_indices() {
        if in_quote {
            if c == '|' {
                in_quote = false;
            } else if c == '\'' {
                return Err(format!("the term {t:?} names a post-state variable"));
            }
            continue;
        }
        if closed_at.is_some() && !c.is_ascii_whitespace() {
            return Err(format!("the term {t:?} is more than one term"));
        }
        match c {
            '|' => in_quote = true,
            '(' => depth += 1,
            ')' => {
                depth = depth.checked_sub(1).ok_or_else(|| {
                    format!("the term {t:?} closes a parenthesis it did not open")
                })?;
                if depth == 0 {
                    closed_at = Some(i);
                }
            }
            c if c.is_ascii_whitespace() && depth == 0 => closed_at = Some(i),
            _ => {}
        }
    }
    if in_quote {
        return Err(format!("the term {t:?} has an unterminated quoted symbol"));
    }
    if depth != 0 {
        return Err(format!("the term {t:?} has unbalanced parentheses"));
    }
    Ok(())
}

/// The quoted symbols of a (valid) term, without their bars: its variables.
pub fn variables(term: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut parts = term.split('|');
    parts.next();
    while let Some(name) = parts.next() {
        out.insert(name.to_owned());
        parts.next();
    }
    out
}

/// The term with every variable `|x|` replaced by its post-state copy `|x'|`.
pub fn post(term: &str) -> String {
    let mut out = String::with_capacity(term.len() + 8);
    for (i, part) in term.split('|').enumerate() {
        if i > 0 {
            out.push('|');
        }
        out.push_str(part);
        if i % 2 == 1 {
            out.push('\'');
        }
    }
    out
}

/// The quoted symbol of variable `name` (`|name|`), or of its post-state copy.
pub fn symbol(name: &str, post_state: bool) -> String {
    if post_state {
        format!("|{name}'|")
    } else {
        format!("|{name}|")
    }
}

/// `(and ..)` of the parts: `true` for none, the part itself for one.
pub fn and(parts: &[String]) -> String {
    match parts {
        [] => "true".to_owned(),
        [one] => one.clone(),
        _ => format!("(and {})", parts.join(" ")),
    }
}

/// `(or ..)` of the parts: `false` for none, the part itself for one.
pub fn or(parts: &[String]) -> String {
    match parts {
        [] => "false".to_owned(),
        [one] => one.clone(),
        _ => format!("(or {})", parts.join(" ")),
    }
}

/// `term` if `value`, else `(not term)`.
pub fn literal(term: &str, value: bool) -> String {
    if value {
        term.to_owned()
    } else {
        format!("(not {term})")
    }
}

/// What the solver said about one script.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Answer {
    /// `unsat`: the obligation is discharged.
    Unsat,
    /// `sat`: the obligation fails.
    Sat,
    /// Anything else (`unknown`, an error message, nothing): the obligation is not discharged.
    Other(String),
}

/// An external SMT-LIB2 solver, run as a process that reads scripts on its standard input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solver {
    command: Vec<String>,
}

impl Default for Solver {
    fn default() -> Self {
        Self::z3()
    }
}

impl Solver {
    /// A solver run as `command` (program, then arguments).
    pub fn new(command: Vec<String>) -> Self {
        Self { command }
    }

    /// `z3 -in -smt2`.
    pub fn z3() -> Self {
        Self::new(vec!["z3".into(), "-in".into(), "-smt2".into()])
    }

    /// The solver [`SOLVER_ENV`] names (split on whitespace), or [`Solver::z3`] when it is unset
    /// or blank.
    pub fn from_env() -> Self {
        match std::env::var(SOLVER_ENV) {
            Ok(cmd) if !cmd.trim().is_empty() => {
                Self::new(cmd.split_whitespace().map(str::to_owned).collect())
            }
            _ => Self::z3(),
        }
    }

    /// The command as one line (`z3 -in -smt2`).
    pub fn name(&self) -> String {
        self.command.join(" ")
    }

    /// Runs every script through one solver process and returns one answer per script.
    ///
    /// # Errors
    /// The solver cannot be started (not installed, empty command) or its output cannot be read.
    /// A solver that stops early is not an error: the scripts it did not answer get
    /// [`Answer::Other`].
    pub fn discharge(&self, scripts: &[String]) -> Result<Vec<Answer>, String> {
        if scripts.is_empty() {
            return Ok(Vec::new());
        }
        let (program, args) = self
            .command
            .split_first()
            .ok_or_else(|| "the solver command is empty".to_owned())?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {program}: {e}"))?;
        let mut input = String::from("(set-option :print-success false)\n");
        for (i, s) in scripts.iter().enumerate() {
            input.push_str(s);
            let _ = write!(input, "\n(echo \"{}\")\n(reset)\n", marker(i));
        }
        input.push_str("(exit)\n");
        let mut stdin = child
            .stdin
            .take()
            .ok_or_else(|| "the solver has no input".to_owned())?;
        // Written from a thread, so a solver that answers while it reads cannot block on a full
        // output pipe while we block on a full input pipe.
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
        let mut output = String::new();
        let read = child
            .stdout
            .take()
            .ok_or_else(|| "the solver has no output".to_owned())?
            .read_to_string(&mut output);
        let _ = writer.join();
        let _ = child.wait();
        read.map_err(|e| format!("cannot read the solver's output: {e}"))?;
        Ok(answers(&output, scripts.len()))
    }
}

fn marker(i: usize) -> String {
    format!("guarantor-obligation-{i}")
}

/// Splits the solver's output at the markers.
fn answers(output: &str, n: usize) -> Vec<Answer> {
    let mut out = Vec::with_capacity(n);
    let mut chunk: Vec<&str> = Vec::new();
    for line in output.lines() {
        let line = line.trim();
        if out.len() < n && line.trim_matches('"') == marker(out.len()) {
            out.push(match chunk.as_slice() {
                ["unsat"] => Answer::Unsat,
                ["sat"] => Answer::Sat,
                [] => Answer::Other("no answer".to_owned()),
                other => Answer::Other(other.join(" ")),
            });
            chunk.clear();
        } else if !line.is_empty() {
            chunk.push(line);
        }
    }
    while out.len() < n {
        out.push(Answer::Other(
            "the solver stopped before answering".to_owned(),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_are_validated() {
        assert!(validate_term("(<= |x| 3)").is_ok());
        assert!(validate_term("|b|").is_ok());
        assert!(validate_term("(and (not |b|) (= (+ |x| (* (- 2) |y|)) 0))").is_ok());
        for bad in [
            "",
            "(<= |x| 3))",
            "(<= |x| 3) (assert false)",
            "true) (assert false",
            "(<= |x| 3) ; comment",
            "(= |x| \"s\")",
            "(<= |x'| 3)",
            "(<= |x 3)",
            "a\nb",
        ] {
            assert!(validate_term(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn variables_and_post_copies() {
        let t = "(<= (+ |x| |y_1|) |x|)";
        assert_eq!(variables(t).into_iter().collect::<Vec<_>>(), ["x", "y_1"]);
        assert_eq!(post(t), "(<= (+ |x'| |y_1'|) |x'|)");
        assert_eq!(post("true"), "true");
    }

    #[test]
    fn answers_split_at_markers() {
        let out = "unsat\nguarantor-obligation-0\nsat\n\"guarantor-obligation-1\"\n(error \"x\")\nguarantor-obligation-2\n";
        assert_eq!(
            answers(out, 4),
            [
                Answer::Unsat,
                Answer::Sat,
                Answer::Other("(error \"x\")".to_owned()),
                Answer::Other("the solver stopped before answering".to_owned())
            ]
        );
    }

    #[test]
    fn a_missing_solver_is_an_error() {
        let s = Solver::new(vec!["guarantor-no-such-solver-xyz".into()]);
        assert!(s.discharge(&["(check-sat)".to_owned()]).is_err());
        assert!(
            Solver::new(Vec::new())
                .discharge(&["(check-sat)".to_owned()])
                .is_err()
        );
    }
}
