//! LTSA's fluents and LTL assertions: `fluent NAME[i:R].. = <{start}, {end}> initially E`,
//! `assert NAME = formula (+ {actions})?` and `constraint NAME = formula`, parsed into syntax
//! trees here ([`FluentSyntax`], [`AssertSyntax`]) and elaborated into [`Fluent`]s and
//! [`Assertion`]s over concrete names.
//!
//! Elaboration follows LTSA (`FormulaSyntax.expand`): an indexed fluent gives one fluent per
//! value, named `NAME.v`; in a formula, `F[e]` names the fluent `F.v`, and `F[i:R]`, `F[R]` or
//! `F[a..b]` the disjunction of the fluents of every value; an upper-case name that is not a
//! fluent is another assertion, expanded in place; an action label (`red[ID].enter`, `{a, b}`)
//! is one action proposition true just after any of its actions; `forall [i:R] f` and
//! `exists [i:R] f` are the conjunction and disjunction of `f` over the values. Assertions and
//! fluents belong to the file, as LTSA's do, and are elaborated once with the file's constants.
//! The result is a plain typed form ([`LtlFormula`]); the `guarantor-ltl` crate checks it (the
//! facade converts).

use std::collections::HashSet;

use crate::ast::{Expr, Index, Label, SetExpr};
use crate::error::{ErrorKind, Pos, RawError};
use crate::eval::{Env, Globals, IndexedDefinition, each_instance};

/// How deeply assertions may use each other before elaboration gives up (a cycle).
const MAX_ASSERT_DEPTH: usize = 32;

/// A formula as written, before expansion.
#[derive(Clone, Debug)]
pub(crate) enum FormulaSyntax {
    /// An upper-case name with indices: a fluent, fluents, or another assertion.
    Name {
        name: String,
        indices: Vec<Index>,
        pos: Pos,
    },
    /// An action label or set.
    Action(Label),
    Unary(LtlOp, Box<FormulaSyntax>),
    Binary(LtlOp, Box<FormulaSyntax>, Box<FormulaSyntax>),
    /// `forall` (true) or `exists` (false) over the indices.
    Quantified {
        all: bool,
        indices: Vec<Index>,
        body: Box<FormulaSyntax>,
    },
}

/// An LTL operator of the syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LtlOp {
    Not,
    Next,
    Always,
    Eventually,
    And,
    Or,
    Implies,
    Iff,
    Until,
    WeakUntil,
}

/// `fluent NAME[i:R].. = <start, end> initially E`.
#[derive(Clone, Debug)]
pub(crate) struct FluentSyntax {
    pub(crate) name: String,
    pub(crate) pos: Pos,
    pub(crate) indices: Vec<Index>,
    pub(crate) initiating: Label,
    pub(crate) terminating: Label,
    pub(crate) initially: Option<Expr>,
}

/// `assert NAME = f + {ext}` or `constraint NAME = f`.
#[derive(Clone, Debug)]
pub(crate) struct AssertSyntax {
    pub(crate) name: String,
    pub(crate) pos: Pos,
    pub(crate) constraint: bool,
    pub(crate) formula: FormulaSyntax,
    pub(crate) extension: Option<SetExpr>,
}

/// A fluent over concrete action names: true after an action of `initiating` until one of
/// `terminating`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Fluent {
    /// `NAME`, or `NAME.v` for a value of an indexed fluent.
    pub name: String,
    /// The actions that make it true.
    pub initiating: Vec<String>,
    /// The actions that make it false.
    pub terminating: Vec<String>,
    /// Its value before any action (`initially E` with `E > 0`).
    pub initially: bool,
}

/// An expanded LTL formula: fluents by name, action sets by their names.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LtlFormula {
    /// `true` (an empty `forall`).
    True,
    /// `false` (an empty `exists`).
    False,
    /// A fluent of [`crate::Model::fluents`], by name.
    Fluent(String),
    /// An action proposition: true just after one of these actions.
    Actions(Vec<String>),
    /// `!f`.
    Not(Box<LtlFormula>),
    /// `X f`.
    Next(Box<LtlFormula>),
    /// `[]f`.
    Always(Box<LtlFormula>),
    /// `<>f`.
    Eventually(Box<LtlFormula>),
    /// `f && g`.
    And(Box<LtlFormula>, Box<LtlFormula>),
    /// `f || g`.
    Or(Box<LtlFormula>, Box<LtlFormula>),
    /// `f -> g`.
    Implies(Box<LtlFormula>, Box<LtlFormula>),
    /// `f <-> g`.
    Iff(Box<LtlFormula>, Box<LtlFormula>),
    /// `f U g`.
    Until(Box<LtlFormula>, Box<LtlFormula>),
    /// `f W g`.
    WeakUntil(Box<LtlFormula>, Box<LtlFormula>),
}

/// An `assert` or `constraint`, expanded.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Assertion {
    /// Its name.
    pub name: String,
    /// The formula.
    pub formula: LtlFormula,
    /// `+ {actions}`: actions the formula observes besides its own.
    pub extension: Vec<String>,
    /// Whether it is a `constraint` (a safety formula composed with the system as a component)
    /// rather than an `assert`.
    pub constraint: bool,
}

/// Elaborates the fluents of a file, in source order.
pub(crate) fn elaborate_fluents(
    globals: &Globals,
    defs: &[FluentSyntax],
) -> Result<Vec<Fluent>, RawError> {
    let mut out = Vec::new();
    each_instance(globals, defs, "fluent", |env, name, def| {
        let initiating = names_of(env, &def.initiating)?;
        let terminating = names_of(env, &def.terminating)?;
        if let Some(a) = initiating.iter().find(|a| terminating.contains(a)) {
            return Err(RawError::new(
                ErrorKind::Semantic(format!(
                    "fluent {name}: {a} both starts and ends it (the sets must be disjoint)"
                )),
                def.pos,
            ));
        }
        let initially = match &def.initially {
            Some(e) => env.eval_int(e)? > 0,
            None => false,
        };
        out.push(Fluent {
            name,
            initiating,
            terminating,
            initially,
        });
        Ok(())
    })?;
    Ok(out)
}

impl IndexedDefinition for FluentSyntax {
    fn name(&self) -> &str {
        &self.name
    }
    fn pos(&self) -> Pos {
        self.pos
    }
    fn indices(&self) -> &[Index] {
        &self.indices
    }
}

/// Elaborates the assertions and constraints of a file, in source order.
pub(crate) fn elaborate_assertions(
    globals: &Globals,
    fluents: &[Fluent],
    defs: &[AssertSyntax],
) -> Result<Vec<Assertion>, RawError> {
    let mut names = HashSet::new();
    for def in defs {
        if !names.insert(def.name.as_str()) {
            return Err(RawError::new(
                ErrorKind::Duplicate {
                    what: "assertion",
                    name: def.name.clone(),
                },
                def.pos,
            ));
        }
    }
    let ctx = Ctx {
        globals,
        fluents: fluents.iter().map(|f| f.name.as_str()).collect(),
        defs,
    };
    defs.iter()
        .map(|def| {
            let env = Env::new(globals);
            let formula = ctx.expand(&env, &def.formula, &mut vec![def.name.as_str()])?;
            let extension = match &def.extension {
                Some(s) => env.set(s)?,
                None => Vec::new(),
            };
            Ok(Assertion {
                name: def.name.clone(),
                formula,
                extension,
                constraint: def.constraint,
            })
        })
        .collect()
}

struct Ctx<'a> {
    globals: &'a Globals,
    fluents: HashSet<&'a str>,
    defs: &'a [AssertSyntax],
}

impl Ctx<'_> {
    fn expand<'d>(
        &'d self,
        env: &Env<'_>,
        f: &'d FormulaSyntax,
        using: &mut Vec<&'d str>,
    ) -> Result<LtlFormula, RawError> {
        let b = Box::new;
        Ok(match f {
            FormulaSyntax::Name { name, indices, pos } if indices.is_empty() => {
                if self.fluents.contains(name.as_str()) {
                    LtlFormula::Fluent(name.clone())
                } else if let Some(def) = self.defs.iter().find(|d| d.name == *name) {
                    // LTSA takes an assertion's name inside another as its formula (not a constraint's).
                    if using.contains(&name.as_str()) || using.len() > MAX_ASSERT_DEPTH {
                        return Err(RawError::new(
                            ErrorKind::Semantic(format!(
                                "assertion {name} is defined in terms of itself"
                            )),
                            *pos,
                        ));
                    }
                    using.push(name);
                    let out = self.expand(&Env::new(self.globals), &def.formula, using)?;
                    using.pop();
                    out
                } else {
                    return Err(self.undefined(name, *pos));
                }
            }
            FormulaSyntax::Name { name, indices, pos } => {
                let mut out: Option<LtlFormula> = None;
                for (values, _) in env.index_combos(indices)? {
                    let full = std::iter::once(name.clone())
                        .chain(values.iter().map(ToString::to_string))
                        .collect::<Vec<_>>()
                        .join(".");
                    if !self.fluents.contains(full.as_str()) {
                        return Err(self.undefined(&full, *pos));
                    }
                    let one = LtlFormula::Fluent(full);
                    out = Some(match out {
                        None => one,
                        Some(prev) => LtlFormula::Or(b(prev), b(one)),
                    });
                }
                out.unwrap_or(LtlFormula::False)
            }
            FormulaSyntax::Action(label) => LtlFormula::Actions(names_of(env, label)?),
            FormulaSyntax::Unary(op, x) => {
                let x = b(self.expand(env, x, using)?);
                match op {
                    LtlOp::Not => LtlFormula::Not(x),
                    LtlOp::Next => LtlFormula::Next(x),
                    LtlOp::Always => LtlFormula::Always(x),
                    _ => LtlFormula::Eventually(x),
                }
            }
            FormulaSyntax::Binary(op, x, y) => {
                let x = b(self.expand(env, x, using)?);
                let y = b(self.expand(env, y, using)?);
                match op {
                    LtlOp::And => LtlFormula::And(x, y),
                    LtlOp::Or => LtlFormula::Or(x, y),
                    LtlOp::Implies => LtlFormula::Implies(x, y),
                    LtlOp::Iff => LtlFormula::Iff(x, y),
                    LtlOp::Until => LtlFormula::Until(x, y),
                    _ => LtlFormula::WeakUntil(x, y),
                }
            }
            FormulaSyntax::Quantified { all, indices, body } => {
                let mut out: Option<LtlFormula> = None;
                for (_, binds) in env.index_combos(indices)? {
                    let one = self.expand(&env.with(&binds), body, using)?;
                    out = Some(match out {
                        None => one,
                        Some(prev) if *all => LtlFormula::And(b(prev), b(one)),
                        Some(prev) => LtlFormula::Or(b(prev), b(one)),
                    });
                }
                out.unwrap_or(if *all {
                    LtlFormula::True
                } else {
                    LtlFormula::False
                })
            }
        })
    }

    fn undefined(&self, name: &str, pos: Pos) -> RawError {
        let known: Vec<&str> = self
            .fluents
            .iter()
            .copied()
            .chain(self.defs.iter().map(|d| d.name.as_str()))
            .collect();
        RawError::new(
            ErrorKind::Undefined {
                what: "fluent or assertion",
                name: name.to_owned(),
                suggestion: crate::closest(name, &known).map(ToString::to_string),
            },
            pos,
        )
    }
}

/// The action names a label stands for, in order, without duplicates.
fn names_of(env: &Env<'_>, label: &Label) -> Result<Vec<String>, RawError> {
    let mut seen = HashSet::new();
    Ok(env
        .expand(label)?
        .into_iter()
        .map(|(name, _)| name)
        .filter(|n| seen.insert(n.clone()))
        .collect())
}
