//! The concrete programs: a [`Program`] of [`Component`]s with control locations, integer and boolean
//! variables (local or global), and guarded transitions with simultaneous assignments.
//!
//! Variables are numbered system-wide; variable `i` is the formula symbol `Sym(i)`, so guards and
//! right-hand sides are plain [`Formula`]s and [`Term`]s, and weakest preconditions and SSA renaming
//! are substitutions. A transition carries an action name (synchronising with every other component
//! and property whose alphabet has it) or none (internal). Integers are mathematical integers.

use std::collections::BTreeSet;
use std::fmt;

use guarantor_lts::Lts;

use crate::formula::{Formula, Sym, Term};
use crate::syntax::{self, SyntaxError};

/// The sort of a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Type {
    /// Mathematical integers.
    Int,
    /// Booleans.
    Bool,
}

/// A concrete value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Value {
    /// An integer.
    Int(i128),
    /// A boolean.
    Bool(bool),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Int(v) => write!(f, "{v}"),
            Self::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// A declared variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    /// Its name.
    pub name: String,
    /// Its sort.
    pub ty: Type,
    /// The owning component, or `None` for a global (shared) variable.
    pub owner: Option<usize>,
    /// The initial value; `None` means any value.
    pub init: Option<Value>,
}

/// A guarded command `from -> to on action when guard do x := e, ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transition {
    /// Source location (index into [`Component::locations`]).
    pub from: usize,
    /// Target location.
    pub to: usize,
    /// The action, or `None` for an internal step.
    pub action: Option<String>,
    /// The guard over the pre-state.
    pub guard: Formula,
    /// Simultaneous assignments `(variable, new value)`, each variable at most once.
    pub assignments: Vec<(usize, Term)>,
    /// Source line (for messages).
    pub line: usize,
}

impl Transition {
    /// The value the transition gives `var`, if it assigns it.
    pub fn assigned(&self, var: usize) -> Option<&Term> {
        self.assignments.iter().find(|a| a.0 == var).map(|a| &a.1)
    }

    /// Variables read by the guard or the right-hand sides, and variables written.
    pub fn vars(&self) -> BTreeSet<usize> {
        let mut out: BTreeSet<usize> = self.guard.syms().iter().map(|s| s.0 as usize).collect();
        for (v, t) in &self.assignments {
            out.insert(*v);
            out.extend(term_syms(t).into_iter().map(|s| s.0 as usize));
        }
        out
    }

    /// The substitution `x := e` of this transition (for weakest preconditions and post-images).
    pub fn subst(&self) -> impl Fn(Sym) -> Option<Term> + '_ {
        move |s| self.assigned(s.0 as usize).cloned()
    }
}

/// The symbols of a term.
pub(crate) fn term_syms(t: &Term) -> BTreeSet<Sym> {
    match t {
        Term::Int(a) => a.lin.terms().iter().map(|x| x.0).collect(),
        Term::Bool(f) => f.syms(),
    }
}

/// One sequential process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Component {
    /// Its name.
    pub name: String,
    /// Control location names; indices are location ids.
    pub locations: Vec<String>,
    /// The initial location.
    pub initial: usize,
    /// Locations whose reachability is a violation.
    pub error_locations: Vec<usize>,
    /// The transitions.
    pub transitions: Vec<Transition>,
    /// User-supplied predicates over this component's variables (atoms).
    pub predicates: Vec<Formula>,
}

/// A safety property: a deterministic LTS over actions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    /// Its name.
    pub name: String,
    /// The property LTS (its alphabet is the set of actions it observes).
    pub lts: Lts,
}

/// A parsed program: variables, components, properties and user predicates over globals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Every variable; variable `i` is `Sym(i)`.
    pub vars: Vec<Variable>,
    /// The components.
    pub components: Vec<Component>,
    /// The properties.
    pub properties: Vec<Property>,
    /// User-supplied predicates over global variables (atoms).
    pub predicates: Vec<Formula>,
}

impl Program {
    /// Parses a program in the guarded-command language; `file` names the source in messages.
    ///
    /// ```
    /// let src = "component C {\n  var x: int = 0;\n  loc a, b;\n  a -> b on go when x < 3 do x := x + 1;\n}\n";
    /// let sys = guarantor_predabs::Program::parse(src, "c.gc")?;
    /// assert_eq!(sys.components[0].transitions.len(), 1);
    /// # Ok::<(), guarantor_predabs::SyntaxError>(())
    /// ```
    pub fn parse(src: &str, file: &str) -> Result<Self, SyntaxError> {
        syntax::parse(src, file)
    }

    /// The name of a variable symbol (`?n` for a symbol that is no variable).
    pub fn sym_name(&self, s: Sym) -> String {
        self.vars
            .get(s.0 as usize)
            .map_or_else(|| format!("?{}", s.0), |v| v.name.clone())
    }

    /// Prints a formula with variable names.
    pub fn show(&self, f: &Formula) -> String {
        f.display(&|s| self.sym_name(s)).to_string()
    }

    /// Whether variable `v` is global.
    pub fn is_global(&self, v: usize) -> bool {
        self.vars.get(v).is_some_and(|x| x.owner.is_none())
    }

    /// The LTS label of transition `t` of component `c`: its action, or `<component>.t<index>` for an
    /// internal step (internal steps stay visible so that counterexamples name them; no other
    /// component or property has these labels).
    pub fn label(&self, c: usize, t: usize) -> String {
        let comp = &self.components[c];
        comp.transitions[t]
            .action
            .clone()
            .unwrap_or_else(|| format!("{}.t{}", comp.name, t))
    }

    /// The actions (not internal labels) of component `c`.
    pub fn actions(&self, c: usize) -> BTreeSet<String> {
        self.components[c]
            .transitions
            .iter()
            .filter_map(|t| t.action.clone())
            .collect()
    }

    /// The initial value constraint `x = v` for every variable with an initial value.
    pub fn init_formula(&self) -> Formula {
        Formula::and(self.vars.iter().enumerate().filter_map(|(i, v)| {
            let s = Sym(i as u32);
            match v.init? {
                Value::Int(k) => Formula::eq(
                    &crate::formula::Affine::var(s),
                    &crate::formula::Affine::constant(k),
                )
                .ok(),
                Value::Bool(b) => Some(if b {
                    Formula::bool_var(s)
                } else {
                    Formula::bool_var(s).negate()
                }),
            }
        }))
    }
}
