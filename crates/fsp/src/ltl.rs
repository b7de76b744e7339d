//! LTSA's fluents and LTL assertions: `fluent NAME[i:R].. = <{start}, {end}> initially E`,
//! `assert NAME = formula (+ {actions})?` and `constraint NAME = formula`, parsed into syntax
//! trees here ([`FluentSyntax`], [`AssertSyntax`]) and elaborated into [`Fluent`]s and
//! [`Assertion`]s over concrete names, in the vocabulary of `guarantor-ltl-core`.
//!
//! Elaboration follows LTSA (`FormulaSyntax.expand`): an indexed fluent gives one fluent per
//! value, named `NAME.v`; in a formula, `F[e]` names the fluent `F.v`, and `F[i:R]`, `F[R]` or
//! `F[a..b]` the disjunction of the fluents of every value; an upper-case name that is not a
//! fluent is another assertion, expanded in place; an action label (`red[ID].enter`, `{a, b}`)
//! is one action proposition true just after any of its actions; `forall [i:R] f` and
//! `exists [i:R] f` are the conjunction and disjunction of `f` over the values. Assertions and
//! fluents belong to the file, as LTSA's do, and are elaborated once with the file's constants.
//! The result is `guarantor-ltl-core`'s [`Ltl`]: its formula over a proposition table of the
//! fluents and action sets it uses, each once, which `guarantor-ltl` checks as it is (no second
//! vocabulary, no conversion).

use std::collections::{HashMap, HashSet};

use guarantor_ltl_core::{Fluent, Formula, Ltl, Prop, PropId};

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

/// An `assert` or `constraint`, expanded.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Assertion {
    /// Its name.
    pub name: String,
    /// The formula, with the fluents and action sets it uses as its proposition table and
    /// observing the `extension` too: what `guarantor-ltl` checks.
    pub formula: Ltl,
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
        out.push(Fluent::new(name, initiating, terminating).with_initially(initially));
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
        fluents: fluents.iter().map(|f| (f.name.as_str(), f)).collect(),
        defs,
    };
    defs.iter()
        .map(|def| {
            let env = Env::new(globals);
            let mut props = Vec::new();
            let formula =
                ctx.expand(&env, &def.formula, &mut vec![def.name.as_str()], &mut props)?;
            let extension = match &def.extension {
                Some(s) => env.set(s)?,
                None => Vec::new(),
            };
            // Elaboration resolved every name and checked every fluent, so this cannot fail;
            // should it, the assertion's position says where.
            let formula = Ltl::new(formula, props)
                .map_err(|e| RawError::new(ErrorKind::Semantic(e.to_string()), def.pos))?
                .with_extension(extension.iter().cloned());
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
    fluents: HashMap<&'a str, &'a Fluent>,
    defs: &'a [AssertSyntax],
}

/// The id of `prop` in the table `props`, added if it is not there yet: a fluent or action set
/// used twice is one proposition.
fn prop_id(prop: Prop, props: &mut Vec<Prop>) -> Formula {
    let i = props.iter().position(|q| *q == prop).unwrap_or_else(|| {
        props.push(prop);
        props.len() - 1
    });
    Formula::Prop(PropId::new(i))
}

impl Ctx<'_> {
    fn expand<'d>(
        &'d self,
        env: &Env<'_>,
        f: &'d FormulaSyntax,
        using: &mut Vec<&'d str>,
        props: &mut Vec<Prop>,
    ) -> Result<Formula, RawError> {
        let b = Box::new;
        Ok(match f {
            FormulaSyntax::Name { name, indices, pos } if indices.is_empty() => {
                if let Some(fluent) = self.fluents.get(name.as_str()) {
                    prop_id(Prop::Fluent((*fluent).clone()), props)
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
                    let out = self.expand(&Env::new(self.globals), &def.formula, using, props)?;
                    using.pop();
                    out
                } else {
                    return Err(self.undefined(name, *pos));
                }
            }
            FormulaSyntax::Name { name, indices, pos } => {
                let mut out: Option<Formula> = None;
                for (values, _) in env.index_combos(indices)? {
                    let full = std::iter::once(name.clone())
                        .chain(values.iter().map(ToString::to_string))
                        .collect::<Vec<_>>()
                        .join(".");
                    let Some(fluent) = self.fluents.get(full.as_str()) else {
                        return Err(self.undefined(&full, *pos));
                    };
                    let one = prop_id(Prop::Fluent((*fluent).clone()), props);
                    out = Some(match out {
                        None => one,
                        Some(prev) => Formula::Or(b(prev), b(one)),
                    });
                }
                out.unwrap_or(Formula::False)
            }
            FormulaSyntax::Action(label) => {
                // Sorted, so that `{a, b}` and `{b, a}` are one proposition.
                let mut actions = names_of(env, label)?;
                actions.sort();
                prop_id(Prop::Actions(actions), props)
            }
            FormulaSyntax::Unary(op, x) => {
                let x = b(self.expand(env, x, using, props)?);
                match op {
                    LtlOp::Not => Formula::Not(x),
                    LtlOp::Next => Formula::Next(x),
                    LtlOp::Always => Formula::Always(x),
                    _ => Formula::Eventually(x),
                }
            }
            FormulaSyntax::Binary(op, x, y) => {
                let x = b(self.expand(env, x, using, props)?);
                let y = b(self.expand(env, y, using, props)?);
                match op {
                    LtlOp::And => Formula::And(x, y),
                    LtlOp::Or => Formula::Or(x, y),
                    LtlOp::Implies => Formula::Implies(x, y),
                    LtlOp::Iff => Formula::Iff(x, y),
                    LtlOp::Until => Formula::Until(x, y),
                    _ => Formula::WeakUntil(x, y),
                }
            }
            FormulaSyntax::Quantified { all, indices, body } => {
                let mut out: Option<Formula> = None;
                for (_, binds) in env.index_combos(indices)? {
                    let one = self.expand(&env.with(&binds), body, using, props)?;
                    out = Some(match out {
                        None => one,
                        Some(prev) if *all => Formula::And(b(prev), b(one)),
                        Some(prev) => Formula::Or(b(prev), b(one)),
                    });
                }
                out.unwrap_or(if *all { Formula::True } else { Formula::False })
            }
        })
    }

    fn undefined(&self, name: &str, pos: Pos) -> RawError {
        let known: Vec<&str> = self
            .fluents
            .keys()
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
