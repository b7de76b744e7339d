//! Fluent LTL formulas ([`Formula`]) over propositions ([`Prop`]): fluents and action sets.
//!
//! An [`Ltl`] bundles a formula with its proposition table and the actions it observes. Its
//! meaning is LTSA's: a run of the system is seen through the formula's *alphabet* (the actions
//! that start or end one of its fluents, the actions its action propositions name, and an optional
//! extension); position `i` of the word is the valuation of the propositions just after the
//! `i`-th observed action. A fluent is true after one of its initiating actions until one of its
//! terminating actions (or from the start if `initially`); an action proposition `a` is the fluent
//! started by `a` and ended by every other action of the alphabet, so it holds just after `a`.
//! Actions outside the alphabet are not seen at all (they do not make a step of the word).

use std::collections::BTreeSet;
use std::fmt;

use crate::error::FormulaError;

/// The index of a proposition in an [`Ltl`]'s table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PropId(u32);

impl PropId {
    /// The id of position `index` of a proposition table.
    ///
    /// # Panics
    /// Panics if `index` does not fit in 32 bits.
    pub fn new(index: usize) -> Self {
        Self(u32::try_from(index).expect("proposition index fits in 32 bits"))
    }

    /// The position in the proposition table.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A fluent: true after an initiating action, false after a terminating one (FSP's
/// `fluent F = <{initiating}, {terminating}> initially B`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Fluent {
    /// The fluent's name (`CRITICAL.1` once FSP's indices are expanded).
    pub name: String,
    /// The actions that make it true.
    pub initiating: Vec<String>,
    /// The actions that make it false.
    pub terminating: Vec<String>,
    /// Its value before any action.
    pub initially: bool,
}

impl Fluent {
    /// A fluent that is initially false.
    ///
    /// ```
    /// use guarantor_ltl_core::Fluent;
    /// let f = Fluent::new("CRITICAL", ["enter"], ["exit"]).with_initially(true);
    /// assert!(f.initially);
    /// ```
    pub fn new<S: Into<String>, T: Into<String>>(
        name: impl Into<String>,
        initiating: impl IntoIterator<Item = S>,
        terminating: impl IntoIterator<Item = T>,
    ) -> Self {
        Self {
            name: name.into(),
            initiating: initiating.into_iter().map(Into::into).collect(),
            terminating: terminating.into_iter().map(Into::into).collect(),
            initially: false,
        }
    }

    /// The same fluent with another initial value.
    #[must_use]
    pub fn with_initially(mut self, initially: bool) -> Self {
        self.initially = initially;
        self
    }
}

/// A proposition of a formula.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Prop {
    /// A fluent.
    Fluent(Fluent),
    /// An action set: true just after one of these actions, false after any other observed one.
    Actions(Vec<String>),
}

impl Prop {
    /// The name the formula shows: the fluent's name, or the action (`{a, b}` for several).
    pub fn name(&self) -> String {
        match self {
            Prop::Fluent(f) => f.name.clone(),
            Prop::Actions(a) if a.len() == 1 => a[0].clone(),
            Prop::Actions(a) => format!("{{{}}}", a.join(", ")),
        }
    }
}

/// A fluent LTL formula (LTSA's `assert` syntax: `!`, `&&`, `||`, `->`, `<->`, `X`, `U`, `W`,
/// `[]`, `<>`).
///
/// Exhaustive on purpose: the operators are LTSA's, a closed set, and every checker of formulas
/// (guarantor-ltl's tableau) must interpret each of them; a new operator is a breaking change, so
/// the compiler names every place that has to learn it instead of a wildcard arm guessing.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Formula {
    /// `true`.
    True,
    /// `false`.
    False,
    /// A proposition of the table.
    Prop(PropId),
    /// `!f`.
    Not(Box<Formula>),
    /// `f && g`.
    And(Box<Formula>, Box<Formula>),
    /// `f || g`.
    Or(Box<Formula>, Box<Formula>),
    /// `f -> g`.
    Implies(Box<Formula>, Box<Formula>),
    /// `f <-> g`.
    Iff(Box<Formula>, Box<Formula>),
    /// `X f`: at the next position.
    Next(Box<Formula>),
    /// `f U g`: `g` eventually, `f` until then.
    Until(Box<Formula>, Box<Formula>),
    /// `f W g`: `f U g`, or `f` forever.
    WeakUntil(Box<Formula>, Box<Formula>),
    /// `[] f`: always.
    Always(Box<Formula>),
    /// `<> f`: eventually.
    Eventually(Box<Formula>),
}

impl Formula {
    /// `!f`.
    #[must_use]
    pub fn negation(f: Formula) -> Formula {
        Formula::Not(Box::new(f))
    }

    /// `f && g`.
    #[must_use]
    pub fn and(f: Formula, g: Formula) -> Formula {
        Formula::And(Box::new(f), Box::new(g))
    }

    /// `f || g`.
    #[must_use]
    pub fn or(f: Formula, g: Formula) -> Formula {
        Formula::Or(Box::new(f), Box::new(g))
    }

    /// The propositions the formula uses, each once.
    pub fn props(&self) -> BTreeSet<PropId> {
        let mut out = BTreeSet::new();
        let mut stack = vec![self];
        while let Some(f) = stack.pop() {
            match f {
                Formula::True | Formula::False => {}
                Formula::Prop(p) => {
                    out.insert(*p);
                }
                Formula::Not(a)
                | Formula::Next(a)
                | Formula::Always(a)
                | Formula::Eventually(a) => stack.push(a),
                Formula::And(a, b)
                | Formula::Or(a, b)
                | Formula::Implies(a, b)
                | Formula::Iff(a, b)
                | Formula::Until(a, b)
                | Formula::WeakUntil(a, b) => {
                    stack.push(a);
                    stack.push(b);
                }
            }
        }
        out
    }

    fn write(&self, props: &[Prop], f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bin = |f: &mut fmt::Formatter<'_>, a: &Formula, op: &str, b: &Formula| {
            write!(f, "(")?;
            a.write(props, f)?;
            write!(f, " {op} ")?;
            b.write(props, f)?;
            write!(f, ")")
        };
        match self {
            Formula::True => write!(f, "true"),
            Formula::False => write!(f, "false"),
            Formula::Prop(p) => match props.get(p.index()) {
                Some(prop) => write!(f, "{}", prop.name()),
                None => write!(f, "?{}", p.index()),
            },
            Formula::Not(a) => {
                write!(f, "!")?;
                a.write(props, f)
            }
            Formula::Next(a) => {
                write!(f, "X ")?;
                a.write(props, f)
            }
            Formula::Always(a) => {
                write!(f, "[]")?;
                a.write(props, f)
            }
            Formula::Eventually(a) => {
                write!(f, "<>")?;
                a.write(props, f)
            }
            Formula::And(a, b) => bin(f, a, "&&", b),
            Formula::Or(a, b) => bin(f, a, "||", b),
            Formula::Implies(a, b) => bin(f, a, "->", b),
            Formula::Iff(a, b) => bin(f, a, "<->", b),
            Formula::Until(a, b) => bin(f, a, "U", b),
            Formula::WeakUntil(a, b) => bin(f, a, "W", b),
        }
    }
}

/// A formula with its propositions and the actions it observes.
///
/// ```
/// use guarantor_ltl_core::{Fluent, Formula, Ltl, Prop, PropId};
/// let crit = Prop::Fluent(Fluent::new("CRIT", ["enter"], ["exit"]));
/// let f = Formula::Always(Box::new(Formula::negation(Formula::Prop(PropId::new(0)))));
/// let ltl = Ltl::new(f, vec![crit])?;
/// assert_eq!(ltl.alphabet().collect::<Vec<_>>(), ["enter", "exit"]);
/// assert_eq!(ltl.to_string(), "[]!CRIT");
/// # Ok::<(), guarantor_ltl_core::FormulaError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ltl {
    formula: Formula,
    props: Vec<Prop>,
    alphabet: BTreeSet<String>,
}

impl Ltl {
    /// A formula over the proposition table `props`.
    ///
    /// # Errors
    /// [`FormulaError::UnknownProp`] if the formula names a proposition outside the table;
    /// [`FormulaError::FluentNotDisjoint`] if a fluent's initiating and terminating sets share an
    /// action (LTSA: "True & False sets must be disjoint").
    pub fn new(formula: Formula, props: Vec<Prop>) -> Result<Self, FormulaError> {
        if let Some(p) = formula
            .props()
            .into_iter()
            .find(|p| p.index() >= props.len())
        {
            return Err(FormulaError::UnknownProp { index: p.index() });
        }
        let mut alphabet = BTreeSet::new();
        for p in &props {
            match p {
                Prop::Fluent(fl) => {
                    if let Some(a) = fl.initiating.iter().find(|a| fl.terminating.contains(a)) {
                        return Err(FormulaError::FluentNotDisjoint {
                            fluent: fl.name.clone(),
                            action: a.clone(),
                        });
                    }
                    alphabet.extend(fl.initiating.iter().cloned());
                    alphabet.extend(fl.terminating.iter().cloned());
                }
                Prop::Actions(a) => alphabet.extend(a.iter().cloned()),
            }
        }
        alphabet.remove("tau");
        Ok(Self {
            formula,
            props,
            alphabet,
        })
    }

    /// The same formula observing `actions` too (FSP's `assert A = f + {actions}`): a step of
    /// the word for each of them, and the end of every action proposition.
    #[must_use]
    pub fn with_extension<S: Into<String>>(mut self, actions: impl IntoIterator<Item = S>) -> Self {
        self.alphabet.extend(actions.into_iter().map(Into::into));
        self.alphabet.remove("tau");
        self
    }

    /// The same formula observing only the actions `keep` accepts. An action of a property that
    /// no component has moves the property alone in a composition (FSP's semantics, which LTSA's
    /// assertion checks keep: such actions are free); compiling a property within the system's
    /// actions reads the formula on the system's own runs only.
    ///
    /// ```
    /// use guarantor_ltl_core::parse;
    /// let f = parse("[]!b", &[])?.with_extension(["a"]).within(|a| a == "a");
    /// assert_eq!(f.alphabet().collect::<Vec<_>>(), ["a"]);
    /// # Ok::<(), guarantor_ltl_core::ParseError>(())
    /// ```
    #[must_use]
    pub fn within(&self, keep: impl Fn(&str) -> bool) -> Self {
        Self {
            formula: self.formula.clone(),
            props: self.props.clone(),
            alphabet: self.alphabet.iter().filter(|a| keep(a)).cloned().collect(),
        }
    }

    /// The formula.
    pub fn formula(&self) -> &Formula {
        &self.formula
    }

    /// The proposition table.
    pub fn props(&self) -> &[Prop] {
        &self.props
    }

    /// The observed actions, sorted.
    pub fn alphabet(&self) -> impl ExactSizeIterator<Item = &str> + Clone + '_ {
        self.alphabet.iter().map(String::as_str)
    }

    /// Whether the formula observes `action`.
    pub fn observes(&self, action: &str) -> bool {
        self.alphabet.contains(action)
    }

    /// `!self`, with the same propositions and alphabet.
    #[must_use]
    pub fn negated(&self) -> Self {
        Self {
            formula: Formula::negation(self.formula.clone()),
            props: self.props.clone(),
            alphabet: self.alphabet.clone(),
        }
    }

    /// The valuation before any action, one value per proposition of the table: each fluent's
    /// initial value; action propositions false.
    ///
    /// ```
    /// use guarantor_ltl_core::{parse, Fluent};
    /// let f = parse("[](UP -> go)", &[Fluent::new("UP", ["on"], ["off"]).with_initially(true)])?;
    /// assert_eq!(f.initial_valuation(), [true, false]);
    /// assert_eq!(f.step(&f.initial_valuation(), "go"), [true, true]);
    /// assert_eq!(f.step(&[true, true], "off"), [false, false]);
    /// # Ok::<(), guarantor_ltl_core::ParseError>(())
    /// ```
    pub fn initial_valuation(&self) -> Vec<bool> {
        self.props
            .iter()
            .map(|p| matches!(p, Prop::Fluent(f) if f.initially))
            .collect()
    }

    /// The valuation after the observed action `action` from `v` (see
    /// [`Ltl::initial_valuation`]): a fluent starts or ends on its actions and keeps its value on
    /// any other; an action proposition holds just after one of its actions.
    pub fn step(&self, v: &[bool], action: &str) -> Vec<bool> {
        self.props
            .iter()
            .zip(v)
            .map(|(p, &old)| match p {
                Prop::Fluent(f) => {
                    if f.initiating.iter().any(|a| a == action) {
                        true
                    } else if f.terminating.iter().any(|a| a == action) {
                        false
                    } else {
                        old
                    }
                }
                Prop::Actions(a) => a.iter().any(|x| x == action),
            })
            .collect()
    }
}

impl fmt::Display for Ltl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.formula.write(&self.props, f)
    }
}
